"""The type stub of the extension (verifyfast/_native.pyi) against the built module, both ways:
every public name and attribute the stub declares exists at runtime, and every one the module
has is in the stub. The native result types have exactly the public dataclasses' fields."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Dict, Set

import verifyfast
from verifyfast import Candidate, Extraction, Verdict, _native

STUB = Path(verifyfast.__file__).with_name("_native.pyi")
# Built only with the `test-hooks` feature (python/Cargo.toml); never part of the stub.
TEST_HOOKS = {"_panic_for_tests", "_panic_in_threads_for_tests"}


def stub() -> Dict[str, Set[str]]:
    """Top-level names of the stub, each with its members (empty for functions and values)."""
    names: Dict[str, Set[str]] = {}
    for node in ast.parse(STUB.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = {
                n.name if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) else n.target.id  # type: ignore[union-attr]
                for n in node.body
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) or (isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name))
            }
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = set()
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = set()
    return names


def public(names: Set[str]) -> Set[str]:
    return {n for n in names if not n.startswith("__")}


def test_stub_names_are_the_module_names():
    declared = stub()
    runtime = {n for n in dir(_native) if not n.startswith("__")} - TEST_HOOKS
    assert set(declared) == runtime


def test_stub_members_are_the_class_members():
    for name, members in stub().items():
        obj = getattr(_native, name)
        if not isinstance(obj, type) or issubclass(obj, BaseException):
            continue
        have = public(set(dir(obj))) - public(set(dir(object)))
        assert public(members) == have, name
        for m in members - public(members):
            assert hasattr(obj, m), f"{name}.{m}"


def test_native_results_have_the_dataclass_fields():
    # __init__.py copies the native results into the dataclasses by field name.
    for native, cls in ((_native.GradeResult, Verdict), (_native.ExtractResult, Extraction), (_native.CandidateResult, Candidate)):
        assert stub()[native.__name__] == {f.name for f in dataclasses.fields(cls)}, cls.__name__


def test_native_results_filled_into_the_dataclass_are_the_copied_ones():
    # grade()/grade_many() have the native side fill the Verdict (`into`); the result must be
    # what copying the native GradeResult by field name gives, field for field and in order.
    from verifyfast import _copy

    cases = [
        ("so the answer is \\boxed{1/2}", "0.5", None),
        ("It is 12 dollars.", "12", "How many dollars?"),
        ("The answer is 7 or 8 \\boxed{8} \\boxed{7}", "7", None),
        ("no number here", "3", None),
        ("\\boxed{3.14}", "\\pi", None),
    ]
    for output, gold, question in cases:
        for preset in ("strict", "lenient", "reward"):
            copied = _copy(Verdict, _native.grade(output, gold, question, preset))
            filled = _native.grade(output, gold, question, preset, into=Verdict)
            assert type(filled) is Verdict
            assert list(vars(filled).items()) == list(vars(copied).items())
            assert filled == copied and repr(filled) == repr(copied)
    outs, golds = [c[0] for c in cases], [c[1] for c in cases]
    many = _native.grade_many(outs, golds, into=Verdict)
    assert many == [_copy(Verdict, n) for n in _native.grade_many(outs, golds)]


def test_native_results_are_frozen():
    r = _native.grade("1", "1")
    try:
        r.verdict = "different"  # type: ignore[misc]
    except AttributeError:
        pass
    else:
        raise AssertionError("GradeResult is writable")
    assert r.verdict == "equal" and r.equivalent is True
