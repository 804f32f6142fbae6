"""The drop-in reward functions, called the way each trainer calls them (the trainers are not
installed: their documented call shapes are reproduced here)."""

from __future__ import annotations

import inspect
import pickle

import pytest

from verifyfast.rewards import AccuracyReward, accuracy_reward, completion_text
from verifyfast.verl import compute_score, make_compute_score


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
    # TRL's shapes: one str per item, `str()` of a list as TRL logs Math-Verify's parse.
    assert logged["gold_parsed"][0] == "['0.5']"
    assert logged["answer_parsed"][0] == "['0.5']"
    assert logged["answer_parsed"][1] == "[unparseable]"
    assert all(isinstance(x, str) for c in ("gold_parsed", "answer_parsed") for x in logged[c])


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
    assert AccuracyReward(preset="lenient")(["so 0.33"], ["\\frac13"]) == [1.0]
    # The default (reward) preset pays rounding only where the gold is written rounded.
    assert accuracy_reward(["so 0.33"], ["\\frac13"]) == [0.0]
    assert accuracy_reward(["so 0.333"], ["0.33"]) == [1.0]
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
    assert compute_score("m", "so 0.33", "\\frac13") == 0.0
    assert compute_score("m", "so 0.33", "\\frac13", None, preset="lenient") == 1.0
    assert compute_score("m", "so 0.33", "\\frac13", None, preset="strict") == 0.0
    assert compute_score("m", "Answer: 3\n#### 42", "42", answer_patterns=["g=#### (\\d+)"]) == 1.0
    with pytest.raises(ValueError, match="invalid value"):
        compute_score("m", "1", "1", preset="loose")


# --- The reward preset: what a policy would learn to game scores 0.0 ---

APPLES = "Tom has 5 apples and eats none. How many apples does Tom have?"

GAMING = [
    # (completion, solution, question, why)
    (r"It is \boxed{1} or \boxed{2}.", "2", None, "several different"),
    ("The answer is not 5.", "5", None, "negated"),
    (r"It is not true that the answer is $\boxed{5}$.", "5", None, "negated"),
    ("The answer is 2 or 3.", "2", None, "several different"),
    (r"$\boxed{5}$ is not the answer.", "5", None, "negated"),
    (r"The answer is at least $\boxed{5}$.", "5", None, "a bound"),
    (r"The answer is $\boxed{2}$ (or 3 if rounding).", "2", None, "several different"),
    ("Answer: $2$ (alternatively $3$)", "2", None, "several different"),
    ("Let me compute the cases:\n\n1.", "1", None, "list marker"),
    (r"\boxed{3.14}", r"\pi", None, "rounded"),
    (r"\boxed{1.41}", r"\sqrt2", None, "rounded"),
    (r"\boxed{0.33}", r"\frac13", None, "rounded"),
    (r"\boxed{\tan(100\pi/180)+4\sin(100\pi/180)}", r"-\sqrt{3}", "Simplify tan 100° + 4 sin 100°.", "restates the question"),
    # The question copied back: the rules read the number it states.
    (APPLES, "5", APPLES, "copied back"),
]


@pytest.mark.parametrize("completion,solution,question,why", GAMING)
def test_gaming_inputs_score_zero(completion, solution, question, why):
    logged = {}
    kw = {} if question is None else {"question": [question]}
    reward = AccuracyReward(log_details=True)
    assert reward([conv(completion)], [solution], log_extra=lambda k, v: logged.__setitem__(k, v), **kw) == [0.0]
    assert why in logged["verdict_reason"][0]
    assert accuracy_reward([completion], [solution], **kw) == [0.0]
    assert compute_score("m", completion, solution, {"question": question}) == 0.0


def test_what_stays_paid_under_the_reward_preset():
    assert accuracy_reward([r"\boxed{\pi}", r"\boxed{3.14159}", r"First \boxed{2}, then \boxed{2}."], ["3.14", "3.14", "2"]) == [1.0] * 3
    assert accuracy_reward([r"\boxed{-\sqrt{3}}"], [r"-\sqrt3"], question=["Simplify tan 100° + 4 sin 100°."]) == [1.0]
    # The same answer restated after "or" (as real outputs do), and "or" between words.
    restated = [r"so \( \boxed{0.1476} \) or \( 14.76\% \).", r"$\boxed{\sqrt[3]{1.5}}$ (or $\sqrt[3]{\frac{3}{2}}$)"]
    assert accuracy_reward(restated, ["0.1476", r"\sqrt[3]{\frac{3}{2}}"]) == [1.0, 1.0]
    assert accuracy_reward(["So 125 students like chess or basketball."], ["125"]) == [1.0]
    # The question restated, then answered.
    assert accuracy_reward([APPLES + r" He eats none, so \boxed{5}."], ["5"], question=[APPLES]) == [1.0]


def test_restated_question_is_no_answer_under_every_preset():
    for preset in ("lenient", "strict", "reward"):
        r = AccuracyReward(preset=preset)
        assert r([r"\boxed{\sqrt{8}}"], [r"2\sqrt2"], problem=[r"Simplify $\sqrt{8}$."]) == [0.0]


def test_required_answer_format():
    boxed = AccuracyReward(answer_format="boxed")
    logged = {}
    out = boxed(["The answer is 4.", r"so \boxed{4}"], ["4", "4"], log_extra=lambda k, v: logged.__setitem__(k, v))
    assert out == [0.0, 1.0]
    assert logged["answer_parsed"][0] == "[no \\boxed{} answer]"
    tag = AccuracyReward(answer_format="answer_tag")
    assert tag([r"\boxed{4}", "<answer>4</answer>"], ["4", "4"]) == [0.0, 1.0]
    rx = AccuracyReward(answer_format=r"(?s)^<think>.*</think>")
    assert rx(["<think>hm</think> \\boxed{4}", "\\boxed{4}"], ["4", "4"]) == [1.0, 0.0]
    with pytest.raises(ValueError, match="regular expression"):
        AccuracyReward(answer_format="(")
    assert compute_score("m", "The answer is 4.", "4", answer_format="boxed") == 0.0


def test_low_confidence_is_visible_and_can_score_zero():
    text = "He had 3 apples and bought 4 more, so maybe 7 or 8"
    v = __import__("verifyfast").grade(text, "8")
    assert v.low_confidence
    logged = {}
    keep = AccuracyReward(preset="lenient", log_details=True)
    keep([text], ["8"], log_extra=lambda k, v: logged.__setitem__(k, v))
    assert logged["low_confidence"] == [True]
    zero = AccuracyReward(preset="lenient", low_confidence="zero")
    assert zero([text], ["8"]) == [0.0]
    with pytest.raises(ValueError, match="low_confidence"):
        AccuracyReward(low_confidence="maybe")


# --- TRL's contracts ---


def test_none_solution_is_skipped_and_none_text_is_not_an_answer():
    logged = {}
    out = accuracy_reward(["The answer is None", "The answer is None"], [None, "None"], log_extra=lambda k, v: logged.__setitem__(k, v))
    assert out[0] is None
    assert logged["gold_parsed"][0] == "[unparseable]" and logged["answer_parsed"][0] == "[skipped]"
    assert accuracy_reward([None], ["1"]) == [0.0]
    assert accuracy_reward([conv(None)], ["1"]) == [0.0]


def test_reasoning_accuracy_reward_is_trls():
    from verifyfast.rewards import reasoning_accuracy_reward

    params = list(inspect.signature(reasoning_accuracy_reward).parameters)
    assert params[:4] == ["completions", "solution", "reasoning_delimiters", "log_extra"]
    # TRL's docstring example: [1.0, 0.0, 0.0].
    comps = [
        conv(r"<think> Reasoning content </think> The final answer is \boxed{\frac{1}{3}}"),
        conv(r"<think> Reasoning content </think> The final answer is \boxed{\frac{1}{2}}"),
        conv(r"<think> Reasoning content with partial answers \boxed{\frac{1}{3}} but no final answer"),
    ]
    logged = {}
    out = reasoning_accuracy_reward(comps, [r"\frac{1}{3}"] * 3, reasoning_delimiters=["</think>"], log_extra=lambda k, v: logged.__setitem__(k, v))
    assert out == [1.0, 0.0, 0.0]
    assert logged["answer_parsed"][2] == "[incomplete reasoning]" and logged["gold_parsed"][2] == "[incomplete reasoning]"
    # Incomplete reasoning is 0.0 even when the gold cannot be read (TRL checks it first).
    assert reasoning_accuracy_reward(["no end"], [""]) == [0.0]
    # The answer inside the thought does not count.
    assert reasoning_accuracy_reward([r"<think>\boxed{5}</think> I give up."], ["5"]) == [0.0]


def test_package_exposes_the_reward_modules():
    import verifyfast

    assert callable(verifyfast.rewards.accuracy_reward)
    assert callable(verifyfast.verl.compute_score)


def test_single_string_patterns_are_refused_everywhere():
    with pytest.raises(TypeError):
        __import__("verifyfast").grade("#### 3", "3", answer_patterns="g=#### (\\d+)")
    with pytest.raises(TypeError):
        compute_score("m", "#### 3", "3", answer_patterns="g=#### (\\d+)")
    with pytest.raises(TypeError):
        AccuracyReward(answer_patterns="g=#### (\\d+)")


# --- verl: the batch manager, dict results, ±1, several golds, load-time checks ---


def test_how_verls_batch_manager_calls_it():
    np = pytest.importorskip("numpy")
    # verl's BatchRewardManager.verify: keywords, data_sources a numpy object array,
    # extra_infos one dict per item, reward_kwargs spread in.
    scores = compute_score(
        data_sources=np.array(["gsm8k", "math", "math", "math"], dtype=object),
        solution_strs=["So 18. #### 18", r"\boxed{1/2}", "no idea", r"\boxed{4}"],
        ground_truths=["18", "0.5", "3", np.array(["2", "4"], dtype=object)],
        extra_infos=np.array([{"index": i} for i in range(4)], dtype=object),
    )
    assert scores == [1.0, 1.0, 0.0, 1.0]
    dict_score = make_compute_score(result="dict", scale="signed")
    out = dict_score(
        data_sources=["a", "b"],
        solution_strs=[r"\boxed{7}", ""],
        ground_truths=[{"target": ["6", "7"]}, "7"],
        extra_infos=[None, None],
    )
    assert out == [{"score": 1.0, "acc": True, "pred": "7"}, {"score": -1.0, "acc": False, "pred": "[INVALID]"}]
    # The batch manager reads score["score"] and logs every key of the dicts.
    assert all(set(d) == {"score", "acc", "pred"} for d in out)


def test_how_verls_naive_manager_calls_it_with_dict_results():
    score = compute_score(data_source="m", solution_str=r"\boxed{2}", ground_truth=[1, 2], extra_info={}, result="dict")
    assert score == {"score": 1.0, "acc": True, "pred": "2"}
    assert compute_score(data_source="m", solution_str=r"\boxed{2}", ground_truth=None) == 0.0


def test_verl_bad_settings_refused_when_made():
    with pytest.raises(ValueError, match="invalid value"):
        make_compute_score(preset="loose")
    with pytest.raises(ValueError, match="scale"):
        make_compute_score(scale="percent")
    with pytest.raises(ValueError, match="result"):
        make_compute_score(result="tuple")
    f = make_compute_score(preset="strict", result="dict")
    again = pickle.loads(pickle.dumps(f))
    assert again("m", "so 0.33", r"\frac13") == {"score": 0.0, "acc": False, "pred": "0.33"}
