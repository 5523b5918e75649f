#!/usr/bin/env python3
"""End-to-end tests of the CI gate's procedures (issue 29, docs/ci.md):
`runner ab` (two builds of the same methods in one launch), `runner
compare` of one file of runner ab, the compare across launches (BASE1
BASE2 BASE3 -- NEW1 NEW2 NEW3, or a directory a side) and their bad input.
Same harness as e2e.py; each subcommand is one ctest test.
"""
import argparse
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import add_mpi_args, check, mpirun, out_path, parse_args, run_test, runner, validate  # noqa: E402
from e2e_compare import around, document, record, write  # noqa: E402


def gate(a, slowdown):
    return os.path.join(a.gate_plugins, f"p{slowdown}")


def run_ab(a, name, new_dir, extra=()):
    """runner ab: BASE = gate_bcast at 0% and the test plugin sleepy, NEW =
    gate_bcast from `new_dir` and the same sleepy (two builds holding the
    same method names)."""
    out = out_path(a, name)
    p = mpirun(a, a.np, ["ab", "--base-plugin-dir", gate(a, 0),
                         "--base-plugin-dir", a.slow_plugins,
                         "--new-plugin-dir", new_dir,
                         "--new-plugin-dir", a.slow_plugins,
                         "-m", "gate_bcast,sleepy", "-p", "1d",
                         "--sizes", "64B,4KiB", "--min-time", "0.001", "-q",
                         "--threshold", "50%", "-f", "json", "-o", out] + list(extra))
    return p, out


def test_ab_builds(a):
    p, out = run_ab(a, "ab_slow.json", gate(a, 400))
    check(p.returncode == 1, f"NEW 5x slower: exit {p.returncode}, expected 1")
    j = json.loads(p.stdout)
    verdict = {x["name"]: x["verdict"] for x in j["points"]}
    check(len(verdict) == 4, f"4 points judged (2 methods x 2 sizes): {verdict}")
    for name, v in verdict.items():
        want = "regressed" if "gate_bcast" in name else ("unchanged", "noisy")
        check(v == want or v in want, f"{name}: {v}, expected {want}")
    check(j["procedure"]["name"] == "ab_run" and j["procedure"]["correction"] == "holm",
          j["procedure"])
    check("A/B in one run" in j["procedure"]["summary"], j["procedure"]["summary"])
    doc = validate(a, out)
    by = {}
    for r in doc["records"]:
        method, _, build = r["method"].partition("@")
        check(build in ("base", "new") and r["plugin"].get("build") == build,
              f"record {r['method']}: build label {r['plugin']}")
        by[(method, r["bytes"], build)] = r
    check(len(by) == 8, f"8 records (2 methods x 2 sizes x 2 builds): {sorted(by)}")
    for (method, size, build), r in by.items():
        other = by[(method, size, "new" if build == "base" else "base")]
        # One interleaved group per size holds both builds of every method:
        # each pair measured in the same rounds, a slot per sample.
        check(r["interleave"]["group"] == other["interleave"]["group"],
              f"{method} {size}: the builds in different groups")
        check(r["interleave"]["points"] == 4, r["interleave"])
        check(len(r["interleave"]["slots"]) == len(r["samples_s"]["max"]) == 15,
              f"{r['method']}: 15 samples (runner ab's default), one slot each: {r['interleave']}")
        check(r["verification"]["status"] == "passed", r["verification"])
    # The file judged again, alone: the same verdicts.
    p = runner(a, ["compare", out, "-f", "json", "--threshold", "50%"])
    check(p.returncode == 1, f"compare AB.json: exit {p.returncode}")
    again = {x["name"]: x["verdict"] for x in json.loads(p.stdout)["points"]}
    check(again == verdict, f"compare AB.json: {again} != {verdict}")
    # Identical builds (a copy of the directory): nothing beyond 50% (the
    # false-alarm rate at 5% is bench/gate's to measure, not a test's).
    copy = os.path.join(a.workdir, "p0copy")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(gate(a, 0), copy)
    p, out = run_ab(a, "ab_same.json", copy)
    check(p.returncode == 0, f"A/A at 50%: exit {p.returncode}, expected 0")


def launches(a, tag, medians_x, medians_y):
    """One file per launch: point x (bcast small) and y (raw small), each
    launch's samples tight around the given median."""
    files = []
    for i, (mx, my) in enumerate(zip(medians_x, medians_y)):
        doc = document([record("bcast", around(mx)), record("raw", around(my))])
        files.append(write(a, f"{tag}{i}.json", doc))
    return files


def test_compare_launches(a):
    # x moves between launches on both sides alike (a launch-to-launch
    # effect): no regression. y is 30% slower in every NEW launch.
    base = launches(a, "lb", [10e-6, 13e-6, 9.5e-6], [10e-6, 10.2e-6, 9.9e-6])
    new = launches(a, "ln", [12e-6, 9.8e-6, 12.5e-6], [13e-6, 13.1e-6, 12.9e-6])
    # Two files alone flag x: each launch's samples are tight.
    p = runner(a, ["compare", base[0], new[0], "-f", "json"])
    two = {x["method"]: x["verdict"] for x in json.loads(p.stdout)["points"]}
    check(two["bcast"] == "regressed", f"two files: x is flagged: {two}")
    for args in (base + ["--"] + new, [os.path.dirname(base[0])]):
        if len(args) == 1:  # a directory a side
            for side, files in (("lbase", base), ("lnew", new)):
                d = os.path.join(a.workdir, side)
                shutil.rmtree(d, ignore_errors=True)
                os.makedirs(d)
                for f in files:
                    shutil.copy(f, d)
            args = [os.path.join(a.workdir, "lbase"), os.path.join(a.workdir, "lnew")]
        p = runner(a, ["compare"] + args + ["-f", "json"])
        check(p.returncode == 1, f"y regressed: exit {p.returncode}, expected 1")
        j = json.loads(p.stdout)
        verdict = {x["method"]: x["verdict"] for x in j["points"]}
        check(verdict["raw"] == "regressed", f"y: {verdict}")
        check(verdict["bcast"] != "regressed", f"x, a launch effect: {verdict}")
        proc = j["procedure"]
        check(proc["name"] == "launches" and proc["launches_base"] == 3 and
              proc["launches_new"] == 3 and proc["test"] == "welch_t_log_launch_medians",
              proc)
        check(all(x["samples"] == [3, 3] for x in j["points"]), "one observation a launch")
    p = runner(a, ["compare"] + base + ["--"] + new)
    check("3 launches of BASE against 3 of NEW" in p.stdout, p.stdout)


def one_error(p, what, expect):
    lines = [l for l in p.stderr.splitlines() if ": error:" in l]
    check(p.returncode == 2, f"{what}: exit {p.returncode}, expected 2")
    check(len(lines) == 1 and expect in lines[0], f"{what}: one message with "
          f"'{expect}', got {p.stderr!r}")


def test_gate_bad_input(a):
    base = launches(a, "bb", [10e-6, 11e-6], [10e-6, 10e-6])
    one_error(runner(a, ["compare", base[0], "--", base[0], base[1]]),
              "a side with one file", "at least 2 files a side")
    one_error(runner(a, ["compare", base[0], base[1], "--", base[0], "--", base[1]]),
              "two separators", "one '--'")
    # A document of runner ab whose labels are not base and new.
    doc = document([record("bcast@base", around(10e-6)),
                    record("bcast@other", around(10e-6))])
    odd = write(a, "odd_labels.json", doc)
    one_error(runner(a, ["compare", odd]), "labels other than base and new",
              "its builds are base, other")
    one_error(runner(a, ["compare", base[0]]), "one plain file", "not a runner ab document")
    ab = write(a, "ab_doc.json", document([record("bcast@base", around(10e-6)),
                                           record("bcast@new", around(10e-6))]))
    one_error(runner(a, ["compare", ab, base[0]]), "an ab file beside a plain one",
              "compare it alone")
    one_error(runner(a, ["compare", ab, "--correction", "bonferroni"]),
              "--correction", "accepted: holm, none")
    # runner ab's own bad input, on every rank alike.
    for args, expect in (
            (["ab", "--base-plugin-dir", gate(a, 0)], "needs the plugin directories of both"),
            (["ab", "--base-plugin-dir", gate(a, 0), "--new-plugin-dir", gate(a, 0),
              "--plugin-dir", gate(a, 0)], "--plugin-dir does not apply"),
            (["ab", "--base-plugin-dir", gate(a, 0), "--new-plugin-dir", "/nonexistent"],
             "'/nonexistent' is not a directory"),
            (["ab", "--base-plugin-dir", gate(a, 0), "--new-plugin-dir", a.slow_plugins,
              "-m", "gate_bcast"], "gate_bcast (base only)"),
            (["--base-plugin-dir", gate(a, 0)], "it is an option of ab.")):
        one_error(mpirun(a, a.np, args + ["-q"]), " ".join(args[:3]), expect)


def test_ab_faults(a):
    """A method that fails inside runner ab, on one rank, in both builds:
    a verification that throws at 4 KiB is a failed point (exit 1, the run
    goes on, gate_bcast judged); a hang at 4 KiB stops the run (exit 3,
    one message), the points measured before it kept in a valid file."""
    def faulty(name, step, kind):
        out = out_path(a, name)
        fault = {"MPIARENA_FAULT_STEP": step, "MPIARENA_FAULT_KIND": kind,
                 "MPIARENA_FAULT_RANK": str(a.np - 1),
                 "MPIARENA_FAULT_BYTES": "4096"}
        start = time.monotonic()
        p = mpirun(a, a.np, ["ab", "--base-plugin-dir", gate(a, 0),
                             "--base-plugin-dir", a.fault_plugins,
                             "--new-plugin-dir", gate(a, 0),
                             "--new-plugin-dir", a.fault_plugins,
                             "-m", "gate_bcast,fault", "-p", "1d",
                             "--sizes", "64B,4KiB", "--min-time", "0.001",
                             "--point-timeout", "2", "-q", "--threshold", "50%",
                             "-f", "json", "-o", out], extra_env=fault)
        return p, out, time.monotonic() - start

    p, out, _ = faulty("ab_fault_verify.json", "verify", "throw")
    check(p.returncode == 1, f"verify throws: exit {p.returncode}, expected 1")
    check("some points failed verification" in p.stderr, p.stderr[-2000:])
    judged = {x["name"] for x in json.loads(p.stdout)["points"]}
    for name in ("gate_bcast/1d/64", "gate_bcast/1d/4096", "fault/1d/64"):
        check(any(name in n for n in judged), f"{name} judged: {sorted(judged)}")
    check(not any("fault/1d/4096" in n for n in judged), sorted(judged))
    doc = validate(a, out)
    skipped = {s["method"]: s["reason"] for s in doc["skipped"]}
    check(sorted(skipped) == ["fault@base", "fault@new"] and
          all("injected fault in verify" in r for r in skipped.values()),
          f"the failed point of each build, with its reason: {skipped}")
    p, out, took = faulty("ab_fault_hang.json", "execute", "hang")
    check(p.returncode == 3, f"execute hangs: exit {p.returncode}, expected 3")
    check(took < 60, f"the hang ended the run in {took:.0f} s, expected < 60")
    errors = [l for l in p.stderr.splitlines() if l.startswith("runner: error:")]
    check(len(errors) == 1 and "fault@" in errors[0] and "4096" in errors[0],
          f"one message naming the method and the size: {errors}")
    doc = validate(a, out)
    kept = sorted((r["method"], r["bytes"]) for r in doc["records"])
    check(not doc["complete"] and ("gate_bcast@base", 64) in kept and
          ("gate_bcast@new", 64) in kept, f"the points before the hang: {kept}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    ap.add_argument("--np", type=int, default=2)
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--gate-plugins", required=True)
    ap.add_argument("--slow-plugins", required=True)
    ap.add_argument("--fault-plugins", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    tests = {
        "ab-builds": test_ab_builds,
        "ab-faults": test_ab_faults,
        "compare-launches": test_compare_launches,
        "gate-bad-input": test_gate_bad_input,
    }
    return run_test(tests[a.test], a)


if __name__ == "__main__":
    sys.exit(main())
