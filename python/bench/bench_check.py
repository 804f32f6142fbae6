"""Throughput of ``verifyfast.check`` / ``check_many`` (python/README.md, "Benchmark").

The cases of tests/fixtures/audit_probes.jsonl and audit_planted.jsonl (692 news-style pairs
written here, English and Chinese), repeated ``--times`` (default 10) to a batch of 6,920.
Two ways over the same batch, each timed ``--repeat`` times (default 5), the median pass
printed: ``check_many`` (parallel, GIL released) and a plain Python loop over ``check``. The
first 50 cases are checked untimed first. The load average before and after is printed: on
a shared machine, quote it with the figures.

A benchmark that prints figures, not a test:

    python3 -m venv /tmp/vf-bench && /tmp/vf-bench/bin/pip install ./python
    /tmp/vf-bench/bin/python python/bench/bench_check.py [--times N] [--threads T]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import verifyfast

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures"


def load(times):
    cases = []
    for name in ("audit_probes", "audit_planted"):
        with (FIXTURES / f"{name}.jsonl").open(encoding="utf-8") as f:
            cases += [json.loads(line) for line in f if line.strip()]
    pairs = [(c["context_input"], c["model_output"]) for c in cases]
    return pairs * times


def timed(label, fn, n, repeat):
    runs = []
    for _ in range(repeat):
        wall0, cpu0 = time.perf_counter(), time.process_time()
        fn()
        runs.append((time.perf_counter() - wall0, time.process_time() - cpu0))
    wall, cpu = sorted(runs, key=lambda r: r[1])[len(runs) // 2]
    print(
        f"{label} (median of {repeat}): {n} cases in {wall:.3f} s wall, {cpu:.3f} s CPU: "
        f"{n / wall:,.0f} cases/s wall, {n / cpu:,.0f} cases per CPU-second"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--times", type=int, default=10, help="how many copies of the fixtures")
    ap.add_argument("--repeat", type=int, default=5, help="timed passes of each way")
    ap.add_argument("--threads", type=int, default=None, help="check_many's threads")
    a = ap.parse_args()
    pairs = load(a.times)
    contexts, outputs = [c for c, _ in pairs], [o for _, o in pairs]
    print(f"load average before: {os.getloadavg()}")
    verifyfast.check_many(contexts[:50], outputs[:50])
    timed("check_many", lambda: verifyfast.check_many(contexts, outputs, threads=a.threads), len(pairs), a.repeat)
    timed("loop over check", lambda: [verifyfast.check(c, o) for c, o in pairs], len(pairs), a.repeat)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
