"""The drop-in reward functions, called the way each trainer calls them (the trainers are not
installed: their documented call shapes are reproduced here)."""

from __future__ import annotations

import inspect
import pickle

import pytest

from verifyfast.rewards import AccuracyReward, accuracy_reward, completion_text
from verifyfast.verl import compute_score


def conv(text: str) -> list:
    return [{"role": "assistant", "content": text}]


# --- TRL: trl.rewards.accuracy_reward(completions, solution, log_extra=None, **kwargs) ---


def test_trl_signature():
    params = inspect.signature(accuracy_reward).parameters
    assert list(params)[:2] == ["completions", "solution"]
    assert params["log_extra"].default is None
    assert any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    assert accuracy_reward.__name__ == "accuracy_reward"  # TRL logs rewards by __name__


def test_trl_docstring_example_conversational():
    # The example in TRL's own docstring: [1.0, 0.0].
    solutions = [r"\frac{1}{3}", r"\frac{1}{3}"]
    completions = [conv(r"My answer is \boxed{\frac{1}{3}}"), conv(r"My answer is \boxed{\frac{1}{2}}")]
    assert accuracy_reward(completions, solutions) == [1.0, 0.0]


def test_trl_standard_format_plain_strings():
    assert accuracy_reward([r"so \boxed{0.5}", "I think 3"], ["1/2", "4"]) == [1.0, 0.0]


def test_how_grpo_trainer_calls_it():
    # GRPOTrainer: reward_func(prompts=..., completions=..., completion_ids=..., **columns,
    # trainer_state=..., log_extra=...), every dataset column as a keyword.
    logged = {}
    rewards = accuracy_reward(
        prompts=[[{"role": "user", "content": "What is 1/2 as a decimal?"}]] * 3,
        completions=[conv(r"\boxed{0.5}"), conv("no idea"), conv("The answer is 2")],
        completion_ids=[[1, 2], [3], [4, 5, 6]],
        solution=["0.5", "0.5", "Monday, probably"],
        question=["What is 1/2 as a decimal?"] * 3,
        trainer_state=object(),
        log_extra=lambda name, values: logged.__setitem__(name, values),
    )
    assert rewards == [1.0, 0.0, 0.0]
    assert logged["solution"] == ["0.5", "0.5", "Monday, probably"]
    assert logged["gold_parsed"][0] == "0.5"
    assert logged["answer_parsed"][1] == "[unparseable]"


def test_unreadable_gold_is_none():
    assert accuracy_reward([conv(r"\boxed{3}"), conv(r"\boxed{3}")], ["", "3"]) == [None, 1.0]


def test_could_not_decide_earns_no_reward():
    assert accuracy_reward(["2^{100000}"], ["2^{100000}+1"]) == [0.0]


def test_question_column_decides_the_percent_policy():
    assert accuracy_reward(["The answer is 0.8"], ["80"], question=["What percent passed?"]) == [1.0]
    assert accuracy_reward(["The answer is 0.8"], ["80"]) == [0.0]


def test_lengths_must_match():
    with pytest.raises(ValueError, match="differ in length"):
        accuracy_reward([conv("1")], ["1", "2"])


def test_completion_shapes():
    assert completion_text("plain") == "plain"
    assert completion_text(conv("hi")) == "hi"
    assert completion_text([{"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "image"}, {"type": "text", "text": "b"}]}]) == "ab"
    assert completion_text([]) == ""
    assert completion_text([{"role": "assistant", "content": None}]) == ""


def test_accuracy_reward_with_preset_and_patterns_pickles():
    strict = AccuracyReward(preset="strict", answer_patterns=["gsm8k=#### (\\-?[0-9.,]+)"], name="strict_accuracy")
    assert strict.__name__ == "strict_accuracy"
    assert strict(["so 0.33"], ["\\frac13"]) == [0.0]
    assert accuracy_reward(["so 0.33"], ["\\frac13"]) == [1.0]
    again = pickle.loads(pickle.dumps(strict))
    assert again(["Answer: 3\n#### 42"], ["42"]) == [1.0]
    with pytest.raises(ValueError, match="answer pattern `x`"):
        AccuracyReward(answer_patterns=["x=no group"])


# --- verl: compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs) ---


def test_verl_signature():
    params = list(inspect.signature(compute_score).parameters.values())
    assert [p.name for p in params[:4]] == ["data_source", "solution_str", "ground_truth", "extra_info"]
    assert params[3].default is None
    assert params[-1].kind is inspect.Parameter.VAR_KEYWORD


def test_how_verl_calls_it():
    # verl's reward managers: compute_score(data_source=..., solution_str=..., ground_truth=...,
    # extra_info=..., **reward_kwargs), keywords only.
    score = compute_score(
        data_source="openai/gsm8k",
        solution_str="She sold 48/2 = 24 clips in May, 48+24 = 72 in all. #### 72",
        ground_truth="72",
        extra_info={"split": "train", "index": 0, "question": "How many clips?"},
    )
    assert score == 1.0 and isinstance(score, float)
    assert compute_score("openai/gsm8k", "#### 71", "72") == 0.0
    assert compute_score("math", "no answer here", "72") == 0.0
    assert compute_score("math", r"\boxed{3}", "") == 0.0
    assert compute_score("math", "The answer is 0.8", "80", {"question": "What percent?"}) == 1.0
    assert compute_score("math", "so 72", 72) == 1.0


def test_verl_reward_kwargs():
    assert compute_score("m", "so 0.33", "\\frac13") == 1.0
    assert compute_score("m", "so 0.33", "\\frac13", None, preset="strict") == 0.0
    assert compute_score("m", "Answer: 3\n#### 42", "42", answer_patterns=["g=#### (\\d+)"]) == 1.0
    with pytest.raises(ValueError, match="invalid value"):
        compute_score("m", "1", "1", preset="loose")
