"""TRL: VerifyFast's accuracy reward in a GRPO run (python/README.md).

`verifyfast.rewards.accuracy_reward` takes the place of `trl.rewards.accuracy_reward`: same
signature, same 1.0 / 0.0 / None, no Math-Verify and no SIGALRM timeouts (it works in
asynchronous GRPO and in thread pools). The dataset needs a `solution` column (and may have a
`question` column, which decides the percent policy).
"""

from datasets import load_dataset
from trl import GRPOConfig, GRPOTrainer

from verifyfast.rewards import AccuracyReward, accuracy_reward

dataset = load_dataset("trl-lib/DeepMath-103K", split="train")

trainer = GRPOTrainer(
    model="Qwen/Qwen2-0.5B-Instruct",
    # Several reward functions are fine too; each is logged under its __name__.
    reward_funcs=[accuracy_reward, AccuracyReward(preset="strict", name="strict_accuracy")],
    args=GRPOConfig(output_dir="grpo-verifyfast", reward_weights=[1.0, 0.0]),
    train_dataset=dataset,
)
trainer.train()
