"""Differential test against TRL's ``accuracy_reward`` (optional: runs where ``math_verify`` is
installed, e.g. ``pip install math-verify==0.9.0``).

TRL's reward is Math-Verify's ``verify(parse(solution), parse(completion, <TRL's answer
config>))``, ``None`` when ``parse(solution)`` finds nothing. ``trl`` itself needs torch; when it
is importable its own function is used, otherwise the same two Math-Verify calls with the
configuration TRL documents (``trl/rewards/accuracy_rewards.py``: LaTeX extraction with units,
boxed first, no extraction without an anchor, first match).

On the long chain-of-thought dev file and GSM8K (``####`` removed), every item where TRL's reward
and ours differ is listed with both answers read, the checked label and our reason, and
counted as ours right or ours wrong by the label.
``VERIFYFAST_TRL_DIFF=/tmp/diff.txt`` also writes the list to a file.
"""

from __future__ import annotations

import os
from typing import Callable, List, Optional

import pytest

from conftest import FIXTURES, gsm8k_items, read_jsonl
from verifyfast.rewards import accuracy_reward

math_verify = pytest.importorskip("math_verify")


def _trl_reward() -> Callable[[List[str], List[str]], List[Optional[float]]]:
    try:
        from trl.rewards import accuracy_reward as trl_accuracy  # type: ignore

        return lambda outs, golds: trl_accuracy([[{"content": o}] for o in outs], golds)
    except Exception:  # trl (and torch) not installed: TRL's documented Math-Verify calls.
        from latex2sympy2_extended import NormalizationConfig
        from math_verify import LatexExtractionConfig, parse, verify

        answer_config = [
            LatexExtractionConfig(
                normalization_config=NormalizationConfig(units=True),
                boxed_match_priority=0,
                try_extract_without_anchor=False,
            )
        ]

        def reward(outs: List[str], golds: List[str]) -> List[Optional[float]]:
            out: List[Optional[float]] = []
            for o, g in zip(outs, golds):
                gold = parse(g)
                if not gold:
                    out.append(None)
                    continue
                answer = parse(o, extraction_config=answer_config, extraction_mode="first_match")
                out.append(float(verify(gold, answer)))
            return out

        return reward


def _diff(name: str, items: List[dict]) -> List[str]:
    trl = _trl_reward()
    outs = [i["output"] for i in items]
    golds = [i["gold"] for i in items]
    theirs = trl(outs, golds)
    logged = {}
    ours = accuracy_reward(outs, golds, log_extra=lambda k, v: logged.__setitem__(k, v), question=[i.get("question") for i in items])
    from verifyfast import grade_many

    verdicts = grade_many(outs, golds, questions=[i.get("question") for i in items], preset="reward")
    lines: List[str] = []
    counts = {"ours right": 0, "OURS WRONG": 0, "ours wrong where TRL skips": 0, "unlabelled": 0, "ours skipped": 0}
    trl_skipped = 0
    for k, (i, t, o, v) in enumerate(zip(items, theirs, ours, verdicts)):
        if t == o:
            continue
        label = i.get("label")
        trl_skipped += t is None
        if o is None:
            verdict = "ours skipped"
        elif label is None:
            verdict = "unlabelled"
        elif (o == 1.0) == bool(label):
            verdict = "ours right"
        elif t is None:
            # TRL leaves the item out of training; ours grades it, wrongly: one of the
            # grader's own misses (tests/extract_real.rs lists them), not a contract difference.
            verdict = "ours wrong where TRL skips"
        else:
            verdict = "OURS WRONG"
        counts[verdict] += 1
        why = "TRL skips: Math-Verify reads no gold in it" if t is None else ""
        lines.append(
            f"{name} {i['id']}: TRL {t} vs ours {o} ({verdict}; label {label}) {why}; "
            f"ours read `{v.predicted}` vs `{v.gold}`: {v.reason[:200]}"
        )
    summary = ", ".join(f"{k} {n}" for k, n in counts.items())
    lines.append(
        f"{name}: {len(items)} items, {len(lines)} disagreements ({trl_skipped} where TRL skips the "
        f"item, its parser reading no gold): {summary}"
    )
    return lines


def _report(lines: List[str]) -> None:
    print("\n".join(lines))
    path = os.environ.get("VERIFYFAST_TRL_DIFF")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


def test_long_cot_dev_file_against_trl():
    items = [
        {"id": r["id"], "output": r["output"], "gold": r["gold"], "question": r.get("question"), "label": r.get("label")}
        for r in read_jsonl(FIXTURES / "reasoning_dev.jsonl")
    ]
    lines = _diff("long-CoT", items)
    _report(lines)
    assert not any("OURS WRONG" in l for l in lines[:-1])
    # Where TRL skips (its parser reads no gold: 74 items), ours grades; 6 of those verdicts are
    # the grader's known misses on this file (differential equations written another way,
    # outputs whose answer is not found). A ceiling: lower it as the grader improves.
    assert sum("ours wrong where TRL skips" in l for l in lines[:-1]) <= 6


def test_gsm8k_against_trl():
    items = [
        # GSM8K's reference solutions are their own answers' derivations: labelled right
        # (tests/common/confidence.rs lists the few whose text is not).
        {"id": f"gsm8k-{k}", "output": i["output"], "gold": i["ground_truth"], "question": i["question"], "label": True}
        for k, i in enumerate(gsm8k_items())
    ]
    lines = _diff("GSM8K", items)
    _report(lines)
    assert not any("OURS WRONG" in l for l in lines[:-1])
