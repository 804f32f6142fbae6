"""The Python API: the same fields and messages as the CLI, typed results, errors."""

from __future__ import annotations

import pickle

import pytest

import verifyfast
from verifyfast import AnswerPatterns, Extraction, InternalError, Verdict, extract, grade, grade_many


def test_the_readme_example_is_equal():
    v = grade("so the answer is \\boxed{1/2}", "0.5")
    assert isinstance(v, Verdict)
    assert v.equivalent is True and v.verdict == "equal" and bool(v)
    assert (v.predicted, v.gold) == ("1/2", "0.5")
    assert v.method == "exact_rational"
    assert v.predicted_method == "boxed"
    assert "1/2" in v.reason


def test_different_and_no_answer():
    v = grade("The answer is 7.", "8")
    assert v.equivalent is False and v.verdict == "different" and not v
    v = grade("I do not know.", "8")
    assert v.equivalent is False and v.predicted is None and v.method == "no_answer"
    assert v.predicted_method == "none" and v.low_confidence


def test_undecided_is_none_not_false():
    # Past the exact size bound: could not decide (docs/extract.md, "Could not decide").
    v = grade("2^{100000}", "2^{100000}+1")
    assert v.verdict == "undecided"
    assert v.equivalent is None and not v
    assert v.as_record()["equivalent"] is False  # the CLI writes false


def test_presets_differ_where_the_docs_say():
    assert grade("0.33", "\\frac13").equivalent is True
    assert grade("0.33", "\\frac13", preset="strict").equivalent is False
    assert verifyfast.PRESETS == ("strict", "lenient", "reward")


def test_question_decides_the_percent_policy():
    assert grade("The answer is 0.8", "80", question="What percent of the class passed?").equivalent
    assert not grade("The answer is 0.8", "80").equivalent


def test_numbers_keep_every_digit():
    assert grade("12345678901234567890123", 12345678901234567890123, preset="strict").equivalent
    assert not grade("12345678901234567890124", 12345678901234567890123).equivalent
    with pytest.raises(TypeError):
        grade("1", True)  # type: ignore[arg-type]


def test_doubts_are_the_cli_records():
    v = grade("\\boxed{5} but the answer is 6", "6")
    kinds = [d["kind"] for d in v.doubts]
    assert "rules_disagree" in kinds, v
    assert v.low_confidence


def test_extract_fields_and_character_spans():
    text = "Ünïcödé → so he bought 80-26=54 more"
    e = extract(text)
    assert isinstance(e, Extraction) and e
    assert e.answer == "54" and e.method == "final_equation"
    assert text[e.span[0] : e.span[1]] == e.raw == "54"
    assert text.encode()[e.byte_span[0] : e.byte_span[1]].decode() == "54"
    assert e.byte_span != e.span  # non-ASCII before the answer
    assert 0.0 < e.confidence <= 1.0 and e.low_confidence == (e.confidence < 0.7)
    for c in e.candidates:
        assert text[c.span[0] : c.span[1]] == c.raw
    rec = e.as_record()
    assert rec["span"] == list(e.byte_span) and rec["method"] == "final_equation"


def test_extract_no_answer_is_reported_as_such():
    e = extract("no idea")
    assert not e and e.answer is None and e.method == "none" and e.span is None
    assert e.low_confidence and e.confidence == 0.0


def test_several_boxes():
    e = extract("\\boxed{2} and \\boxed{3}")
    assert e.several == ("2", "3")


def test_answer_patterns_as_in_the_cli():
    text = "Reasoning... Answer: 3\n#### 1,000\n#### 42\n"
    p = AnswerPatterns(["gsm8k=#### (\\-?[0-9.,]+)"])
    assert p.names == ("gsm8k",) and len(p) == 1
    e = extract(text, answer_patterns=p)
    assert (e.answer, e.method) == ("42", "gsm8k")
    # The same patterns as a mapping, as pairs, and given uncompiled.
    assert extract(text, answer_patterns={"gsm8k": "#### (\\-?[0-9.,]+)"}).method == "gsm8k"
    assert extract(text, answer_patterns=[("g", "#### (\\-?[0-9.,]+)")]).method == "g"
    v = grade(text, "The answer is #### 42", answer_patterns=p)
    assert v.equivalent and (v.predicted_method, v.gold_method) == ("gsm8k", "gsm8k")


@pytest.mark.parametrize(
    "patterns, message",
    [
        (["two=(a)(b)"], "answer pattern `two`: needs exactly one capture group (the answer), found 2; use (?:…) for groups that are not the answer"),
        (["no-regex"], "answer pattern `no-regex`: expected NAME=REGEX"),
        (["p=(unclosed"], "answer pattern `p`: not a valid regex"),
        (["boxed=(x)"], "answer pattern `boxed`: the name is a built-in rule's; pick another"),
        (["a=(x)", "a=(y)"], "answer pattern `a`: the name is used twice"),
        ([" =(x)"], "answer pattern #1: the name is empty"),
    ],
)
def test_bad_patterns_raise_the_cli_message(patterns, message):
    with pytest.raises(ValueError) as e:
        AnswerPatterns(patterns)
    assert str(e.value).startswith(message)
    with pytest.raises(ValueError):
        grade("1", "1", answer_patterns=patterns)


def test_a_bad_preset_raises_the_cli_message():
    with pytest.raises(ValueError, match=r"invalid value 'loose' for '--preset <PRESET>' \[possible values: strict, lenient, reward\]"):
        grade("1", "1", preset="loose")
    with pytest.raises(ValueError, match="invalid value"):
        grade_many(["1"], ["1"], preset="Strict")


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        grade(None, "1")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        extract(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        grade("1", "1", question=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        AnswerPatterns("gsm8k=#### (\\d+)")  # type: ignore[arg-type]


def test_grade_many_equals_grade_in_order():
    outputs = ["\\boxed{3}", "so 4", "no idea", "2^{100000}", "x = 5"] * 50
    golds = ["3", "5", "1", "2^{100000}+1", "5"] * 50
    one = [grade(o, g) for o, g in zip(outputs, golds)]
    for threads in (None, 1, 2, 7):
        assert grade_many(outputs, golds, threads=threads) == one
    assert grade_many([], []) == []
    qs = ["What percent?"] + [None] * (len(outputs) - 1)
    assert grade_many(outputs, golds, questions=qs)[0] == grade(outputs[0], golds[0], question="What percent?")


def test_grade_many_bad_arguments():
    with pytest.raises(ValueError, match="differ in length: 2 vs 1"):
        grade_many(["1", "2"], ["1"])
    with pytest.raises(ValueError, match="questions and outputs differ in length"):
        grade_many(["1"], ["1"], questions=[None, None])
    with pytest.raises(ValueError, match="threads must be at least 1"):
        grade_many(["1"], ["1"], threads=0)
    with pytest.raises(TypeError):
        grade_many(["1"], ["1"], threads="2")  # type: ignore[arg-type]


def test_grade_many_refuses_a_str_for_a_sequence():
    # A str is a sequence of characters: "12" vs "12" would grade "1"/"1" and "2"/"2".
    with pytest.raises(TypeError, match="outputs must be a sequence of str"):
        grade_many("12", ["1", "2"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="ground_truths must be a sequence of str"):
        grade_many(["1", "2"], "12")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="questions must be a sequence of str"):
        grade_many(["1", "2"], ["1", "2"], questions="ab")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        grade_many([b"1"], ["1"])  # type: ignore[list-item]
    assert [v.verdict for v in grade_many(("1", "2"), iter(["1", "3"]))] == ["equal", "different"]


def test_extraction_record_is_the_cli_record_of_the_attributes():
    import dataclasses

    e = extract("<answer>3</answer> \\boxed{2} \\boxed{3}")
    rec = e.as_record()
    assert list(rec) == [
        "answer",
        "raw",
        "span",
        "method",
        "confidence",
        "low_confidence",
        "confidence_reason",
        "candidates",
    ]
    boxed = e.candidates[0]
    assert (boxed.method, boxed.several) == ("boxed", ("2", "3"))
    assert rec["candidates"][0] == {"method": "boxed", "answer": "3", "raw": "3", "span": [36, 37], "several": ["2", "3"]}
    # Read from the attributes, so a changed copy writes its own record.
    doubt = {"kind": "rules_disagree", "rule": "boxed", "answer": "5", "other_rule": "final_answer_marker", "other_answer": "6"}
    w = dataclasses.replace(e, answer="4", doubts=(doubt,), candidates=())
    assert (w.as_record()["answer"], w.as_record()["doubts"], w.as_record()["candidates"]) == ("4", [doubt], [])
    # A doubt the CLI does not write is refused, naming it.
    with pytest.raises(ValueError, match=r"doubts\[0\]: expected a doubt"):
        dataclasses.replace(e, doubts=({"kind": "vibes"},)).as_record()
    with pytest.raises(ValueError, match=r"doubts\[0\]"):
        dataclasses.replace(e, doubts=({"kind": "only_last_number", "extra": 1},)).as_record()


def test_a_text_cut_off_before_it_concludes_has_no_answer_and_no_doubt():
    # As `verifyfast extract` writes it: no answer, for certain (no model would find one).
    e = extract("Let me compute the total. First we add the apples and")
    assert e.answer is None and not e.low_confidence
    assert e.confidence_reason == "the text stops before it concludes: no answer"


def test_as_record_is_the_cli_record_of_the_attributes():
    import dataclasses

    v = grade("so the answer is \\boxed{1/2}", "0.5")
    rec = v.as_record()
    assert list(rec) == [
        "predicted_answer",
        "ground_truth_answer",
        "equivalent",
        "verdict",
        "method",
        "reason",
        "predicted_method",
        "ground_truth_method",
        "low_confidence",
    ]
    assert (rec["predicted_answer"], rec["equivalent"], rec["method"]) == ("1/2", True, "exact_rational")
    # Read from the attributes, so a changed copy writes its own record.
    w = dataclasses.replace(v, predicted="7", verdict="undecided", equivalent=None)
    assert (w.as_record()["predicted_answer"], w.as_record()["equivalent"]) == ("7", False)
    with pytest.raises(ValueError, match="no verdict named `maybe`"):
        dataclasses.replace(v, verdict="maybe").as_record()
    with pytest.raises(ValueError, match="no comparison named `vibes`"):
        dataclasses.replace(v, method="vibes").as_record()


def test_a_panic_is_an_exception_not_an_abort():
    # The panic hooks are built only with the `test-hooks` feature (the wheels leave them out).
    assert hasattr(verifyfast._native, "_panic_for_tests"), (
        "build the test build with the test hooks: "
        'MATURIN_PEP517_ARGS="--features test-hooks" pip install ./python[test] '
        "(or maturin develop --features test-hooks)"
    )
    with pytest.raises(InternalError, match="deliberate test panic"):
        verifyfast._native._panic_for_tests()
    with pytest.raises(InternalError, match="deliberate thread panic"):
        verifyfast._native._panic_in_threads_for_tests()
    assert issubclass(InternalError, RuntimeError)
    # The interpreter lives on and grades.
    assert grade("1", "1").equivalent


def test_results_and_patterns_pickle():
    v = grade("\\boxed{5} but the answer is 6", "6")
    assert pickle.loads(pickle.dumps(v)) == v
    e = extract("so 54")
    assert pickle.loads(pickle.dumps(e)) == e
    p = AnswerPatterns(["g=#### (\\d+)"])
    q = pickle.loads(pickle.dumps(p))
    assert q.names == ("g",) and extract("#### 7", answer_patterns=q).method == "g"


def test_help_is_useful():
    for f in (grade, grade_many, extract):
        assert f.__doc__ and "Args" in f.__doc__ or "Returns" in (f.__doc__ or "")
    assert "equivalent" in (Verdict.__doc__ or "")
    assert "span" in (Extraction.__doc__ or "")
    assert verifyfast.__doc__ and "grade_many" in verifyfast.__doc__
    assert verifyfast.__version__


def test_long_inputs_are_bounded():
    # 2 MiB of unclosed boxes: cut to the last 1 MiB and scanned linearly.
    v = grade("\\boxed{" * 300_000 + " so 5", "5")
    assert v.verdict in ("equal", "different", "undecided")
