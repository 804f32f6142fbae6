"""verl: the file `custom_reward_function.path` points at (verl loads it by path and calls
`custom_reward_function.name`, here `compute_score`, once per response). See verl_config.yaml
and python/README.md."""

from verifyfast.verl import compute_score

__all__ = ["compute_score"]
