#!/usr/bin/env python3
"""The first run (scripts/demo, issue 27): its measuring step as the demo
runs it, on the demo's own method list, at one size.

summary:  --format summary --quiet prints under 60 lines: the header, the
          fastest method per size (ties marked), where the clear winner
          changes, the counts and how to see every table; `report FILE
          --format summary` prints the same; stderr stays empty.
context:  the records' context says what built the runner and where it ran
          (compiler, build type, git revision, kernel, CPU model), and the
          file validates.
Same harness as e2e.py; each is one ctest test.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, env, launch, out_path, show, suite_main  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def demo_methods(a):
    """The method list scripts/demo measures (its FIRST= lines), less those
    this build lacks (the Boost.MPI ones in an MPICH build)."""
    with open(os.path.join(ROOT, "scripts", "demo")) as f:
        parts = re.findall(r'^FIRST\+?="([^"]*)"', f.read(), re.M)
    check(parts, "scripts/demo names no FIRST methods")
    listed = subprocess.run([a.runner, "--list"], capture_output=True, text=True,
                            env=env()).stdout.split()
    return ",".join(m for m in "".join(parts).strip(",").split(",") if m in listed)


def run_demo(a, name):
    out = out_path(a, f"firstrun_{name}.json")
    cmd = launch(a) + [a.runner, "--methods", demo_methods(a), "--sizes", "small",
                       "--format", "summary", "--quiet", "--min-time", "0.001",
                       "-r", "3", "-o", out]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env())
    show(cmd, p)
    check(p.returncode == 0, f"exit {p.returncode}")
    return p, out


def test_summary(a):
    p, out = run_demo(a, "summary")
    lines = p.stdout.splitlines()
    check(len(lines) < 60, f"{len(lines)} lines, the summary must stay under 60")
    for needle in ("Fastest method per size", "Where the clear winner changes",
                   "points measured", "runner report " + out):
        check(needle in p.stdout, f"'{needle}' missing from the summary")
    check(p.stderr.strip() == "", f"--quiet left stderr lines: {p.stderr[:300]!r}")
    with open(out) as f:
        doc = json.load(f)
    suites = {r["suite"] for r in doc["records"]}
    check({"transfer", "combination"} <= suites, f"the demo's two families: {suites}")
    r = subprocess.run([a.runner, "report", out, "--format", "summary"],
                       capture_output=True, text=True, env=env())
    check(r.returncode == 0 and r.stdout == p.stdout,
          "report --format summary differs from the run's summary")


def test_context(a):
    _, out = run_demo(a, "context")
    with open(out) as f:
        ctx = json.load(f)["context"]
    b, s = ctx.get("build", {}), ctx.get("system", {})
    check(re.match(r"(GCC|Clang) \d", b.get("compiler", "")), f"compiler: {b}")
    check(b.get("build_type"), f"build type: {b}")
    check("git_revision" in b, f"git revision: {b}")
    if os.path.isdir(os.path.join(ROOT, ".git")):
        check(re.match(r"[0-9a-f]{40}", b["git_revision"]), f"git revision: {b}")
    check(s.get("kernel", "").startswith("Linux "), f"kernel: {s}")
    check(s.get("cpu_model"), f"CPU model: {s}")
    check("governor" in s, f"governor: {s}")
    v = subprocess.run([a.runner, "validate", out], capture_output=True, text=True, env=env())
    check(v.returncode == 0, f"validate: {v.stdout}{v.stderr}")


def main():
    return suite_main({"summary": test_summary, "context": test_context})


if __name__ == "__main__":
    sys.exit(main())
