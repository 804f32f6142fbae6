"""The Python verdicts equal `verifyfast grade`'s, and the Python extractions' records
`verifyfast extract`'s, item by item, on the GSM8K fixture and the 770 real long-CoT outputs:
one core, two front ends."""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import gsm8k_items, reasoning_items
from verifyfast import extract, grade, grade_many

SETS = {"gsm8k_train": gsm8k_items, "reasoning_dev": reasoning_items}


@pytest.mark.parametrize("name", sorted(SETS))
@pytest.mark.parametrize("preset", ["lenient", "strict"])
def test_python_equals_cli_item_by_item(cli, name, preset):
    items = SETS[name]()
    assert len(items) == {"gsm8k_train": 7473, "reasoning_dev": 770}[name]
    lines = "".join(json.dumps({"id": i, **it}) + "\n" for i, it in enumerate(items))
    run = subprocess.run([cli, "grade", "--preset", preset], input=lines.encode(), capture_output=True, check=False)
    assert run.returncode == 0, run.stderr.decode()
    records = [json.loads(line) for line in run.stdout.decode().splitlines()]
    assert [r["id"] for r in records] == list(range(len(items)))
    many = grade_many(
        [it["output"] for it in items],
        [it["ground_truth"] for it in items],
        questions=[it["question"] for it in items],
        preset=preset,
    )
    mismatches = []
    for i, (it, r, m) in enumerate(zip(items, records, many)):
        del r["id"]
        one = grade(it["output"], it["ground_truth"], question=it["question"], preset=preset)
        if one.as_record() != r or m != one:
            mismatches.append((i, r, one.as_record()))
    assert not mismatches, f"{len(mismatches)} items differ, first: {mismatches[0]}"
    # The verdicts mean something: GSM8K is ~99.5 % equal (docs/extract.md, "Measured").
    equal = sum(r["equivalent"] for r in records)
    if name == "gsm8k_train":
        assert equal / len(records) > 0.99


# Texts where a record built field by field in Python once differed from the CLI's line: a
# text that stops before it concludes (the CLI says so instead of doubting it), a runner-up
# rule that found several answers (its `several`), doubts, and no answer at all.
EXTRA_TEXTS = [
    "Let me compute the total. First we add the apples and",
    "<answer>3</answer> \\boxed{2} \\boxed{3}",
    "\\boxed{5}\nThe answer is 6",
    "Ünïcödé → so he bought 80-26=54 more",
    "no idea",
    "",
]


@pytest.mark.parametrize("name", sorted(SETS) + ["extra"])
def test_extraction_records_equal_the_cli_lines(cli, name):
    if name == "extra":
        items = [{"text": t, "question": None} for t in EXTRA_TEXTS]
    else:
        items = [{"text": it["output"], "question": it["question"]} for it in SETS[name]()]
    lines = "".join(json.dumps({"id": i, **it}) + "\n" for i, it in enumerate(items))
    run = subprocess.run([cli, "extract"], input=lines.encode(), capture_output=True, check=False)
    assert run.returncode == 0, run.stderr.decode()
    records = [json.loads(line) for line in run.stdout.decode().splitlines()]
    assert [r["id"] for r in records] == list(range(len(items)))
    mismatches = []
    for i, (it, r) in enumerate(zip(items, records)):
        del r["id"]
        mine = extract(it["text"], question=it["question"]).as_record()
        if mine != r or list(mine) != list(r):
            mismatches.append((i, r, mine))
    assert not mismatches, f"{len(mismatches)} items differ, first: {mismatches[0]}"
