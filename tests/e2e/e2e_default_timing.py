#!/usr/bin/env python3
"""The default timing and sampling (docs/methodology.md, "How a
collective is timed" and "How many samples: precision").

  default-timing --np N  the collective suite's points one operation at a
                         time (definition.sync single), the transfer
                         suite's in the loop; each record's stopping says
                         the precision reached and what stopped it; the
                         header says how each suite was timed and how
                         many points reached the precision; --sync barrier
                         gives the collectives the loop again, a rate the
                         header names; -r 5 is exactly 5 samples.
  precision-refused      --precision 0, --precision with --target-rse or
                         --iterations, and runner ab --precision each exit 2
                         with one message.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import add_mpi_args, check, env, launch, out_path, parse_args, run_test, validate  # noqa: E402

POINTS = ["-m", "coll_bcast,reduce,raw", "-p", "1d", "--sizes", "8B,4KiB"]


def run(a, name, args=(), np=None):
    out = out_path(a, name)
    cmd = launch(a, np) + [a.runner] + POINTS + list(args) + ["-o", out]
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240,
                       env=env())
    print(p.stdout[-4000:])
    print(p.stderr[-2000:], file=sys.stderr)
    check(p.returncode == 0, f"run {name}: exit {p.returncode}")
    validate(a, out)
    with open(out) as f:
        return json.load(f), p.stdout


def test_default_timing(a):
    doc, text = run(a, "default.json")
    recs = doc["records"]
    check(len(recs) == 6, f"{len(recs)} records, expected 6")
    check(doc["context"]["stopping"]["precision"] == 0.05,
          f"context.stopping {doc['context']['stopping']}")
    for r in recs:
        sync = r.get("definition", {}).get("sync")
        stop = r["stopping"]
        if r["suite"] == "collective":
            check(sync == "single", f"{r['method']} {r['bytes']}: sync {sync}")
        else:
            check(sync is None, f"{r['method']}: sync {sync} in the loop")
        check(stop["by"] in ("precision", "max_time"),
              f"{r['method']} {r['bytes']}: stopped by {stop['by']}")
        check(r["repetitions"] >= 7, f"{r['method']}: {r['repetitions']}")
        check(stop["precision"] >= 0, f"{r['method']}: {stop}")
        if stop["by"] == "precision":
            check(stop["precision"] <= 0.05,
                  f"{r['method']}: precision {stop['precision']}")
    check("collective: one operation at a time, each after its own barrier"
          in text, "the header does not say how the collectives were timed")
    check("transfer: operations back to back" in text,
          "the header does not say the transfers' loop is a rate")
    check("samples until the median is known to +-5% (95%)" in text,
          "the header does not give the sampling rule")
    # The loop by name: the collectives back to back, a rate.
    doc, text = run(a, "barrier.json", ["--sync", "barrier"])
    for r in doc["records"]:
        check("sync" not in r.get("definition", {}),
              f"--sync barrier: {r['method']} has {r.get('definition')}")
    check("collective, transfer: operations back to back" in text,
          "--sync barrier: the header does not call the collectives a rate")
    # -r: a fixed count.
    doc, _ = run(a, "fixed.json", ["-r", "5"])
    for r in doc["records"]:
        check(r["repetitions"] == 5 and r["stopping"]["by"] == "repetitions",
              f"-r 5: {r['method']} {r['repetitions']} {r['stopping']}")


def refused(a, args, *needles):
    cmd = launch(a, 2) + [a.runner] + list(args)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                       env=env())
    lines = [ln for ln in p.stderr.splitlines() if "runner: error" in ln]
    check(p.returncode == 2, f"{args}: exit {p.returncode}")
    check(len(lines) == 1 and all(n in lines[0] for n in needles),
          f"{args}: {lines}")


def test_precision_refused(a):
    base = ["-m", "null", "--sizes", "8B"]
    refused(a, base + ["--precision", "0"], "--precision", "above 0%")
    refused(a, base + ["--precision", "1%", "--target-rse", "1%"],
            "--precision and --target-rse")
    refused(a, base + ["--precision", "1%", "--iterations", "3"],
            "--precision", "--iterations")
    refused(a, ["ab", "--base-plugin-dir", a.plugins, "--new-plugin-dir",
                a.plugins, "-m", "null", "--sizes", "8B", "--precision", "5%"],
            "'ab'", "--precision")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    add_mpi_args(ap)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--plugins", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    tests = {"default-timing": test_default_timing,
             "precision-refused": test_precision_refused}
    return run_test(tests[a.test], a)


if __name__ == "__main__":
    sys.exit(main())
