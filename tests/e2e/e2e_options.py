#!/usr/bin/env python3
"""A plugin's own options end to end (issue 27, contract v8), with the test
plugin `knobs` (tests/plugins/knobs.cpp: segment, an integer; order, a
choice; pace, a number).

declared:  --list names the options, --help-method shows each with what it
           accepts and its default; --help-method of an unknown method exits 2.
run:       --set lists are axes: one point per combination, the plugin gets
           the values (its log says them), each record carries them in
           `options` and is named knobs[order=...,pace=...,segment=...]; the
           defaults when --set leaves an option alone; the file validates.
refused:   a bad --set exits 2 before anything runs, on every rank alike,
           naming the option and what it accepts.
compare:   two runs with different values share no point (exit 2); the same
           values are matched.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, env, launch, out_path, show, suite_main  # noqa: E402


def runner(a, args):
    p = subprocess.run([a.runner, "--plugin-dir", a.fault_plugins] + args,
                       capture_output=True, text=True, timeout=60, env=env())
    return show(["runner"] + args, p)


def run(a, name, sets, methods="knobs,bcast"):
    out = out_path(a, name)
    cmd = launch(a) + [a.runner, "--plugin-dir", a.fault_plugins, "-m", methods,
                       "--sizes", "small", "--min-time", "0.001", "-r", "3", "-o", out]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env())
    show(cmd, p)
    return p, out


def test_declared(a):
    p = runner(a, ["--list"])
    line = [l for l in p.stdout.splitlines() if l.startswith("knobs ")]
    check(line and "options: segment, order, pace" in line[0], f"--list: {line}")
    p = runner(a, ["--help-method", "knobs"])
    check(p.returncode == 0, f"--help-method: exit {p.returncode}")
    for needle in ("segment: an integer from 64 to 1048576, default 4096",
                   "order: one of forward, backward, default forward",
                   "pace: a number from 0 to 2, default 1.5"):
        check(needle in p.stdout, f"--help-method lacks {needle!r}")
    p = runner(a, ["--help-method", "nosuch"])
    check(p.returncode == 2 and "no method 'nosuch'" in p.stderr, "unknown method")


def test_run(a):
    p, out = run(a, "options_run.json",
                 ["knobs.segment=256,0065536", "knobs.order=forward,backward"])
    check(p.returncode == 0, f"exit {p.returncode}")
    with open(out) as f:
        doc = json.load(f)
    knobs = [r for r in doc["records"] if r["method"] == "knobs"]
    got = sorted((r["options"]["segment"], r["options"]["order"], r["options"]["pace"])
                 for r in knobs)
    want = sorted((s, o, "1.5") for s in ("256", "65536") for o in ("forward", "backward"))
    check(got == want, f"one record per combination, defaults filled in: {got}")
    check(all("options" not in r for r in doc["records"] if r["method"] == "bcast"),
          "a method without options records none")
    for s in ("segment=256", "segment=65536"):
        check(f"knobs: {s} order=backward pace=1.5" in p.stderr,
              f"the plugin was not handed {s}")
    check("knobs[order=backward,pace=1.5,segment=256]" in p.stdout,
          "the table names the variant")
    v = subprocess.run([a.runner, "validate", out], capture_output=True, text=True, env=env())
    check(v.returncode == 0, f"validate: {v.stdout}{v.stderr}")
    p, out = run(a, "options_default.json", [])
    with open(out) as f:
        recs = [r for r in json.load(f)["records"] if r["method"] == "knobs"]
    check(len(recs) == 1 and recs[0]["options"] == {"segment": "4096", "order": "forward",
                                                    "pace": "1.5"},
          f"without --set the defaults are recorded: {recs}")


def test_refused(a):
    cases = [("knobs.segment=7", ["segment", "an integer from 64 to 1048576"]),
             ("knobs.nope=1", ["no option 'nope'", "segment, order, pace"]),
             ("bcast.x=1", ["'bcast' has no options"]),
             ("raw.segment=1", ["'raw' is not among the selected methods"]),
             ("knobs.order=up", ["one of forward, backward"]),
             ("knobs.pace=abc", ["a number from 0 to 2"]),
             ("knobsegment=1", ["METHOD.OPTION=VALUE"])]
    for spec, needles in cases:
        p, _ = run(a, "options_refused.json", [spec])
        check(p.returncode == 2, f"--set {spec}: exit {p.returncode}, expected 2")
        errors = [l for l in p.stderr.splitlines() if l.startswith("runner: error:")]
        check(len(errors) == 1, f"--set {spec}: {len(errors)} error lines")
        for n in needles:
            check(n in errors[0], f"--set {spec}: {n!r} not in {errors[0]!r}")
        check("knobs: segment" not in p.stderr, f"--set {spec}: the plugin ran")
    p, _ = run(a, "options_twice.json", ["knobs.segment=64", "knobs.segment=128"])
    check(p.returncode == 2 and "twice" in p.stderr, "the same option given twice")


def test_compare(a):
    _, small = run(a, "options_a.json", ["knobs.segment=256"], methods="knobs")
    _, big = run(a, "options_b.json", ["knobs.segment=65536"], methods="knobs")
    _, again = run(a, "options_c.json", ["knobs.segment=256"], methods="knobs")
    c = subprocess.run([a.runner, "compare", small, big, "--format", "json"],
                       capture_output=True, text=True, env=env())
    show(["compare", small, big], c)
    check(c.returncode == 2, f"different values must share no point: exit {c.returncode}")
    c = subprocess.run([a.runner, "compare", small, again, "--format", "json",
                        "--threshold", "500%", "--allow-powerless"],
                       capture_output=True, text=True, env=env())
    show(["compare", small, again], c)
    check(c.returncode == 0, f"the same values are matched: exit {c.returncode}")
    points = json.loads(c.stdout)["points"]
    check(len(points) == 1 and "knobs[" in json.dumps(points[0]), f"matched: {points}")


def main():
    return suite_main({"declared": test_declared, "run": test_run, "refused": test_refused,
                       "compare": test_compare})


if __name__ == "__main__":
    sys.exit(main())
