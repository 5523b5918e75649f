#!/usr/bin/env python3
"""The structure lint fails where it should: on a copy of core/, runner/
and docs/architecture.md, each of these breaks it with its own message:
a source file the map does not name, a folder it does not name, a folder
the map names that is gone, an include from a room sideways (tuning ->
compare), one upward (stats -> report), and a bare file name. The copy as it is passes.

Exit 0 when every case behaves; else 1. Standard library only."""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
LINT = os.path.join(HERE, "structure.py")


def fresh(tmp):
    tree = os.path.join(tmp, "tree")
    shutil.rmtree(tree, ignore_errors=True)
    for top in ("core", "runner"):
        shutil.copytree(os.path.join(ROOT, top), os.path.join(tree, top))
    os.makedirs(os.path.join(tree, "docs"))
    shutil.copy(os.path.join(ROOT, "docs", "architecture.md"),
                os.path.join(tree, "docs"))
    return tree


def lint(tree):
    r = subprocess.run([sys.executable, LINT, tree], capture_output=True,
                       text=True)
    return r.returncode, r.stdout


def append(path, text):
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        rc, out = lint(fresh(tmp))
        if rc != 0:
            failures.append(f"the unchanged copy fails:\n{out}")
        cases = [
            ("a file off the map",
             lambda t: open(os.path.join(t, "core/results/extra.cpp"), "w")
             .close(), "core/results/extra.cpp: not on the map"),
            ("a folder off the map",
             lambda t: (os.makedirs(os.path.join(t, "core/analysis/extra")),
                        open(os.path.join(t, "core/analysis/extra/x.hpp"),
                             "w").close()),
             "core/analysis/extra/: a folder the map"),
            ("a folder gone",
             lambda t: shutil.rmtree(os.path.join(t, "runner/startup")),
             "the map names runner/startup/, which holds no source file"),
            ("a room sideways",
             lambda t: append(os.path.join(t, "core/analysis/tuning/"
                                              "tuning_inputs.cpp"),
                              '#include "core/analysis/compare/compare.hpp"'
                              '\n'),
             "includes \"core/analysis/compare/compare.hpp\" of "
             "core/analysis/compare, a layer above core/analysis/tuning or "
             "beside it"),
            ("a room upward",
             lambda t: append(os.path.join(t, "core/analysis/stats/fit.cpp"),
                              '#include "core/analysis/report/report.hpp"'
                              '\n'),
             "includes \"core/analysis/report/report.hpp\" of "
             "core/analysis/report"),
            ("a bare include",
             lambda t: append(os.path.join(t, "runner/files/compare.cpp"),
                              '#include "compare.hpp"\n'),
             "includes \"compare.hpp\" by its bare name; name its room"),
        ]
        for name, change, expected in cases:
            tree = fresh(tmp)
            change(tree)
            rc, out = lint(tree)
            if rc == 0 or expected not in out:
                failures.append(f"{name}: exit {rc}, expected a line with "
                                f"'{expected}', got:\n{out}")
    for f in failures:
        print(f)
    print(f"structure self-test: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
