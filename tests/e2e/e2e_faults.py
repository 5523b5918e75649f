#!/usr/bin/env python3
"""Fault injection end to end: every fault ends cleanly.

The test plugin `fault` (tests/plugins/fault.cpp) throws, throws a non-std
exception, hangs, crashes or enters a collective nobody else enters, on one
rank, in one step, at the last size of the run. Each case must end within
the bound with the documented exit code (1: the point failed and the run went
on; 3: the run stopped), exactly one `runner: error:` line naming the method,
the size, a rank and the step, and a valid result file holding every
completed point. `probe` checks contract v4 (phases, parts, a metric) end to
end, and that `compare` judges a metric in its own direction.

    e2e_faults.py matrix --np 3      every step x kind
    e2e_faults.py quick --np 2       one case of each kind
    e2e_faults.py ladder --np 4      the quick cases under --ranks 2,3, the
                                     fault on a rank of the 3-rank
                                     sub-communicator, rank 3 idle
    e2e_faults.py probe --np 2
"""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Fail, add_mpi_args, check, env, launch, parse_args, run_test  # noqa: E402

PRINTING = threading.Lock()
# --point-timeout of every case. 2 s was too short under MPICH at ctest -j2:
# four busy-polling ranks of two cases on 2 cores beside another test let a
# normal 1 KiB point's calibration pass 2 s.
TIMEOUT = 5
# Bound on the time a faulty run may take: the point timeout, the watchdog's
# stagger and waiting margins (watchdog.cpp: up to 10 s), mpirun start-up.
LIMIT = TIMEOUT + 10 + 20

STEPS = ["prepare", "execute", "poison", "verify_execute", "verify", "release"]
KINDS = ["throw", "throw_int", "hang", "segv", "collective"]
# The steps a message may name for each injection point. The plugin faults
# on its 3rd execute, inside calibration or, when one operation already
# lasts --min-time, in the timed loop (MPICH on an oversubscribed node,
# where a 1-int MPI_Allreduce takes milliseconds).
STEP_WORDS = {"prepare": ["prepare"], "execute": ["calibration", "timed loop"],
              "poison": ["poison"], "verify_execute": ["verification"],
              "verify": ["verification"], "release": ["release"]}





def expected_exit(step, kind):
    """1: every rank reaches the agreement after the step, the point fails and
    the run goes on. 3: some rank can never get there; the run stops."""
    if kind in ("throw", "throw_int") and step in ("poison", "verify", "release"):
        return 1
    return 3


def cases(which):
    if which == "quick":
        return [("prepare", "throw"), ("execute", "hang"),
                ("verify_execute", "segv"), ("verify", "throw_int"),
                ("release", "collective")]
    out = []
    for step in STEPS:
        for kind in KINDS:
            # A collective injected where the other ranks are in a plugin
            # collective of their own would be mismatched collectives
            # (erroneous MPI), not a hang: not a fault the runner can name.
            if kind == "collective" and step in ("execute", "verify_execute"):
                continue
            out.append((step, kind))
    return out


def run_case(a, step, kind, ranks=None):
    """ranks: a --ranks ladder; the fault is then on rank 2, which takes part
    only in the sub-communicators of 3 ranks or more, while rank 3 waits
    outside them (asleep) for the whole run."""
    tag = "" if ranks is None else "_ladder"
    out = os.path.join(a.workdir, f"fault_np{a.np}{tag}_{step}_{kind}.json")
    if os.path.exists(out):
        os.remove(out)
    cmd = launch(a) + [a.runner, "--plugin-dir", a.fault_plugins, "-m", "fault",
                       "--sizes", "1KiB,2KiB,4KiB", "--point-timeout", str(TIMEOUT),
                       "--min-time", "0.001", "-r", "3", "-o", out]
    culprit = a.np - 1 if ranks is None else 2
    if ranks is not None:
        cmd += ["--ranks", ranks]
    e = env({"MPIARENA_FAULT_STEP": step, "MPIARENA_FAULT_KIND": kind,
             "MPIARENA_FAULT_RANK": str(culprit),
             "MPIARENA_FAULT_BYTES": "4096"})
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=LIMIT + 30,
                           env=e)
    except subprocess.TimeoutExpired:
        raise Fail(f"{step}/{kind}: no end within {LIMIT + 30} s (a hang)")
    took = time.monotonic() - t0
    # The run stopped: the watchdog's "runner: error:" line; the point failed
    # and the run went on: rank 0's "[error]" log line.
    errors = [l for l in p.stderr.splitlines()
              if l.startswith("runner: error:") or "] [error] " in l]
    want = expected_exit(step, kind)
    what = f"{step}/{kind} at {a.np} ranks" + ("" if ranks is None else f", --ranks {ranks}")
    with PRINTING:  # one case's lines together, when two run side by side
        print(f"--- {what}: exit {p.returncode} in {took:.1f} s", flush=True)
        print(p.stderr[-3000:], file=sys.stderr, flush=True)
    check(p.returncode == want,
          f"{what}: exit {p.returncode}, expected {want}")
    check(took <= LIMIT, f"{what}: took {took:.1f} s, bound {LIMIT} s")
    check(len(errors) == 1,
          f"{what}: {len(errors)} error lines, expected one: {errors}")
    msg = errors[0]
    check("fault" in msg and "4096" in msg, f"{what}: message lacks method/size: {msg}")
    check(re.search(r"rank \d+", msg), f"{what}: message names no rank: {msg}")
    check(any(w in msg for w in STEP_WORDS[step]), f"{what}: message lacks step "
          f"{' or '.join(repr(w) for w in STEP_WORDS[step])}: {msg}")
    if kind in ("throw", "throw_int") and want == 3:
        check(f"rank {culprit}" in msg, f"{what}: the culprit rank is not named: {msg}")
    if kind == "segv":
        check(f"rank {culprit}" in msg and "SIGSEGV" in msg,
              f"{what}: the crash is not named: {msg}")
    v = subprocess.run([a.runner, "validate", out], capture_output=True, text=True,
                       env=env())
    check(v.returncode == 0, f"{what}: result file invalid: {v.stdout}{v.stderr}")
    with open(out) as f:
        doc = json.load(f)
    kept = {r["size_label"] for r in doc["records"]}
    check({"1 KiB", "2 KiB"} <= kept, f"{what}: completed points lost: {kept}")
    if ranks is not None:
        # Every point of the 2-rank sub-communicator ran before the fault.
        two = {r["size_label"] for r in doc["records"] if r["ranks"] == 2}
        check(two == {"1 KiB", "2 KiB", "4 KiB"}, f"{what}: 2-rank points lost: {two}")
    if want == 1:
        check(doc["complete"], f"{what}: a run that went on must complete")
        skipped = [s for s in doc["skipped"] if s["bytes"] == 4096]
        check(skipped and skipped[0]["reason"].startswith("error:"),
              f"{what}: the failed point is not recorded: {doc['skipped']}")
    else:
        check(not doc["complete"], f"{what}: a stopped run is not complete")
    return (f"{step}", kind, p.returncode, took, len(doc["records"]))


def test_faults(a, which):
    if which == "ladder":
        check(a.np == 4, "the ladder case runs at 4 ranks")
        rows = [run_case(a, step, kind, ranks="2,3") for step, kind in cases("quick")]
    else:
        # Two cases at a time: much of a case is mpirun's start and the wait
        # for the point timeout, and its bound (LIMIT) leaves room for a
        # neighbour. The first failure (Fail) ends the test.
        with ThreadPoolExecutor(max_workers=2) as pool:
            rows = list(pool.map(lambda case: run_case(a, *case), cases(which)))
    print(f"\nfault matrix, {a.np} ranks (--point-timeout {TIMEOUT}):")
    print(f"{'step':16} {'kind':11} exit  seconds  points kept")
    for step, kind, code, took, kept in rows:
        print(f"{step:16} {kind:11} {code:4}  {took:7.1f}  {kept}")


def run_probe(a, out, extra=None):
    cmd = launch(a) + [a.runner, "--plugin-dir", a.fault_plugins, "-m", "probe,probe_marks",
                       "--sizes", "1KiB,16KiB", "--min-time", "0.001", "-r", "5", "-o", out]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240,
                       env=env(extra))
    print(p.stdout[-3000:])
    print(p.stderr[-3000:], file=sys.stderr)
    check(p.returncode == 0, f"probe run exited {p.returncode}")
    return p


def test_probe(a):
    out = os.path.join(a.workdir, f"probe_np{a.np}.json")
    p = run_probe(a, out)
    v = subprocess.run([a.runner, "validate", out], capture_output=True, text=True,
                       env=env())
    check(v.returncode == 0, f"probe result invalid: {v.stdout}")
    with open(out) as f:
        doc = json.load(f)
    probes = [r for r in doc["records"] if r["method"] == "probe"]
    check(len(probes) == 2, f"expected 2 probe records, got {len(probes)}")
    for r in probes:
        check([x["name"] for x in r["parts"]] == ["comm", "compute", "both"],
              "parts in declared order")
        check(r["headline_part"] == "both", "headline part")
        both = r["parts"][2]
        check(both["time_s"] == r["time_s"], "the headline part is the record's time")
        check([x["name"] for x in r["phases_s"]] == ["app", "comm"], "phases in order")
        for ph in r["phases_s"]:
            check(len(ph["samples_s"]["max"]) == 5, "one phase sample per repetition")
            check(0 < ph["time_s"]["median"] <= r["time_s"]["max"] * 1.0001,
                  f"phase {ph['name']} longer than the operation")
        m = r["metrics"][0]
        check(m["name"] == "overlap" and m["unit"] == "%" and m["better"] == "higher",
              f"metric declaration: {m}")
        check(0 <= m["value"] <= 100, f"overlap out of [0, 100]: {m['value']}")
        check(len(m["samples"]) == 5, "one metric sample per repetition")
        check(r["plugin"]["version"] == "probe-1.0", "plugin version recorded")
        check(r["verification"]["status"] == "passed", "probe verified")
    marks = [r for r in doc["records"] if r["method"] == "probe_marks"]
    check(len(marks) == 2 and marks[0]["metrics"][0]["name"] == "ns_per_mark",
          "probe_marks metric")
    # CSV and Google Benchmark JSON carry the phases, parts and metrics.
    csv = subprocess.run([a.runner, "report", "--format", "csv", out],
                         capture_output=True, text=True, env=env())
    check(csv.returncode == 0, "report --format csv failed")
    import csv as csvmod
    rows = list(csvmod.DictReader(csv.stdout.splitlines()))
    probe_row = [r for r in rows if r["method"] == "probe"][0]
    check(probe_row["phases_s"].startswith("app=") and ";comm=" in probe_row["phases_s"],
          f"csv phases_s: {probe_row['phases_s']}")
    check(probe_row["parts_s"].count("=") == 3, f"csv parts_s: {probe_row['parts_s']}")
    check(probe_row["metrics"].startswith("overlap="), f"csv metrics: {probe_row['metrics']}")
    gb = subprocess.run([a.runner, "report", "--format", "gbench", out],
                        capture_output=True, text=True, env=env())
    check(gb.returncode == 0, "report --format gbench failed")
    its = [b for b in json.loads(gb.stdout)["benchmarks"]
           if b["run_type"] == "iteration" and "/probe/" in b["name"]]
    check(its and all("overlap" in b and "phase_app_ns" in b for b in its),
          "gbench rows lack the metric and phase counters")
    check("overlap" in p.stdout, "the table shows the metric")
    check("app" in p.stdout, "the table shows the phases")
    # compare judges a metric in its own direction: halve the overlap
    # (higher is better: a regression) and double the ns per mark (lower is
    # better: a regression too); the times are the same in both files.
    # Every NEW sample is worse than every BASE sample, so the U test is
    # as sure as 5 against 5 samples allow (p = 0.008) whatever the noise.
    worse = json.loads(json.dumps(doc))
    for r in worse["records"]:
        for m in r.get("metrics", []):
            if m["better"] == "higher":
                bad = min(m["samples"]) * 0.5 - 1
            else:
                bad = max(m["samples"]) * 2 + 1
            m["value"] = bad
            m["samples"] = [bad] * len(m["samples"])
    new = os.path.join(a.workdir, f"probe_np{a.np}_worse.json")
    with open(new, "w") as f:
        json.dump(worse, f)
    c = subprocess.run([a.runner, "compare", out, new], capture_output=True,
                       text=True, env=env())
    print(c.stdout[-4000:])
    print(c.stderr[-2000:], file=sys.stderr)
    check(c.returncode == 1, f"compare of a worse metric exited {c.returncode}, expected 1")
    check(re.search(r"overlap.*regress|regress.*overlap", c.stdout, re.I | re.S),
          "compare does not name the overlap regression")
    c2 = subprocess.run([a.runner, "compare", new, out], capture_output=True,
                        text=True, env=env())
    print(c2.stdout[-3000:])
    check(c2.returncode == 0, f"compare of a better metric exited {c2.returncode}, expected 0")
    check(re.search(r"improv", c2.stdout, re.I), "compare does not report the improvement")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test", choices=["matrix", "quick", "ladder", "probe"])
    ap.add_argument("--np", type=int, default=2)
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--fault-plugins", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    return run_test(test_probe if a.test == "probe"
                    else lambda a: test_faults(a, a.test), a)


if __name__ == "__main__":
    sys.exit(main())
