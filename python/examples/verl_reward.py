"""verl: the file `custom_reward_function.path` points at (verl loads it by path and calls
`custom_reward_function.name`, here `compute_score`: once per response under the naive, prime
and dapo reward managers, once per batch under the batch manager). The settings are checked
here, when verl loads this file: a typo stops the run at once instead of scoring every response
0.0. See verl_config.yaml and python/README.md."""

from verifyfast.verl import make_compute_score

# The reward preset; `result="dict"` returns {"score", "acc", "pred"} so verl logs the answer
# read; `scale="signed"` would score a wrong answer -1.0.
compute_score = make_compute_score(preset="reward", result="dict")

__all__ = ["compute_score"]
