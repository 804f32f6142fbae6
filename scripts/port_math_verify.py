#!/usr/bin/env python3
"""Ports Math-Verify's answer-comparison test pairs as data (tests/fixtures/math_verify_cases.jsonl).

Reads the test files of a huggingface/Math-Verify checkout with Python's `ast` (nothing of
Math-Verify is imported or run), takes every `@pytest.mark.parametrize` table whose test compares
a gold with a prediction, and writes one JSON line per pair: gold, prediction, expected verdict,
the source file and test, and the options the test passes (match_types, precision, strict,
allow_set_relation_comp). See tests/fixtures/README.md for what is skipped and why.

Usage: scripts/port_math_verify.py /work/.mirror/huggingface+Math-Verify/repo > tests/fixtures/math_verify_cases.jsonl
"""
import ast
import json
import math
import subprocess
import sys

# Test files whose parametrized tests compare a gold with a prediction.
FILES = [
    "tests/test_all.py",
    "tests/test_boxed.py",
    "tests/test_strict.py",
    "tests/test_numina_cases.py",
    "tests/test_open_thoughts.py",
    "tests/test_yujianll.py",
]


def show(repo, path):
    return subprocess.run(
        ["git", "-C", repo, "show", f"HEAD:{path}"], check=True, capture_output=True, text=True
    ).stdout


def call_options(fn):
    """The keyword options the test passes to compare_strings (literal ones only)."""
    opts = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "compare_strings":
            for kw in node.keywords:
                if isinstance(kw.value, ast.Constant) or isinstance(kw.value, ast.List):
                    try:
                        opts[kw.arg] = ast.literal_eval(kw.value)
                    except ValueError:
                        pass
                elif isinstance(kw.value, ast.Name):
                    opts[kw.arg] = {"param": kw.value.id}
    return opts


def table(node):
    """The parameter rows; an f-string row (`f"{math.sqrt(17):.15f}"`) is evaluated with only
    the math module in scope."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        code = compile(ast.Expression(node), "<table>", "eval")
        return eval(code, {"__builtins__": {}, "math": math})


def main():
    repo = sys.argv[1]
    commit = subprocess.run(
        ["git", "-C", repo, "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()
    for path in FILES:
        tree = ast.parse(show(repo, path))
        for fn in tree.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            for dec in fn.decorator_list:
                if not (isinstance(dec, ast.Call) and getattr(dec.func, "attr", "") == "parametrize"):
                    continue
                names = [n.strip() for n in ast.literal_eval(dec.args[0]).split(",")]
                rows = table(dec.args[1])
                opts = call_options(fn)
                for k, row in enumerate(rows):
                    rec = dict(zip(names, row))
                    expected = rec.get("expected", rec.get("result"))
                    out = {
                        "gold": rec["gold"],
                        "prediction": rec["pred"],
                        "expected": bool(expected),
                        "source": path,
                        "test": f"{fn.name}[{k}]",
                    }
                    for key in ("match_types", "precision", "strict", "allow_set_relation_comp"):
                        v = opts.get(key)
                        if isinstance(v, dict):
                            v = rec.get(v["param"])
                        if key in rec:
                            v = rec[key]
                        if v is not None:
                            out[key] = v
                    print(json.dumps(out, ensure_ascii=False))
    print(f"ported from {commit}", file=sys.stderr)


if __name__ == "__main__":
    main()
