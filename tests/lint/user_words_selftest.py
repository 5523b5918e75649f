#!/usr/bin/env python3
"""The user-words lint fails where it should: on a small tree (README.md,
docs/methods.md with a provenance table, docs/results/x.md), each line
below that must fail is reported with its file, line and word, and none of
the lines that must pass is; the provenance table's seed numbers pass in
docs/methods.md only.

Exit 0 when every case behaves; else 1. Standard library only."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LINT = os.path.join(HERE, "user_words.py")

MUST_FAIL = [
    ("It measures seed 000's six ways of sending an array.", "seed 000"),
    ("Seeds 001 and 003: a message of the size's bytes.", "Seeds 001"),
    ("these pages also call them seeds 000 to 004", "seeds 000"),
    ("# Ping-pong: and the seed-001 variants", "seed-001"),
    ("the global clock (issue 46) holds", "issue 46"),
    ("Issue 45. Two MPI-4 forms", "Issue 45"),
    ("from issues 16 and 17", "issues 16"),
    ("the goals (issue #30) hold", "issue #30"),
    ("From contract v5 a method may", "contract v5"),
    ("Contract v11 adds options", "Contract v11"),
    ("the parts of contract-v4 points", "contract-v4"),
    ("its fixed counts, and seed\n003's study of the pings", "seed 003"),
]
MUST_PASS = [
    "`--seed 42` fixes the interleaved order.",
    "the seed of the order is recorded; --seed 123 repeats it",
    "bench/history --seed 20260101 --nights 60",
    "rendered with seed 20260101",
    "an RMA bug over shared memory (open-mpi/ompi#11349, #7967)",
    "mpi-forum/mpi-issues#153 made it explicit",
    "reframe #1430 and pmodels/mpich#7945",
    "open-mpi/ompi issue 7967 is the upstream report",
    "an issue with the clock; no issue here",
    "the figures: [results/contract-v4.md](results/contract-v4.md)",
    "the contract a plugin signs: the plugin interface (ABI 4)",
    "the MPI & Boost transfer benchmark's own runner",
]
PROVENANCE = """# The methods

## Provenance

| seed | program |
|---|---|
| seed 000 | the MPI & Boost transfer benchmark |

## Transfer

"""


def lint(tree):
    r = subprocess.run([sys.executable, LINT, tree], capture_output=True,
                       text=True)
    return r.returncode, r.stdout


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tree:
        passing = "\n".join(MUST_PASS) + "\n"
        write(os.path.join(tree, "README.md"), passing)
        write(os.path.join(tree, "docs", "methods.md"), PROVENANCE + passing)
        write(os.path.join(tree, "docs", "results", "x.md"), passing)
        rc, out = lint(tree)
        if rc != 0 or out:
            failures.append(f"lines that must pass fail:\n{out}")

        first = len(PROVENANCE.splitlines()) + len(MUST_PASS) + 1
        failing = "\n".join(line for line, _ in MUST_FAIL) + "\n"
        write(os.path.join(tree, "docs", "methods.md"),
              PROVENANCE + passing + failing)
        write(os.path.join(tree, "docs", "results", "x.md"),
              "## Provenance\n\n" + failing)
        rc, out = lint(tree)
        if rc != 1:
            failures.append(f"exit {rc} on lines that must fail")
        for i, (line, word) in enumerate(MUST_FAIL):
            for where in (f"docs/methods.md:{first + i}: '{word}'",
                          f"docs/results/x.md:{3 + i}: '{word}'"):
                if where not in out:
                    failures.append(f"not reported: {where} ({line!r})\n"
                                    f"output:\n{out}")
        if "docs/methods.md:7:" in out:
            failures.append("the provenance table's seed was reported")
        n_reported = len(out.splitlines())
        if n_reported != 2 * len(MUST_FAIL):
            failures.append(f"{n_reported} lines reported, expected "
                            f"{2 * len(MUST_FAIL)}:\n{out}")

        # The table outside docs/methods.md, or after the next heading, is
        # no provenance table.
        write(os.path.join(tree, "docs", "results", "x.md"), PROVENANCE)
        write(os.path.join(tree, "docs", "methods.md"),
              PROVENANCE + "| seed 002 | NMPM |\n")
        rc, out = lint(tree)
        for where in ("docs/results/x.md:7: 'seed 000'",
                      "docs/methods.md:11: 'seed 002'"):
            if where not in out:
                failures.append(f"not reported: {where}\noutput:\n{out}")
        if "docs/methods.md:7:" in out:
            failures.append(f"the provenance table's seed was reported:\n{out}")
    for f in failures:
        print(f)
    print("user_words lint self-test:",
          "FAIL" if failures else f"{len(MUST_FAIL)} failing lines, "
          f"{len(MUST_PASS)} passing lines, provenance: ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
