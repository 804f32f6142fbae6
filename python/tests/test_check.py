"""`verifyfast.check` is `verifyfast check`: the same report, key by key, on every case of the
planted set and the adversarial probes (tests/fixtures, written here; English and Chinese), one
by one and in parallel; its arguments are checked as the CLI's are."""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import FIXTURES, read_jsonl
from verifyfast import CheckReport, check, check_many
from verifyfast._native import InternalError  # noqa: F401  (the type a bug would raise)

SETS = ["audit_planted", "audit_probes"]


@pytest.mark.parametrize("name", SETS)
def test_python_equals_cli_case_by_case(cli, name):
    path = FIXTURES / f"{name}.jsonl"
    cases = list(read_jsonl(path))
    run = subprocess.run([cli, "check", "--batch", str(path)], capture_output=True, check=False)
    # 5: some finding counts (both sets plant fabricated numbers).
    assert run.returncode == 5, run.stderr.decode()
    lines = [json.loads(line) for line in run.stdout.decode().splitlines()]
    assert [line["id"] for line in lines] == [c["id"] for c in cases]
    many = check_many([c["context_input"] for c in cases], [c["model_output"] for c in cases], threads=3)
    mismatches = []
    for case, line, m in zip(cases, lines, many):
        one = check(case["context_input"], case["model_output"])
        if one.as_record() != line["check"] or m != one:
            mismatches.append((case["id"], line["check"], one.as_record()))
    assert not mismatches, f"{len(mismatches)} cases differ, first: {mismatches[0]}"
    # The reports mean something: the planted set's fabricated numbers are found
    # (docs/audit.md: 20/20 caught, 0/10 false alarms).
    if name == "audit_planted":
        flagged = {c["id"] for c, r in zip(cases, many) if not r.passed}
        fabricated = {c["id"] for c in cases if c["tag"] == "fabricated_number"}
        assert fabricated <= flagged


def test_a_report_reads_as_the_cli_prints_it():
    r = check("Revenue was $12.4 billion, up 8%.", "Revenue was $12.4 billion, up 8%, and margin 41%.")
    assert isinstance(r, CheckReport)
    assert r.counted == 1 and not r.passed
    (f,) = r.deterministic_findings
    assert (f.check, f.severity, f.output_text, f.status) == ("unsupported_number", "High", "41%", "counted")
    statuses = [(n.text, n.status) for n in r.number_grounding.numbers]
    assert statuses == [("12.4 billion", "verbatim"), ("8%", "verbatim"), ("41%", "not_found")]
    # Optional fields left empty are absent from the record, as from the CLI's JSON.
    assert "derivation" not in r.as_record()["deterministic_findings"][0]


def test_the_deviation_threshold_decides_a_slight_change():
    ctx, out = "Tickets cost $7.50.", "Tickets cost about $7.60."
    lenient = check(ctx, out)
    assert lenient.passed
    assert [(u.text, u.leniency, u.near) for u in lenient.uncounted_numbers] == [("7.60", "slight_change", "7.50")]
    exact = check(ctx, out, numeric_deviation_threshold=0.0)
    assert not exact.passed and exact.uncounted_numbers == ()


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="numeric_deviation_threshold: must be a fraction between 0 and 1"):
        check("a", "b", numeric_deviation_threshold=1.5)
    with pytest.raises(ValueError, match="numeric_deviation_threshold"):
        check("a", "b", numeric_deviation_threshold=float("nan"))
    with pytest.raises(TypeError):
        check("a", "b", numeric_deviation_threshold=True)
    with pytest.raises(TypeError):
        check(b"a", "b")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="context_input is 1048577 bytes, over the limit"):
        check("x" * (1024 * 1024 + 1), "y")
    with pytest.raises(ValueError, match="item 1: model_output is"):
        check_many(["a", "b"], ["c", "y" * (512 * 1024 + 1)])
    with pytest.raises(ValueError, match="differ in length: 2 vs 1"):
        check_many(["a", "b"], ["c"])
    with pytest.raises(TypeError, match="not a single str"):
        check_many("ab", "cd")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads must be at least 1"):
        check_many(["a"], ["b"], threads=0)
    assert check_many([], []) == []
