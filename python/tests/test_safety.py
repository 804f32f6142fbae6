"""Safe wherever trainers call it: threads, asyncio, thread pools, forked and spawned worker
processes, and the GIL released while `grade_many`, `grade`, `extract`, `check` and
`check_many` compute. Math-Verify's SIGALRM timeouts fail in exactly these places ("signal
only works in main thread")."""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import verifyfast
from verifyfast import check, check_many, extract, grade, grade_many
from verifyfast.rewards import accuracy_reward
from verifyfast.verl import compute_score

CASES = [
    ("so the answer is \\boxed{1/2}", "0.5", "equal"),
    ("The answer is 7.", "8", "different"),
    ("2^{100000}", "2^{100000}+1", "undecided"),
    ("x = 5", "5", "equal"),
]


def check_all() -> list:
    """Every public function once; returns what each gave (compared with the main thread's)."""
    out = [grade(o, g).verdict for o, g, _ in CASES]
    out += [v.verdict for v in grade_many([o for o, _, _ in CASES], [g for _, g, _ in CASES], threads=2)]
    out.append(extract("So he bought 80-26=54 more").answer)
    out += accuracy_reward([[{"role": "assistant", "content": o}] for o, _, _ in CASES], [g for _, g, _ in CASES])
    out.append(compute_score("gsm8k", "#### 18", "18"))
    return out


EXPECTED = [v for _, _, v in CASES] * 2 + ["54", 1.0, 0.0, 0.0, 1.0, 1.0]


def test_main_thread_baseline():
    assert check_all() == EXPECTED


def test_from_a_plain_thread():
    got = []
    t = threading.Thread(target=lambda: got.append(check_all()))
    t.start()
    t.join(60)
    assert got == [EXPECTED]


def test_many_threads_at_once():
    barrier = threading.Barrier(8)
    results = [None] * 8

    def run(i):
        barrier.wait()
        results[i] = [check_all() for _ in range(5)]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert results == [[EXPECTED] * 5] * 8


def test_thread_pool_executor():
    with ThreadPoolExecutor(max_workers=4) as pool:
        verdicts = list(pool.map(lambda c: grade(c[0], c[1]).verdict, CASES * 25))
        rewards = list(pool.map(lambda _: check_all(), range(8)))
    assert verdicts == [v for _, _, v in CASES] * 25
    assert rewards == [EXPECTED] * 8


def test_asyncio_to_thread():
    if not hasattr(asyncio, "to_thread"):  # Python 3.8 has none; 3.9+ does
        pytest.skip("asyncio.to_thread needs Python 3.9")

    async def main():
        return await asyncio.gather(*(asyncio.to_thread(check_all) for _ in range(6)))

    assert asyncio.run(main()) == [EXPECTED] * 6


def test_inside_a_running_event_loop():
    async def main():
        # Called directly on the loop's thread (a synchronous reward inside an async trainer).
        return check_all()

    assert asyncio.run(main()) == EXPECTED


def _in_child(_: int) -> list:
    return check_all()


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_worker_processes(method):
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"{method} is not available here")
    # Use threads in the parent first: a fork after grade_many's threads have ended is safe.
    grade_many(["1"] * 200, ["1"] * 200, threads=2)
    ctx = multiprocessing.get_context(method)
    with ctx.Pool(2) as pool:
        got = pool.map(_in_child, range(4))
        verdicts = pool.starmap(verifyfast.grade, [(o, g) for o, g, _ in CASES])
    assert got == [EXPECTED] * 4
    assert [v.verdict for v in verdicts] == [v for _, _, v in CASES]


def other_thread_coverage(work) -> float:
    """Runs `work` on a thread while this one records timestamps; returns the share of the
    call that this thread's timestamps cover. With the GIL held through the call, this thread
    could run at most one switch interval (5 ms) at its start."""
    window = {}
    stop = threading.Event()
    ticks = []

    def run():
        window["start"] = time.perf_counter()
        work()
        window["end"] = time.perf_counter()
        stop.set()

    t = threading.Thread(target=run)
    t.start()
    while not stop.is_set() and len(ticks) < 20_000_000:
        ticks.append(time.perf_counter())
    t.join(120)
    start, end = window["start"], window["end"]
    assert end - start > 0.05, "the call was too short to tell"
    inside = [x for x in ticks if start <= x <= end]
    assert inside, "no tick at all during the call: the GIL was held"
    return (inside[-1] - inside[0]) / (end - start)


def test_grade_many_releases_the_gil():
    outputs = ["Let me think. 3 + 4 = 7, and 7 * 6 = 42. So the final answer is \\boxed{42}."] * 60_000
    golds = ["42"] * 60_000
    covered = other_thread_coverage(lambda: grade_many(outputs, golds, threads=1))
    assert covered > 0.5, f"the other thread ran for only {covered:.0%} of the call"


def test_grade_and_extract_release_the_gil_too():
    # 2 MiB of unclosed boxes: one call takes tens of milliseconds (bounded, linear).
    long = "\\boxed{" * 300_000 + " so 5"

    def work():
        for _ in range(4):
            grade(long, "5")
            extract(long)

    covered = other_thread_coverage(work)
    assert covered > 0.5, f"the other thread ran for only {covered:.0%} of the calls"


def test_check_and_check_many_release_the_gil():
    # A context of ~0.9 MiB of figures (under the 1 MiB limit): a check reads it whole, so the
    # native part is most of the call (the report is a few numbers long). One call each: the
    # coverage spans the first and last tick, which calls in a row would let through between
    # them even with the GIL held inside each.
    context = " ".join(f"Sales rose {i % 97}.{i % 10}% to ${i} million in {1990 + i % 30}." for i in range(20_000))
    output = "Sales rose 12.5% to $41 million, with margins of 61%."
    covered = other_thread_coverage(lambda: check(context, output))
    assert covered > 0.5, f"the other thread ran for only {covered:.0%} of the call"
    covered = other_thread_coverage(lambda: check_many([context] * 3, [output] * 3, threads=1))
    assert covered > 0.5, f"the other thread ran for only {covered:.0%} of the call"
