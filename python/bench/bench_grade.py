"""Throughput of the Python package against Math-Verify, in one process (README, "Python").

GSM8K train (tests/fixtures/gsm8k_train.jsonl, 7,473 items, MIT): each solution with its
`####` line removed is the output, the `####` value the ground truth, as in
tests/extract_gsm8k.rs. Three ways to grade the same items, each timed once over all of them:

- ``verifyfast.grade_many`` (parallel, GIL released);
- a plain Python loop over ``verifyfast.grade``;
- a plain Python loop over Math-Verify's ``parse`` (gold and output) + ``verify`` -- what TRL's
  ``accuracy_reward`` runs per item.

Each grader first grades the first 50 items untimed (a trainer's steady state: imports,
one-time tables and caches warm). VerifyFast's passes are repeated (``--repeat``, default 5)
and the median pass is printed; Math-Verify's passes too (``--mv-repeat``, default 3: one pass
swung its rate by half between runs on a shared machine, and with it the ratio). The load
average before and after is printed: on a shared machine, quote it with the figures.

A benchmark that prints figures, not a test. Run it in a virtualenv with both packages:

    python3 -m venv /tmp/vf-bench && /tmp/vf-bench/bin/pip install ./python math-verify==0.9.0
    /tmp/vf-bench/bin/python python/bench/bench_grade.py [--limit N] [--threads T]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import time
from pathlib import Path

import verifyfast

FIXTURE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "gsm8k_train.jsonl"


def load(limit):
    items = []
    with FIXTURE.open(encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            at = row["answer"].rindex("####")
            items.append((row["answer"][:at], row["answer"][at + 4 :].strip(), row["question"]))
    return items[:limit] if limit else items


def timed(label, fn, n, repeat=1):
    runs = []
    for _ in range(repeat):
        wall0, cpu0 = time.perf_counter(), time.process_time()
        result = fn()
        runs.append((time.perf_counter() - wall0, time.process_time() - cpu0))
    # The median pass by CPU time (its wall clock with it).
    wall, cpu = sorted(runs, key=lambda r: r[1])[len(runs) // 2]
    if repeat > 1:
        label = f"{label} (median of {repeat})"
    print(
        f"{label:<44} {n:>6} items in {wall:8.3f} s wall ({n / wall:>9,.0f} items/s), "
        f"{cpu:7.3f} s CPU ({n / max(cpu, 1e-9):>9,.0f} items per CPU-second)"
    )
    return result, (n / wall, n / max(cpu, 1e-9))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=int, default=0, help="grade only the first N items")
    ap.add_argument("--threads", type=int, default=None, help="grade_many's threads (default: the CPUs)")
    ap.add_argument("--repeat", type=int, default=5, help="VerifyFast's timed passes (the median is printed)")
    ap.add_argument(
        "--mv-repeat", type=int, default=3, help="Math-Verify's timed passes (the median is printed)"
    )
    ap.add_argument("--skip-math-verify", action="store_true", help="time VerifyFast only")
    args = ap.parse_args()
    items = load(args.limit)
    outputs = [o for o, _, _ in items]
    golds = [g for _, g, _ in items]
    questions = [q for _, _, q in items]
    n = len(items)
    print(f"GSM8K train, `####` removed: {n} items; verifyfast {verifyfast.__version__}; {os.cpu_count()} CPUs")
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    warm = items[:50]
    verifyfast.grade_many([o for o, _, _ in warm], [g for _, g, _ in warm], questions=[q for _, _, q in warm])
    [verifyfast.grade(o, g, question=q) for o, g, q in warm]

    many, many_rate = timed(
        f"verifyfast.grade_many (threads={args.threads or 'auto'})",
        lambda: verifyfast.grade_many(outputs, golds, questions=questions, threads=args.threads),
        n,
        args.repeat,
    )
    loop, loop_rate = timed(
        "loop over verifyfast.grade",
        lambda: [verifyfast.grade(o, g, question=q) for o, g, q in items],
        n,
        args.repeat,
    )
    assert many == loop, "grade_many and grade disagree"
    equal = sum(v.equivalent is True for v in loop)
    print(f"verifyfast: {equal}/{n} equivalent ({100 * equal / n:.2f} %)")

    if args.skip_math_verify:
        print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        return
    try:
        import math_verify
        from math_verify import parse, verify
    except ImportError:
        print("Math-Verify is not installed: pip install math-verify==0.9.0")
        return
    # Its parse failures log a line each; keep the figures readable.
    logging.getLogger("math_verify").setLevel(logging.CRITICAL)
    version = getattr(math_verify, "__version__", None)
    if version is None:
        from importlib.metadata import version as dist_version

        version = dist_version("math-verify")

    def math_verify_loop():
        return [bool(verify(parse(g), parse(o))) for o, g, _ in items]

    [bool(verify(parse(g), parse(o))) for o, g, _ in warm]
    mv, mv_rate = timed(
        f"loop over Math-Verify {version} parse+verify", math_verify_loop, n, args.mv_repeat
    )
    print(f"Math-Verify: {sum(mv)}/{n} equivalent ({100 * sum(mv) / n:.2f} %)")
    print(
        f"ratio (wall clock): loop over grade {loop_rate[0] / mv_rate[0]:.0f}x Math-Verify, "
        f"grade_many {many_rate[0] / mv_rate[0]:.0f}x"
    )
    print(
        f"ratio (per CPU-second; on a busy machine the fairer figure): loop over grade "
        f"{loop_rate[1] / mv_rate[1]:.0f}x, grade_many {many_rate[1] / mv_rate[1]:.0f}x"
    )
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
