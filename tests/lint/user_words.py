#!/usr/bin/env python3
"""The user docs speak in a user's words (README.md and docs/**/*.md).

The project grew from a few user requests ("seeds"), a numbered issue
list and a plugin contract with a version history. A reader has none of
these, so the docs name the program or the behaviour instead. This lint
fails on
  - "seed 000", "Seeds 001 and 003", "seed-001", "seeds 000 to 004": the
    word seed followed by a three-digit number (not the option --seed
    and not an RNG seed such as "seed 20260101" or "seed 42");
  - "issue 16", "Issue 45.", "issues 16 and 17", "issue #30": the word
    issue followed by a number (not an upstream reference such as
    "open-mpi/ompi#11349", "reframe #1430" or "open-mpi/ompi issue 7967");
  - "contract v4", "Contract v11", "contract-v4 points": the word contract
    followed by a version (not a file name such as results/contract-v4.md).
The one place the seed numbers may appear is docs/methods.md's provenance
table: the lines under a heading containing "Provenance", up to the next
heading. A word broken over two lines ("seed" at a line's end, "003's" at
the next one's start) is reported at the first.

Usage: user_words.py [ROOT] (default: the repository holding this file).
Exit 0 when no doc has such a word; else 1, one line per hit,
"file:line: 'word': why". Standard library only.
"""
import os
import re
import sys

RULES = [
    ("a seed number (name the program: see docs/methods.md, Provenance)",
     re.compile(r"(?<![-\w])seeds?[ -]\d{3}(?!\d)", re.IGNORECASE)),
    ("an issue number (describe the behaviour instead)",
     re.compile(r"(?<![-\w/#])issues?\s+#?\d+", re.IGNORECASE)),
    ("a contract version (say 'the plugin interface (ABI N)' or name the "
     "feature)",
     re.compile(r"(?<![-\w])contract[ -]v\d+(?![\w.-]*\.md)", re.IGNORECASE)),
]
# "open-mpi/ompi issue 7967": an upstream project's issue.
UPSTREAM = re.compile(r"[\w.-]+/[\w.-]+\s+$")
HEADING = re.compile(r"^#{1,6}\s")
PROVENANCE_FILE = os.path.join("docs", "methods.md")


def hits(text, provenance_allowed=False):
    """(line number, word, why) of every private word in text."""
    out = []
    in_provenance = False
    in_fence = False
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        if not in_fence and HEADING.match(line):
            in_provenance = "provenance" in line.lower()
        # The line and the start of the next: a match that starts on this
        # line and runs into the next one is this line's.
        following = lines[n].lstrip() if n < len(lines) else ""
        joined = line + " " + following if following else line
        for why, rule in RULES:
            for m in rule.finditer(joined):
                if m.start() >= len(line):
                    continue
                if rule is RULES[0][1] and provenance_allowed and \
                        in_provenance and not HEADING.match(line):
                    continue
                if rule is RULES[1][1] and UPSTREAM.search(line[:m.start()]):
                    continue
                out.append((n, m.group(0), why))
    return out


def docs(root):
    """README.md and every docs/**/*.md, as paths relative to root."""
    files = ["README.md"] if os.path.isfile(os.path.join(root, "README.md")) \
        else []
    for d, subdirs, names in os.walk(os.path.join(root, "docs")):
        subdirs.sort()
        for name in sorted(names):
            if name.endswith(".md"):
                files.append(os.path.relpath(os.path.join(d, name), root))
    return files


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.abspath(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    problems = []
    for rel in docs(root):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            text = f.read()
        for n, word, why in hits(text, rel == PROVENANCE_FILE):
            problems.append(f"{rel}:{n}: '{word}': {why}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
