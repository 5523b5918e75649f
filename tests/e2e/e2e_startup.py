#!/usr/bin/env python3
"""mpiarena-startup (docs/methods.md, "Start-up"): one launch per sample.

    e2e_startup.py run --np N      N ranks, 3 launches: the records init,
                                    first_barrier and launch, 3 samples each,
                                    verified, valid against the schema
    e2e_startup.py checks          a probe that reports a wrong job fails
                                    (exit 1); a launcher that fails is named
                                    (exit 1); bad options and a run under
                                    a launcher exit 2 with one message
    e2e_startup.py shell           the launch runs through the shell: an
                                    environment prefix and `cd DIR && ...`
                                    launch 2 ranks and are recorded
    e2e_startup.py ranks           a launch that starts fewer ranks than
                                    asked (-np 1 with --np 2; the probe run
                                    alone after a failing mpirun) stops the
                                    run, naming both counts, no records
    e2e_startup.py timeout         --launch-timeout bounds the whole shell
                                    command: `sleep 30; mpirun ...` under a
                                    2 s bound is stopped in about 2 s, exit
                                    1, no records (timing)
"""
import json
import os
import shlex
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
    p = drive(a, ["--launch", f"python3 {fake}", "--np", "2",
                  "--launches", "3"], out)
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
    p = drive(a, ["--launch", f"sh {hang}", "--np", "2", "--launches", "3",
                  "--launch-timeout", "2"])
    check(p.returncode == 1 and "did not end within 2 s" in p.stderr
          and time.monotonic() - t0 < 60,
          f"a hanging launch: exit {p.returncode}, {p.stderr!r}")
    p = drive(a, ["--launch", "false", "--np", "2", "--launches", "3"])
    check(p.returncode == 1 and "launch 1 (false ... --probe) exited 1" in p.stderr,
          f"a failing launcher: exit {p.returncode}, {p.stderr!r}")
    for args, says in ((["--launches", "2"], "--launches '2' is not accepted: give "
                        "an integer from 3"),
                       (["--format", "csv"], "--format 'csv' is not accepted: table, json"),
                       (["--launch", " "], "--launch is empty"),
                       (["--launch", "srun"], "--launch 'srun' names no rank "
                        "count (-np N, -n N, --np N, --n N or --ntasks N); "
                        "give the rank count it starts with --np N"),
                       (["--launch", "nice -n 5 mpirun -np 2"],
                        "names two rank counts (5 and 2)"),
                       (["--np", "0"], "--np '0' is not accepted"),
                       (["--bogus"], "unknown argument '--bogus'")):
        p = drive(a, args)
        check(p.returncode == 2 and says in p.stderr,
              f"{args}: exit {p.returncode}, {p.stderr!r}, expected 2 and {says!r}")
    cmd = launch(a, 2) + [startup(a)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env())
    errors = p.stderr.count("mpiarena-startup: error:")
    check(p.returncode == 2 and errors == 1 and "without mpirun" in p.stderr,
          f"under a launcher: exit {p.returncode}, {errors} messages: {p.stderr!r}")


def mpi_line(a, np):
    """The build's launcher at np ranks, as one shell word list."""
    return shlex.join(launch(a, np))


def test_shell(a):
    # Neither an environment assignment nor `cd` is a program: only a shell
    # running the whole launch line runs them (as a program: exit 127).
    for name, line in (("env", f"MPIARENA_STARTUP_E2E=1 {mpi_line(a, 2)}"),
                       ("cd", f'cd "$MPIARENA_STARTUP_E2E_DIR" && '
                              f"{mpi_line(a, 2)}")):
        out = os.path.join(a.workdir, f"startup_{name}.json")
        if os.path.exists(out):
            os.remove(out)
        cmd = [startup(a), "--launch", line, "--launches", "3",
               "--warmup", "0", "-o", out]
        print("$", shlex.join(cmd), flush=True)
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=240,
                           env=env({"MPIARENA_STARTUP_E2E_DIR": a.workdir}))
        print(p.stdout[-3000:])
        print(p.stderr[-3000:], file=sys.stderr)
        check(p.returncode == 0 and os.path.exists(out),
              f"--launch {line!r}: exit {p.returncode}, {p.stderr[-600:]!r}")
        with open(out) as f:
            doc = json.load(f)
        for r in doc["records"]:
            check(r["ranks"] == 2 and r["verification"]["status"] == "passed"
                  and len(r["samples_s"]["max"]) == 3,
                  f"--launch {line!r}: {r['method']}: ranks {r['ranks']}, "
                  f"{r['verification']}")
        check(doc["context"]["options"]["launch"] == line,
              f"context.options.launch {doc['context']['options']['launch']!r}")


def test_ranks(a):
    # The launch starts 1 rank where --np asks for 2; then a launcher that
    # fails, after which the shell runs the probe alone (a singleton, 1
    # rank) while the launch line names -np 2.
    for args, asked in ((["--launch", mpi_line(a, 1), "--np", "2"], "--np"),
                        (["--launch", mpi_line(a, 2) + " --no-such-flag ;"],
                         "read from --launch")):
        out = os.path.join(a.workdir, "startup_ranks.json")
        if os.path.exists(out):
            os.remove(out)
        p = drive(a, args + ["--launches", "3"], out)
        says = f"the probe saw 1 rank (MPI_Comm_size) where 2 were asked for " \
               f"({asked})"
        check(p.returncode == 1 and says in p.stderr,
              f"{args}: exit {p.returncode}, {p.stderr[-600:]!r}, expected 1 "
              f"and {says!r}")
        check(not os.path.exists(out), f"{args}: {out} written")


def test_timeout(a):
    # The bound covers the whole shell command, the sleep before mpirun
    # included: stopped at 2 s (its process group), not after 30 s.
    out = os.path.join(a.workdir, "startup_timeout.json")
    if os.path.exists(out):
        os.remove(out)
    t0 = time.monotonic()
    p = drive(a, ["--launch", "sleep 30; " + mpi_line(a, 2), "--launches",
                  "3", "--launch-timeout", "2"], out)
    took = time.monotonic() - t0
    check(p.returncode == 1 and "launch 1 (sleep 30; " in p.stderr
          and "did not end within 2 s (--launch-timeout)" in p.stderr,
          f"exit {p.returncode}, {p.stderr[-600:]!r}, expected 1 and the "
          f"timeout named")
    check(2 <= took < 10, f"took {took:.1f} s, expected about the 2 s bound")
    check(not os.path.exists(out), f"{out} written")


if __name__ == "__main__":
    sys.exit(suite_main({"run": test_run, "checks": test_checks,
                         "shell": test_shell, "ranks": test_ranks,
                         "timeout": test_timeout}))
