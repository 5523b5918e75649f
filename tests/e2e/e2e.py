#!/usr/bin/env python3
"""The harness of the end-to-end tests of the mpiarena runner under mpirun.

Every e2e_*.py script imports it: failing and skipping (check, Fail, Skip),
the launcher's command line and environment, running the runner, the skips
the docs name (known_skip), and the mains of the scripts (suite_main,
run_test, runner_main). Each subcommand of a script is one ctest test: it
runs the real runner with real plugins and asserts on exit codes, printed
messages and the JSON written. The runner's own runs: e2e_methods.py (the
measurements) and e2e_cli.py (the command line and its guards).
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launcher  # noqa: E402

TRANSFER_METHODS = ["raw", "bcast", "pack", "datatype", "rdma", "boost", "boost_packed"]
PINGPONG_METHODS = ["mpi_bytes", "mpi_datatype", "boost_bytes", "boost_datatype",
                    "boost_serialized", "pingpong_ssend", "pingpong_bsend",
                    "pingpong_isend", "pingpong_rsend", "pingpong_persistent"]
FANIN_METHODS = ["send", "ssend", "bsend", "rsend", "isend"]
# The methods built only when Boost.MPI fits the build's MPI (CMake's
# MPIARENA_BOOST_MPI: not with MPICH on Debian; --boost-mpi off).
BOOST_MPI_METHODS = {"boost", "boost_packed", "boost_skeleton", "boost_bytes",
                     "boost_datatype", "boost_serialized"}
# The launcher family of --mpiexec (launcher.py), set by parse_args().
LAUNCHER = "openmpi"


class Fail(Exception):
    pass


class Skip(Exception):
    """A test that cannot run here (a tool is missing): ctest's exit 77."""


SKIP = 77


def check(cond, what):
    if not cond:
        raise Fail(what)


def env(extra=None):
    """The environment of every e2e run (shared by the other e2e scripts):
    what the launcher needs (launcher.py), and `extra`."""
    return launcher.environment(LAUNCHER, extra)


def show(cmd, p):
    """Prints a finished command, its exit code and the tails of its
    output (stderr to stderr); returns p."""
    print("$", " ".join(cmd), "->", p.returncode, flush=True)
    print(p.stdout[-3000:])
    print(p.stderr[-3000:], file=sys.stderr)
    return p


def add_mpi_args(ap):
    """--mpiexec and --launcher (openmpi or mpich; default: asked of
    --mpiexec) on an e2e script's argument parser."""
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--launcher", choices=launcher.LAUNCHERS)


def parse_args(ap):
    """ap.parse_args(), with the launcher settled for launch() and env()."""
    global LAUNCHER
    a = ap.parse_args()
    # One directory per test (script, test, rank count): ctest -j runs tests
    # side by side (scripts/test), and two of them must never share a file.
    if getattr(a, "workdir", None) and getattr(a, "test", None):
        script = os.path.splitext(os.path.basename(sys.argv[0]))[0]
        ranks = f"_np{a.np}" if getattr(a, "np", None) else ""
        a.workdir = os.path.join(a.workdir, f"{script}_{a.test}{ranks}")
        os.makedirs(a.workdir, exist_ok=True)
    if not a.launcher:
        a.launcher = launcher.detect(a.mpiexec)
    LAUNCHER = a.launcher
    return a


def launch_prefix(a):
    """mpiexec and its flags: what comes before the -np of each program
    (one, or several in an MPMD command line). A test of the `file` tier
    (MPIARENA_E2E_NO_LAUNCH, tests/tiers.cmake) that gets here fails: it
    is in the inner loop because it starts no MPI job."""
    if os.environ.get("MPIARENA_E2E_NO_LAUNCH") == "1":
        raise Fail("this test is in the file tier (no MPI job) but starts "
                   "a launcher: label it mpi (tests/tiers.cmake)")
    return [a.mpiexec] + launcher.flags(getattr(a, "launcher", None) or LAUNCHER)


def launch(a, np=None):
    """The launcher's command line up to the program, at a.np ranks unless
    np is given."""
    return launch_prefix(a) + ["-np", str(a.np if np is None else np)]


def expected_methods(a, methods):
    """`methods` without the Boost.MPI ones when the build has none."""
    if getattr(a, "boost_mpi", "on") == "on":
        return list(methods)
    return [m for m in methods if m not in BOOST_MPI_METHODS]


# The verify mode: for a test whose assertions are about verification,
# records, exit codes and messages (most of them), a fixed small number of
# operations per sample (no calibration, so no --min-time), three samples
# and no noisy sample measured again. A test that judges measured times
# passes its own --min-time and --repetitions instead (run_np's reps and
# min_time, or its own arguments). The one place that says it
# (tests/README.md, "The verify mode").
VERIFY = ["--iterations", "2", "--repetitions", "3", "--retry-noisy", "0"]
# Calibrated, briefly: for the tests that judge times.
TIMED = ["--min-time", "0.001", "--repetitions", "3"]


def run_np(a, args, out, reps=None, min_time=None, timeout=280, extra_env=None):
    """The runner under mpirun at a.np ranks (oversubscribed if need be),
    writing `out` (removed first): in the verify mode (VERIFY), or
    calibrated to min_time with reps samples when either is given; prints
    the tails of its output and returns the CompletedProcess."""
    if os.path.exists(out):
        os.remove(out)
    if reps is None and min_time is None:
        sampling = VERIFY
    else:
        sampling = ["--min-time", min_time or "0.001", "-r", reps or "3"]
    cmd = launch(a) + [a.runner] + sampling + ["-o", out] + args
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                       env=env(extra_env))
    print(p.stdout[-4000:])
    print(p.stderr[-3000:], file=sys.stderr)
    return p


def suite_main(tests, extra=()):
    """main() of an e2e script whose tests take --np, --mpiexec, --runner,
    --fault-plugins, --workdir and the `extra` options (required, each a
    value): runs the test named on the command line, prints PASS or FAIL:
    why, returns the exit code."""
    ap = argparse.ArgumentParser()
    ap.add_argument("test", choices=sorted(tests))
    ap.add_argument("--np", type=int, default=2)
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--fault-plugins", required=True)
    ap.add_argument("--workdir", required=True)
    for option in extra:
        ap.add_argument(option, required=True)
    a = parse_args(ap)
    return run_test(tests[a.test], a)


def run_test(test, a):
    """Runs test(a): prints PASS, SKIP: why or FAIL: why, returns the exit
    code (0, SKIP or 1)."""
    try:
        test(a)
    except Skip as e:
        print(f"SKIP: {e}")
        return SKIP
    except Fail as e:
        print(f"FAIL: {e}")
        return 1
    print("PASS")
    return 0


def mpirun(a, np, args, timeout=240, extra_env=None):
    cmd = launch(a, np) + [a.runner] + args
    e = env()
    if extra_env:
        e.update(extra_env)
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=e)
    print(p.stdout[-4000:])
    print(p.stderr[-4000:], file=sys.stderr)
    return p


def runner(a, args):
    p = subprocess.run([a.runner] + args, capture_output=True, text=True, timeout=60, env=env())
    print(p.stdout[-2000:])
    print(p.stderr[-2000:], file=sys.stderr)
    return p


def listed_methods(a):
    """{method: (suite, [payloads])} as `runner --list` prints them (its
    first table: the OSU programs' names follow it after a blank line)."""
    p = runner(a, ["--list"])
    check(p.returncode == 0, "--list failed")
    out = {}
    for line in p.stdout.splitlines()[1:]:
        if not line.strip():
            break
        f = line.split()
        if len(f) >= 3:
            out[f[0]] = (f[1], f[2].split(","))
    return out


def validate(a, path):
    p = runner(a, ["validate", path])
    check(p.returncode == 0, f"runner validate {path} exited {p.returncode}")
    with open(path) as f:
        return json.load(f)


def out_path(a, name):
    path = os.path.join(a.workdir, name)
    if os.path.exists(path):
        os.remove(path)
    return path


def pairing_skip(s):
    """Whether skipped point `s` is a neighbourhood alltoall where a rank is
    a neighbour twice and the library pairs the repeated edges against
    MPI-4.1 (docs/methods.md#neighbourhood-collectives: MPICH 4.0's
    alltoall on OSU's graph at 2 ranks, Open MPI 4.1's non-blocking ones on
    short Cartesian dimensions)."""
    return ("alltoall" in s["method"] and "MPI-4.1 §8.6" in s["reason"]
            and "matches the repeated edges" in s["reason"])


# MPICH 4.0's persistent allgather, gather and scatter deliver wrong data
# (MPI_Gather_init never copies the root's block, pmodels/mpich#7078;
# MPI_Allgather_init and MPI_Scatter_init deliver on the first MPI_Start
# only): their points are skipped with the reason (docs/methods.md, MPI-4).
MPICH_PERSISTENT_BROKEN = ("allgather_persistent", "gather_persistent",
                           "scatter_persistent")


def mpich_persistent_skip(a, s):
    """Whether skip entry `s` is one of MPICH 4.0's known wrong persistent
    collectives, with its reason."""
    return (a.launcher == "mpich" and s["method"] in MPICH_PERSISTENT_BROKEN
            and "is known to deliver wrong data" in s["reason"])


def known_skip(a, s):
    """Whether skip entry `s` is one the docs name, with its reason: a
    library's limit or bug that a method reports instead of failing (each
    checked where its method is tested): a neighbourhood alltoall's repeated
    edges paired against MPI-4.1, MPICH 4.0's wrong persistent collectives,
    MPI-4's partitioned calls missing from Open MPI 4.1, a method needing a
    thread level the run did not ask for, and the requests a cold cache
    would need per buffer slot (pingpong_persistent, mpi_partitioned)."""
    r = s["reason"]
    return (pairing_skip(s) or mpich_persistent_skip(a, s)
            or (s["method"] == "mpi_partitioned" and a.launcher == "openmpi"
                and "has no MPI_Psend_init" in r)
            or "--thread-level multiple asks for it" in r
            or (s["method"] in ("pingpong_persistent", "mpi_partitioned")
                and ("--cache cold rotates over" in r
                     or "buffer slots (--cache cold)" in r))
            or (s["method"] == "mpi_partitioned"
                and "sizes: multiples of partitions" in r))


def one_error(p, *words):
    """Exit 2 and one 'runner: error:' line holding every word (shared by
    the e2e scripts of the clocks and window timing)."""
    errors = [l for l in p.stderr.splitlines() if l.startswith("runner: error:")]
    check(p.returncode == 2, f"exit {p.returncode}, expected 2")
    check(len(errors) == 1 and all(w in errors[0] for w in words),
          f"expected one error naming {words}, got {errors}")


def expect_usage_error(a, args, needles, np=None):
    p = mpirun(a, np or a.np, args, timeout=60)
    check(p.returncode == 2, f"{args}: exit {p.returncode}, expected 2")
    for n in needles:
        check(n in p.stderr, f"{args}: message lacks '{n}'")
    count = p.stderr.count("runner: error:")
    check(count == 1, f"{args}: error printed {count} times, expected once")
    check("MPI_ABORT" not in p.stderr, f"{args}: aborted instead of exiting")
    return p


def runner_main(tests):
    """main() of the e2e scripts of the runner's own runs (e2e_methods.py,
    e2e_cli.py): runs the test named on the command line with --np,
    --mpiexec, --launcher, --runner, --test-plugins, --workdir and
    --boost-mpi; prints ok, or FAIL: why on stderr; returns the exit code."""
    ap = argparse.ArgumentParser()
    ap.add_argument("test", choices=sorted(tests))
    ap.add_argument("--np", type=int, default=2)
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--test-plugins", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--boost-mpi", choices=["on", "off"], default="on",
                    help="whether the build has the Boost.MPI methods")
    a = parse_args(ap)
    try:
        tests[a.test](a)
    except Fail as e:
        print(f"FAIL: {e}", file=sys.stderr)
        return 1
    print("ok")
    return 0
