"""The examples load as their trainers load them (the trainers themselves are not installed)."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_verl_loads_the_reward_file_by_path():
    # verl's get_custom_reward_fn: spec_from_file_location(path), then getattr(module, name).
    spec = importlib.util.spec_from_file_location("custom_module", EXAMPLES / "verl_reward.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, "compute_score")
    # verl wraps it with the config's reward_kwargs (verl_config.yaml).
    kwargs = {"answer_patterns": ["gsm8k=#### (\\-?[0-9.,]+)"]}
    got = fn(data_source="openai/gsm8k", solution_str="So 3. #### 42", ground_truth="42", extra_info=None, **kwargs)
    assert got == {"score": 1.0, "acc": True, "pred": "42"}
    assert fn("openai/gsm8k", "So 3. #### 41", "42", None, **kwargs)["score"] == 0.0
    # verl's batch reward manager calls the same function with the batch's lists.
    got = fn(data_sources=["a", "b"], solution_strs=["#### 42", "#### 41"], ground_truths=["42", "42"], extra_infos=[None, None], **kwargs)
    assert [d["score"] for d in got] == [1.0, 0.0]


def test_verl_config_names_the_file_and_function():
    text = (EXAMPLES / "verl_config.yaml").read_text()
    assert "path: python/examples/verl_reward.py" in text and "name: compute_score" in text


def test_trl_example_passes_our_reward_functions():
    tree = ast.parse((EXAMPLES / "trl_grpo.py").read_text())
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "verifyfast.rewards" for a in n.names}
    assert {"accuracy_reward", "AccuracyReward"} <= imported
