"""Differential test against TRL's own ``accuracy_reward`` (needs ``math_verify``: ``pip install -r
python/tests/requirements-trl.txt``, which scripts/test does; Python >= 3.10; PyPI or a TRL wheel).

TRL's reward is Math-Verify's ``verify(parse(solution), parse(completion, <TRL's answer
config>))``, ``None`` when ``parse(solution)`` finds nothing. ``trl`` itself imports torch, so
its package is never imported: the test takes ``trl/rewards/accuracy_rewards.py`` from TRL's
wheel (``TRL_VERSION``, downloaded once with ``pip download trl==<version> --no-deps`` into
``target/trl-wheel/``, or the wheel named by ``VERIFYFAST_TRL_WHEEL``) and runs that file as a
module. Its only import beyond Math-Verify and the standard library is TRL's
``trl.import_utils.is_math_verify_available``, stubbed with the same check (is ``math_verify``
importable). Nothing of TRL's is kept in this repository. Under scripts/test (which sets
``VERIFYFAST_TRL_DEPS``) the test skips only when PyPI cannot be reached, saying so, and fails when
its dependencies are missing for any other reason; run by hand without them, it skips and says how
to install them.

On the long chain-of-thought dev file and GSM8K (``####`` removed), every item where TRL's reward
and ours differ is listed with what each side read (TRL's own ``log_extra`` columns), the
checked label and our reason, and counted by category and as ours right or ours wrong by the
label. ``VERIFYFAST_TRL_DIFF=/tmp/diff.txt`` also writes the list to a file.

The test fails on any disagreement where ours is wrong by the label, unless the item is in
:data:`REVIEWED`, each with the reason it is not a grading bug to fix here (the grader abstains
and says why, or no rule can read the answer soundly). A reviewed item that no longer disagrees
fails too, so the list stays true as the grader improves.
"""

from __future__ import annotations

import collections
import importlib.util
import os
import subprocess
import sys
import types
import zipfile
from pathlib import Path
from typing import Dict, List, Optional

import pytest

from conftest import FIXTURES, REPO, gsm8k_items, read_jsonl
from verifyfast import grade_many
from verifyfast.rewards import accuracy_reward


def _unavailable(what: str, module_level: bool = False) -> None:
    """A dependency of the test is missing: skip when PyPI could not be reached (or the test runs
    by hand without its dependencies), fail when scripts/test installed them or failed otherwise."""
    deps = os.environ.get("VERIFYFAST_TRL_DEPS")
    if deps is None:
        pytest.skip(f"{what}; pip install -r python/tests/requirements-trl.txt", allow_module_level=module_level)
    if deps.startswith("unreachable"):
        pytest.skip(f"{what}: PyPI could not be reached ({deps})", allow_module_level=module_level)
    pytest.fail(f"{what} (scripts/test's install: {deps})", pytrace=False)


if sys.version_info < (3, 10):
    pytest.skip(
        "TRL's accuracy_rewards.py needs Python >= 3.10 (`X | None` annotations, zip(strict=True))",
        allow_module_level=True,
    )
try:
    import math_verify  # noqa: F401  (TRL's reward calls it)
except ImportError as e:
    _unavailable(f"math_verify is not installed ({e})", module_level=True)

#: The TRL release whose reward is compared (pinned: its source is what the figures in
#: python/README.md, "Reward functions", were measured against).
TRL_VERSION = "1.16.0"
#: The file of TRL's wheel that holds ``accuracy_reward``.
TRL_SOURCE = "trl/rewards/accuracy_rewards.py"
#: The package name TRL's module is loaded under (never ``trl``: a real TRL stays untouched).
STUB_PACKAGE = "_verifyfast_trl_wheel"


def _wheel() -> Path:
    """TRL's wheel: ``$VERIFYFAST_TRL_WHEEL``, else one downloaded once (skips when it cannot be)."""
    env = os.environ.get("VERIFYFAST_TRL_WHEEL")
    if env:
        assert Path(env).is_file(), f"VERIFYFAST_TRL_WHEEL={env} does not exist"
        return Path(env)
    folder = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "trl-wheel"
    found = sorted(folder.glob(f"trl-{TRL_VERSION}-*.whl"))
    if found:
        return found[0]
    folder.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", f"trl=={TRL_VERSION}", "--no-deps", "--only-binary=:all:",
           "--disable-pip-version-check", "--quiet", "--timeout", "20", "--retries", "1", "-d", str(folder)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        _unavailable(f"could not download trl=={TRL_VERSION} ({e}); set VERIFYFAST_TRL_WHEEL to its wheel")
    found = sorted(folder.glob(f"trl-{TRL_VERSION}-*.whl"))
    if done.returncode != 0 or not found:
        last = (done.stderr.strip().splitlines() or ["no wheel"])[-1]
        _unavailable(f"could not download trl=={TRL_VERSION} ({last}); set VERIFYFAST_TRL_WHEEL to its wheel")
    return found[0]


def _load_trl_rewards() -> types.ModuleType:
    """TRL's ``accuracy_rewards.py``, read from its wheel and run as a module of a stub package."""
    cached = sys.modules.get(f"{STUB_PACKAGE}.rewards.accuracy_rewards")
    if cached is not None:
        return cached
    wheel = _wheel()
    with zipfile.ZipFile(wheel) as z:
        source = z.read(TRL_SOURCE).decode("utf-8")
    # The one TRL-internal import of that file (checked, so a new one fails loudly).
    internal = [line for line in source.splitlines() if line.startswith("from ..") or line.startswith("from .")]
    assert internal == ["from ..import_utils import is_math_verify_available"], internal
    root = types.ModuleType(STUB_PACKAGE)
    root.__path__ = []  # a package
    rewards = types.ModuleType(f"{STUB_PACKAGE}.rewards")
    rewards.__path__ = []
    import_utils = types.ModuleType(f"{STUB_PACKAGE}.import_utils")
    # TRL's helper answers whether the package is installed; so does this stub.
    import_utils.is_math_verify_available = lambda: importlib.util.find_spec("math_verify") is not None
    sys.modules.update({root.__name__: root, rewards.__name__: rewards, import_utils.__name__: import_utils})
    module = types.ModuleType(f"{STUB_PACKAGE}.rewards.accuracy_rewards")
    module.__package__ = rewards.__name__
    module.__file__ = f"{wheel}/{TRL_SOURCE}"
    sys.modules[module.__name__] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


def test_trl_source_is_loaded_from_its_wheel():
    trl = _load_trl_rewards()
    # TRL's docstring example, through TRL's own function.
    comps = [
        [{"role": "assistant", "content": r"My answer is \boxed{\frac{1}{3}}"}],
        [{"role": "assistant", "content": r"My answer is \boxed{\frac{1}{2}}"}],
    ]
    assert trl.accuracy_reward(comps, [r"\frac{1}{3}", r"\frac{1}{3}"]) == [1.0, 0.0]
    assert accuracy_reward(comps, [r"\frac{1}{3}", r"\frac{1}{3}"]) == [1.0, 0.0]


#: The long-CoT items where ours disagrees with TRL and with the label, each reviewed: why it is
#: not a grading bug to fix (the grader abstains and says why).
#: Every one is low-confidence in our verdict (``low_confidence``), and TRL skips every one (its
#: parser reads none of these golds). An id leaves the list when the grader gets it right.
_SKY = "skythought/Sky-T1-math-correct-5K-27B/Minerva-Math/"
REVIEWED: Dict[str, str] = {
    _SKY + "119": "undecidable here: `\\dot{v}=-\\frac{b}{m}v+\\frac{f}{m}` is the gold "
    "`m\\frac{dv}{dt}+bv=f` divided by m; equations equal up to a symbolic factor are equivalent only "
    "where it is non-zero, and derivatives are not evaluated: the verdict is undecided and says why",
    _SKY + "125": "undecidable here: the answer is a state-space system `\\begin{cases}\\dot{x}=…\\\\y=x"
    "\\end{cases}` (x standing for ω) against one equation in ω: undecided, and says why",
    _SKY + "131": "undecidable here: `L C\\frac{d^2v_o(t)}{dt^2}+v_o(t)=v_i(t)` is the gold times LC (a "
    "symbolic factor) with `v_o(t)` for `v_o`: undecided, and says why",
}


def _category(t: Optional[float], o: Optional[float], trl_answer: str) -> str:
    """Why the two rewards differ, in words (what each side did)."""
    if t is None:
        return f"TRL skips (Math-Verify reads no gold), ours grades {o}"
    if o is None:
        return "ours skips (no answer read in the solution), TRL grades"
    if trl_answer == "[unparseable]":
        return f"TRL reads no answer (no LaTeX it accepts), ours {o}"
    return f"both read an answer, TRL {t} ours {o}"


def _diff(name: str, items: List[dict]) -> List[str]:
    trl = _load_trl_rewards()
    outs = [i["output"] for i in items]
    golds = [i["gold"] for i in items]
    questions = [i.get("question") for i in items]
    theirs_logged: Dict[str, list] = {}
    theirs = trl.accuracy_reward(
        [[{"role": "assistant", "content": o}] for o in outs], golds, log_extra=theirs_logged.__setitem__
    )
    ours = accuracy_reward(outs, golds, question=questions)
    verdicts = grade_many(outs, golds, questions=questions, preset="reward")
    lines: List[str] = []
    counts = {
        "ours right": 0,
        "OURS WRONG": 0,
        "reviewed, ours undecided": 0,
        "reviewed, ours missed": 0,
        "unlabelled": 0,
        "ours skipped": 0,
    }
    categories: Dict[str, int] = collections.Counter()
    for k, (i, t, o, v) in enumerate(zip(items, theirs, ours, verdicts)):
        if t == o:
            continue
        label = i.get("label")
        reviewed = REVIEWED.get(i["id"])
        if o is None:
            verdict = "ours skipped"
        elif label is None:
            verdict = "unlabelled"
        elif (o == 1.0) == bool(label):
            verdict = "ours right"
        elif reviewed is None:
            verdict = "OURS WRONG"
        elif v.verdict == "undecided":
            verdict = "reviewed, ours undecided"
        else:
            verdict = "reviewed, ours missed"
        counts[verdict] += 1
        category = _category(t, o, theirs_logged["answer_parsed"][k])
        categories[category] += 1
        line = (
            f"{name} {i['id']}: TRL {t} vs ours {o} ({verdict}; label {label}; {category}); "
            f"TRL read {theirs_logged['answer_parsed'][k][:80]} vs gold {theirs_logged['gold_parsed'][k][:60]}; "
            f"ours read `{v.predicted}` vs `{v.gold}` ({v.verdict}, low_confidence {v.low_confidence}): {v.reason[:200]}"
        )
        if verdict.startswith("reviewed"):
            line += f"; reviewed: {reviewed}"
        lines.append(" ".join(line.split()))
    n_diff = len(lines)
    lines.append(f"{name}: {len(items)} items, {n_diff} disagreements: " + ", ".join(f"{k} {n}" for k, n in counts.items()))
    lines.append(f"{name} by category: " + "; ".join(f"{k}: {n}" for k, n in sorted(categories.items())))
    return lines


def _report(lines: List[str]) -> None:
    print("\n".join(lines))
    path = os.environ.get("VERIFYFAST_TRL_DIFF")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


def _items(lines: List[str]) -> List[str]:
    return lines[:-2]


def _check(name: str, lines: List[str], ids: List[str]) -> None:
    """None ours wrong by the label, beyond the reviewed items; each reviewed item of this set
    still disagrees (a fixed one leaves REVIEWED)."""
    wrong = [l for l in _items(lines) if "OURS WRONG" in l]
    assert not wrong, f"{name}: ours wrong by the label where TRL differs:\n" + "\n".join(wrong)
    seen = {l.split(": ", 1)[0].split(" ", 1)[1] for l in _items(lines) if "; reviewed: " in l}
    stale = sorted(r for r in REVIEWED if r in ids and r not in seen)
    assert not stale, f"{name}: reviewed items that no longer disagree (remove them from REVIEWED): {stale}"


def test_long_cot_dev_file_against_trl():
    items = [
        {"id": r["id"], "output": r["output"], "gold": r["gold"], "question": r.get("question"), "label": r.get("label")}
        for r in read_jsonl(FIXTURES / "reasoning_dev.jsonl")
    ]
    lines = _diff("long-CoT", items)
    _report(lines)
    _check("long-CoT", lines, [i["id"] for i in items])


def test_gsm8k_against_trl():
    items = [
        # GSM8K's reference solutions are their own answers' derivations: labelled right
        # (tests/common/confidence.rs lists the few whose text is not).
        {"id": f"gsm8k-{k}", "output": i["output"], "gold": i["ground_truth"], "question": i["question"], "label": True}
        for k, i in enumerate(gsm8k_items())
    ]
    lines = _diff("GSM8K", items)
    _report(lines)
    _check("GSM8K", lines, [i["id"] for i in items])
