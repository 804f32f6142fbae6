"""Math-Verify's side of scripts/bench-vs-math-verify: grade a `verifyfast grade` input file.

Reads JSONL `{"id", "output", "ground_truth", ...}` (the file `verifyfast grade` reads) and writes
one line `{"id", "equivalent"}` per item, so both graders are timed as whole processes on the same
input and their verdicts can be set against the labels.

Per item it does what Math-Verify's README shows ("Example Usage"): `parse` the gold, `parse` the
prediction, `verify(gold, answer)` in that order, with every default (extraction configs,
`parsing_timeout=5`, `timeout_seconds=5`, which use SIGALRM, so this runs on the main thread).
The gold is handed over as `$gold$`: the README says LaTeX "must be placed in latex environment
to be parsable", and the golds here are bare (`\\frac{\\sqrt{3}}{2}`, `(6,31,-1)`, `6+9i` parse
to nothing or to `6` without the dollars). `--gold-form raw` passes the gold as it is, to see
the difference (docs/extract.md, "Measured").

    python math_verify_driver.py ITEMS.jsonl [--gold-form dollars|raw] > verdicts.jsonl
"""

from __future__ import annotations

import argparse
import json
import logging
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("items", help="JSONL input of `verifyfast grade`")
    ap.add_argument("--gold-form", choices=["dollars", "raw"], default="dollars")
    args = ap.parse_args()

    # Imported here, after argument checks, but inside the timed process: the import (sympy,
    # the ANTLR parser) is part of what a user of the library pays per process.
    from math_verify import parse, verify

    # A parse failure logs a warning per item; keep stderr readable (and not timed as I/O).
    logging.getLogger("math_verify").setLevel(logging.CRITICAL)

    errors = 0
    out = sys.stdout
    with open(args.items, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            gold_text = str(row["ground_truth"])
            if args.gold_form == "dollars":
                gold_text = f"${gold_text}$"
            try:
                equivalent = bool(verify(parse(gold_text), parse(str(row["output"]))))
            except Exception as e:  # noqa: BLE001 - one item's failure must not stop the run
                errors += 1
                out.write(json.dumps({"id": row["id"], "equivalent": False, "error": repr(e)[:200]}) + "\n")
                continue
            out.write(json.dumps({"id": row["id"], "equivalent": equivalent}) + "\n")
    if errors:
        print(f"math_verify_driver: {errors} items raised (counted as not equivalent)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
