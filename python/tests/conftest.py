"""Shared helpers of the pytest suite (python/tests): the repository's fixtures and the CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Dict, Iterator, List

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"


def read_jsonl(path: Path) -> Iterator[dict]:
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def gsm8k_items() -> List[Dict[str, str]]:
    """GSM8K train (MIT; tests/fixtures/GSM8K_LICENSE): each solution with its `####` line
    removed as the output, the `####` value as the ground truth (as tests/extract_gsm8k.rs)."""
    items = []
    for row in read_jsonl(FIXTURES / "gsm8k_train.jsonl"):
        answer = row["answer"]
        at = answer.rindex("####")
        items.append(
            {"output": answer[:at], "ground_truth": answer[at + 4 :].strip(), "question": row["question"]}
        )
    return items


def reasoning_items() -> List[Dict[str, str]]:
    """The 770 real long-CoT outputs (tests/fixtures/reasoning_dev.jsonl) with their golds."""
    return [
        {"output": r["output"], "ground_truth": r["gold"], "question": r["question"]}
        for r in read_jsonl(FIXTURES / "reasoning_dev.jsonl")
    ]


@pytest.fixture(scope="session")
def cli() -> str:
    """The `verifyfast` binary: $VERIFYFAST_BIN, else the workspace's debug build (built now
    when missing)."""
    env = os.environ.get("VERIFYFAST_BIN")
    if env:
        assert Path(env).is_file(), f"VERIFYFAST_BIN={env} does not exist"
        return env
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    binary = target / "debug" / "verifyfast"
    if not binary.is_file():
        cargo = shutil.which("cargo")
        if cargo is None:
            pytest.fail("no verifyfast binary (set VERIFYFAST_BIN) and no cargo to build one")
        subprocess.run([cargo, "build", "--quiet", "--bin", "verifyfast"], cwd=REPO, check=True)
    return str(binary)
