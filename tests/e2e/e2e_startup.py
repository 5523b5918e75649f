#!/usr/bin/env python3
"""mpiarena-startup (docs/methods.md, "Start-up"): one launch per sample.

    e2e_startup.py run --np N      N ranks, 3 launches: the records init,
                                    first_barrier and launch, 3 samples each,
                                    verified, valid against the schema
    e2e_startup.py checks          a probe that reports a wrong job fails
                                    (exit 1); a launcher that fails is named
                                    (exit 1); bad options and a run under
                                    a launcher exit 2 with one message
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, env, launch, suite_main  # noqa: E402


def startup(a):
    return os.path.join(os.path.dirname(a.runner), "mpiarena-startup")


def drive(a, args, out=None):
    cmd = [startup(a)] + args + (["-o", out] if out else [])
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240,
                       env=env())
    print(p.stdout[-3000:])
    print(p.stderr[-3000:], file=sys.stderr)
    return p


def test_run(a):
    out = os.path.join(a.workdir, f"startup_np{a.np}.json")
    if os.path.exists(out):
        os.remove(out)
    p = drive(a, ["--launch", " ".join(launch(a)), "--launches", "3"], out)
    check(p.returncode == 0, f"mpiarena-startup exited {p.returncode}")
    v = subprocess.run([a.runner, "validate", out], capture_output=True,
                       text=True, env=env())
    check(v.returncode == 0, f"invalid result file: {v.stdout}{v.stderr}")
    with open(out) as f:
        doc = json.load(f)
    got = {r["method"]: r for r in doc["records"]}
    check(sorted(got) == ["first_barrier", "init", "launch"],
          f"records {sorted(got)}")
    for m, r in got.items():
        check(r["suite"] == "startup" and r["ranks"] == a.np,
              f"{m}: suite {r['suite']}, ranks {r['ranks']}")
        check(r["verification"]["status"] == "passed", f"{m}: {r['verification']}")
        check(len(r["samples_s"]["max"]) == 3, f"{m}: {r['samples_s']}")
    # A rank's MPI_Init lies within its launch, and the slowest rank's
    # within the launch that held it.
    for i in range(3):
        check(got["init"]["samples_s"]["max"][i] < got["launch"]["samples_s"]["max"][i],
              f"launch {i}: MPI_Init {got['init']['samples_s']['max'][i]} s is not "
              f"within the launch {got['launch']['samples_s']['max'][i]} s")
        check(got["init"]["samples_s"]["min"][i] <= got["init"]["samples_s"]["avg"][i]
              <= got["init"]["samples_s"]["max"][i], "init: min <= avg <= max")
    check(len(got["init"]["per_rank_s"]) == a.np, "init: per-rank medians")
    check(doc["context"]["ranks"] == a.np and doc["context"]["options"]["repetitions"] == 3,
          f"context {doc['context']}")
    check("startup / none / 0 B" in p.stdout, "no table on stdout")


FAKE = r'''#!/usr/bin/env python3
# A launcher that runs nothing and writes a probe's report of a job whose
# ranks are not all there (the rank sum of 2 ranks is 1, not 5).
import json, sys
out = sys.argv[sys.argv.index("--probe") + 1]
json.dump({"ranks": 2, "rank_sum": 5, "init_s": [0.1, 0.2],
           "barrier_s": [1e-5, 2e-5], "hosts": ["h", "h"],
           "mpi_library": "fake", "mpi_version": "4.0"}, open(out, "w"))
'''


def test_checks(a):
    fake = os.path.join(a.workdir, "fake_launcher.py")
    with open(fake, "w") as f:
        f.write(FAKE)
    out = os.path.join(a.workdir, "startup_wrong_job.json")
    p = drive(a, ["--launch", f"python3 {fake}", "--launches", "3"], out)
    check(p.returncode == 1, f"a wrong job exited {p.returncode}, expected 1")
    with open(out) as f:
        r = json.load(f)["records"][0]
    check(r["verification"]["status"] == "failed"
          and "ranks' sum over MPI_COMM_WORLD is 5, expected 1" in r["verification"]["message"],
          f"verification {r['verification']}")
    # A launch with a hanging rank is stopped at --launch-timeout: bounded
    # time, one message, exit 1.
    hang = os.path.join(a.workdir, "hang_launcher.sh")
    with open(hang, "w") as f:
        f.write("#!/bin/sh\nsleep 600\n")
    t0 = time.monotonic()
    p = drive(a, ["--launch", f"sh {hang}", "--launches", "3",
                  "--launch-timeout", "2"])
    check(p.returncode == 1 and "did not end within 2 s" in p.stderr
          and time.monotonic() - t0 < 60,
          f"a hanging launch: exit {p.returncode}, {p.stderr!r}")
    p = drive(a, ["--launch", "false", "--launches", "3"])
    check(p.returncode == 1 and "launch 1 (false ... --probe) exited 1" in p.stderr,
          f"a failing launcher: exit {p.returncode}, {p.stderr!r}")
    for args, says in ((["--launches", "2"], "--launches '2' is not accepted: give "
                        "an integer from 3"),
                       (["--format", "csv"], "--format 'csv' is not accepted: table, json"),
                       (["--launch", " "], "--launch is empty"),
                       (["--bogus"], "unknown argument '--bogus'")):
        p = drive(a, args)
        check(p.returncode == 2 and says in p.stderr,
              f"{args}: exit {p.returncode}, {p.stderr!r}, expected 2 and {says!r}")
    cmd = launch(a, 2) + [startup(a)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env())
    errors = p.stderr.count("mpiarena-startup: error:")
    check(p.returncode == 2 and errors == 1 and "without mpirun" in p.stderr,
          f"under a launcher: exit {p.returncode}, {errors} messages: {p.stderr!r}")


if __name__ == "__main__":
    sys.exit(suite_main({"run": test_run, "checks": test_checks}))
