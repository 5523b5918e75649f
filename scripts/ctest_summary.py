#!/usr/bin/env python3
"""One pass of ctest in one phrase, for scripts/test's last line.

    ctest_summary.py <junit.xml>

reads the file `ctest --output-junit` wrote and prints
"N passed, N failed (names), N skipped (name: why; ...)". Why a test was
skipped comes from its output: the line an e2e script prints before its
exit 77 ("SKIP: ..." or "skipped: ..."), GoogleTest's message after
"Skipped", else ctest's own reason (SKIP_RETURN_CODE=77, a missing
executable, a disabled test). Exits 2 when the file is missing or not
ctest's JUnit (the pass did not get as far as writing it).
"""
import re
import sys
import xml.etree.ElementTree as ET

# The line an e2e script prints before its exit 77 (tests/e2e/e2e.py
# run_test: "SKIP: why"; the MPICH build's Slurm stand-in: "skipped: why").
SKIP_LINE = re.compile(r"^\s*(?:SKIP|skipped):\s*(.+?)\s*$", re.MULTILINE)
# GoogleTest: "<file>:<line>: Skipped" and the GTEST_SKIP() message below it.
GTEST_SKIP = re.compile(r": Skipped\n(.+)")


def skip_reason(case):
    out = case.findtext("system-out") or ""
    m = SKIP_LINE.search(out)
    if m:
        return m.group(1)
    m = GTEST_SKIP.search(out)
    if m and m.group(1).strip():
        return m.group(1).strip()
    skipped = case.find("skipped")
    message = skipped.get("message", "") if skipped is not None else ""
    return message or case.get("status", "not run")


def summarize(path):
    root = ET.parse(path).getroot()
    if root.tag != "testsuite":
        raise ValueError(f"{path}: the root is <{root.tag}>, not ctest's <testsuite>")
    passed, failed, skipped = [], [], []
    for case in root.iter("testcase"):
        name = case.get("name", "?")
        if case.find("failure") is not None or case.get("status") == "fail":
            failed.append(name)
        elif case.find("skipped") is not None or case.get("status") in ("notrun", "disabled"):
            skipped.append(f"{name}: {skip_reason(case)}")
        else:
            passed.append(name)
    text = f"{len(passed)} passed, {len(failed)} failed"
    if failed:
        text += f" ({', '.join(failed)})"
    text += f", {len(skipped)} skipped"
    if skipped:
        text += f" ({'; '.join(skipped)})"
    return text


def main():
    if len(sys.argv) != 2:
        print("usage: ctest_summary.py <junit.xml>", file=sys.stderr)
        return 2
    try:
        print(summarize(sys.argv[1]))
    except (OSError, ET.ParseError, ValueError) as e:
        print(f"ctest_summary.py: no results: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
