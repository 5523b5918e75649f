#!/usr/bin/env python3
"""The fourth hardening round (issue 44): each defect and weak point the
hostile tester found in runner ab, compare, tune, runner algorithms, --set
and the scripts, a test that failed on b5f128b.

ab-options:     runner ab gates methods with options: --algorithms and a
                plugin's own option (--set), every point judged (D1); -r 3
                is refused before measuring (it could not fail) unless
                --allow-powerless; every exit 2 says why.
ab-incomplete:  compare of an interrupted ab file exits 2 naming it, 0
                with --allow-incomplete (weak point).
Same harness as e2e.py; each is one ctest test.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import add_mpi_args, check, env, mpirun, out_path, parse_args, run_test, show  # noqa: E402


def runner(a, args, timeout=120):
    p = subprocess.run([a.runner] + args, capture_output=True, text=True, timeout=timeout,
                       env=env())
    return show(["runner"] + args, p)


def builds(a, method_dir):
    return ["--base-plugin-dir", method_dir, "--new-plugin-dir", method_dir]


def own_plugins(a):
    """The runner's own plugin directory in the build tree."""
    return os.path.join(os.path.dirname(os.path.abspath(a.runner)), "lib", "mpiarena", "plugins")


def judged(a, p):
    j = json.loads(p.stdout)
    return {x["name"]: x["verdict"] for x in j["points"]}, j


# ------------------------------------------------------------------ D1

def test_ab_options(a):
    fast = ["--min-time", "0.0005", "-q", "-f", "json"]
    # The library's algorithms as the option "algorithm".
    out = out_path(a, "ab_algorithms.json")
    p = mpirun(a, a.np, ["ab"] + builds(a, own_plugins(a)) +
               ["-m", "allreduce", "--algorithms", "library,ring", "--sizes", "4KiB",
                "-r", "6", "--threshold", "50%", "-o", out] + fast)
    check(p.returncode == 0, f"ab with --algorithms: exit {p.returncode}, expected 0")
    verdict, j = judged(a, p)
    check(sorted(verdict) == ["collective/allreduce[algorithm=library]/1d/4096/np%d" % a.np,
                              "collective/allreduce[algorithm=ring]/1d/4096/np%d" % a.np],
          f"both algorithms judged: {verdict}")
    c = runner(a, ["compare", out, "-f", "json"])
    check(c.returncode == 0 and len(json.loads(c.stdout)["points"]) == 2,
          f"compare of the ab file judges 2 points: exit {c.returncode}")
    # A plugin's own option, at its default and set.
    for sets in ([], ["--set", "knobs.segment=1024"]):
        out = out_path(a, "ab_knobs.json")
        p = mpirun(a, a.np, ["ab"] + builds(a, a.fault_plugins) +
                   ["-m", "knobs", "--sizes", "small", "-r", "4", "--threshold", "50%",
                    "-o", out] + sets + fast)
        check(p.returncode == 0, f"ab of knobs {sets}: exit {p.returncode}, expected 0")
        verdict, _ = judged(a, p)
        check(len(verdict) == 1 and "knobs[" in next(iter(verdict)),
              f"knobs {sets}: one point judged, with its options: {verdict}")
    # A gate that could not fail is refused before anything is measured.
    p = mpirun(a, a.np, ["ab"] + builds(a, a.fault_plugins) +
               ["-m", "knobs", "--sizes", "small", "-r", "3"] + fast)
    check(p.returncode == 2 and "could not fail" in p.stderr and "-r 4" in p.stderr
          and "Holm" not in p.stdout, f"ab -r 3: exit {p.returncode}, refused up front")
    # Allowed: it measures, and Holm over the point's tests cannot fail
    # either; the exit says so unless allowed.
    p = mpirun(a, a.np, ["ab"] + builds(a, a.fault_plugins) +
               ["-m", "knobs", "--sizes", "small", "-r", "3", "--allow-powerless"] + fast)
    check(p.returncode == 0, f"ab -r 3 --allow-powerless: exit {p.returncode}, expected 0")
    # Every exit 2 of ab says why: here every point is skipped.
    p = mpirun(a, a.np, ["ab"] + builds(a, a.fault_plugins) +
               ["-m", "knobs", "--payloads", "1d", "--sizes", "small", "--max-memory", "1KiB",
                "-r", "4"] + fast)
    check(p.returncode == 2 and "nothing was compared" in p.stderr and "skipped" in p.stderr,
          f"ab with every point skipped: exit {p.returncode}, and why")


def test_ab_incomplete(a):
    out = out_path(a, "ab_cut.json")
    p = mpirun(a, a.np, ["ab"] + builds(a, a.fault_plugins) +
               ["-m", "knobs", "--sizes", "small", "-r", "4", "--threshold", "50%",
                "--min-time", "0.0005", "-q", "-o", out])
    check(p.returncode == 0, f"ab: exit {p.returncode}")
    with open(out) as f:
        doc = json.load(f)
    doc["complete"] = False
    cut = out_path(a, "ab_cut_incomplete.json")
    with open(cut, "w") as f:
        json.dump(doc, f)
    c = runner(a, ["compare", cut])
    check(c.returncode == 2 and "incomplete" in c.stderr and "--allow-incomplete" in c.stderr,
          f"compare of an interrupted ab file: exit {c.returncode}, expected 2 naming it")
    c = runner(a, ["compare", cut, "--allow-incomplete"])
    check(c.returncode == 0, f"--allow-incomplete: exit {c.returncode}, expected 0")


TESTS = {
    "ab-options": test_ab_options,
    "ab-incomplete": test_ab_incomplete,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test", choices=sorted(TESTS))
    ap.add_argument("--np", type=int, default=2)
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--fault-plugins", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    return run_test(TESTS[a.test], a)


if __name__ == "__main__":
    sys.exit(main())
