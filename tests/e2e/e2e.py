#!/usr/bin/env python3
"""End-to-end tests of the mpiarena runner under mpirun.

Each subcommand is one ctest test: it runs the real runner with real plugins
and asserts on exit codes, printed messages and the JSON written.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time

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
    (one, or several in an MPMD command line)."""
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


def run_np(a, args, out, reps="3", min_time="0.001", timeout=280):
    """The runner under mpirun at a.np ranks (oversubscribed if need be),
    quick statistics, writing `out` (removed first); prints the tails of
    its output and returns the CompletedProcess."""
    if os.path.exists(out):
        os.remove(out)
    cmd = launch(a) + [a.runner, "--min-time", min_time, "-r", reps, "-o", out] + args
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env())
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
    """{method: (suite, [payloads])} as `runner --list` prints them."""
    p = runner(a, ["--list"])
    check(p.returncode == 0, "--list failed")
    out = {}
    for line in p.stdout.splitlines()[1:]:
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


FAST = ["--min-time", "0.001", "--repetitions", "3"]


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


def test_all_methods(a):
    out = out_path(a, f"all_np{a.np}.json")
    listed = listed_methods(a)
    # Oversubscribed, a passive-target operation waits for its target to
    # be scheduled (milliseconds each under MPICH): the rma suite's 150
    # points run at 2 ranks here, at 3 and 4 in e2e_rma_np3/4 (e2e_p2p.py).
    if a.np > 2:
        listed = {m: v for m, v in listed.items() if v[0] != "rma"}
    methods = "all" if a.np == 2 else ",".join(sorted({v[0] for v in listed.values()}))
    p = mpirun(a, a.np, ["--methods", methods, "--sizes", "small,medium", "-o", out] + FAST)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = validate(a, out)
    check(doc["complete"] is True, "document not marked complete")
    check(doc["context"]["ranks"] == a.np, "context.ranks differs from -np")
    got = {(r["method"], r["payload"], r["size_label"]) for r in doc["records"]}
    for m in expected_methods(a, TRANSFER_METHODS):
        check(m in listed, f"--list lacks the seed method {m}")
    # The run used the MPI the build was configured with (MPIARENA_MPI).
    library = doc["context"]["mpi_library"]
    want = {"openmpi": "Open MPI", "mpich": "MPICH"}[a.launcher]
    check(want in library, f"mpi_library is {library!r}, expected {want}")
    # Open MPI 4's osc rdma crash (docs/methods.md#rma): skipped, the reason said.
    known = {(s["method"], s["payload"]) for s in doc["skipped"]
             if "open-mpi/ompi#11349" in s["reason"] and a.launcher == "openmpi"}
    # The skips the docs name (known_skip): the reason said.
    documented = {(s["method"], s["payload"]) for s in doc["skipped"]
                  if known_skip(a, s)}
    for m, (suite, payloads) in listed.items():
        # The rma atomics move one 8-byte element whatever --sizes says.
        fixed = suite == "rma" and m.split("_")[0] in ("fop", "cas")
        for payload in payloads:
            for size in ("8",) if fixed else ("small", "medium"):
                check((m, payload, size) in got or (m, payload) in known | documented,
                      f"no record for {m} {payload} {size}")
    check(all(m.startswith("cas_") and p == "allocate" for m, p in known),
          f"skips beyond the known Open MPI crash: {known}")
    doc["skipped"] = [s for s in doc["skipped"]
                      if (s["method"], s["payload"]) not in known | documented]
    for r in doc["records"]:
        check(r["verification"]["status"] == "passed",
              f"{r['method']} {r['payload']} {r['size_label']}: {r['verification']}")
        check(r["ranks"] == a.np, "record ranks differs from -np")
        check(len(r["samples_s"]["max"]) == 3, "3 repetitions asked")
        check(r["time_s"]["min"] <= r["time_s"]["median"] <= r["time_s"]["max"],
              "time statistics out of order")
        for lo, hi in zip(r["samples_s"]["min"], r["samples_s"]["max"]):
            check(lo <= hi, "min over ranks above max over ranks")
    check(doc["skipped"] == [], f"unexpected skips: {doc['skipped']}")
    # The table ranks methods per payload and size.
    check("transfer / 2d / medium" in p.stdout, "table lacks the 2d medium group")
    check(p.stdout.count("mpiarena ") == 1, "the table must be printed once (rank 0)")
    # The summary is in the document, and `runner report` reproduces the
    # tables printed at the end of the run from the saved file alone.
    check(len(doc["summary"]["best"]) > 0, "no summary in the document")
    check("Fastest method per size" in p.stdout, "no summary after the run")
    rep = runner(a, ["report", out])
    check(rep.returncode == 0, f"runner report exited {rep.returncode}")
    check(rep.stdout.strip() and rep.stdout in p.stdout,
          "runner report differs from the tables printed by the run")
    md = runner(a, ["report", out, "--format", "markdown"])
    check(md.returncode == 0 and "| 1 | " in md.stdout and "### 1d vs 2d" in md.stdout,
          "markdown report incomplete")


def test_corrupt(a):
    out = out_path(a, f"corrupt_np{a.np}.json")
    p = mpirun(a, a.np, ["--plugin-dir", a.test_plugins, "--methods", "corrupt,bcast",
                         "--sizes", "small", "-o", out] + FAST)
    check(p.returncode == 1, f"a corrupting plugin must fail the run with 1, got {p.returncode}")
    doc = validate(a, out)
    status = {(r["method"], r["payload"]): r["verification"]["status"] for r in doc["records"]}
    check(status.get(("corrupt", "1d")) == "failed", f"corrupt 1d not failed: {status}")
    check(status.get(("corrupt", "2d")) == "failed", f"corrupt 2d not failed: {status}")
    check(status.get(("bcast", "1d")) == "passed", "bcast must still pass beside it")
    check("FAILED" in p.stdout, "the table must show FAILED")


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


def test_bad_input(a):
    expect_usage_error(a, ["--methods", "nosuch"],
                       ["unknown method or suite 'nosuch'", "bcast", "rdma"])
    expect_usage_error(a, ["--sizes", "12XB"], ["invalid size", "Accepted:", "8B..4MiB"])
    expect_usage_error(a, ["--sizes", "huge"], ["not a preset name", "xxxlarge"])
    expect_usage_error(a, ["--plugin-dir", "/nonexistent/plugins"],
                       ["--plugin-dir '/nonexistent/plugins' is not a directory"])
    start = time.time()
    expect_usage_error(a, ["--sizes", "xxlarge", "-o", "/nonexistent/dir/r.json"],
                       ["directory '/nonexistent/dir' does not exist"])
    check(time.time() - start < 30, "the output check must come before any measurement")
    expect_usage_error(a, ["--payloads", "3d", "--methods", "bcast"],
                       ["payload '3d' is not offered", "1d, 2d"])
    expect_usage_error(a, ["--repetitions", "0"], ["--repetitions must be"])
    expect_usage_error(a, ["--format", "xml"], ["accepted: table, summary, markdown, json"])
    expect_usage_error(a, ["--frobnicate"], ["unrecognised option"])
    # The file commands: one message (rank 0), exit 2 for bad input.
    expect_usage_error(a, ["report", "/nonexistent.json"], ["cannot read '/nonexistent.json'"])
    notjson = out_path(a, "not_json.json")
    with open(notjson, "w") as f:
        f.write("{")
    expect_usage_error(a, ["report", notjson], ["invalid: not JSON"])
    p = mpirun(a, a.np, ["compare", notjson, "/nonexistent.json"], timeout=60)
    check(p.returncode == 2, f"compare of bad files: exit {p.returncode}, expected 2")
    check(p.stderr.count("runner: error:") == 2,
          "compare of two bad files: one message per file, from rank 0 only")
    expect_usage_error(a, ["compare", "a.json", "b.json", "--threshold", "0.05"],
                       ["ambiguous", "write 5% for a fraction of 0.05", "0.05%"])
    expect_usage_error(a, ["--wait", "never"],
                       ["--wait 'never'", "accepted: auto, poll, sleep"])
    expect_usage_error(a, ["--per-rank", "--format", "csv"],
                       ["--per-rank", "table or markdown", "'csv'"])


def test_too_few_ranks(a):
    out = out_path(a, "np1.json")
    p = mpirun(a, 1, ["--methods", "bcast,null", "--sizes", "small", "-o", out] + FAST)
    check(p.returncode == 0, f"exit {p.returncode}")
    doc = validate(a, out)
    reasons = [s["reason"] for s in doc["skipped"] if s["method"] == "bcast"]
    check(len(reasons) == 2, f"bcast 1d and 2d must be skipped at 1 rank: {doc['skipped']}")
    check(all("needs at least 2 ranks" in r for r in reasons), f"reasons: {reasons}")
    check("skipped bcast: needs at least 2 ranks" in p.stdout, "table must show the skip")
    check(any(r["method"] == "null" for r in doc["records"]), "null still runs at 1 rank")
    # A 2d payload below one element is skipped with its reason too.
    p = mpirun(a, 2, ["--methods", "bcast", "--sizes", "100", "-o", out] + FAST)
    check(p.returncode == 0, f"exit {p.returncode}")
    doc = validate(a, out)
    check(any(s["payload"] == "2d" and "at least 220 bytes" in s["reason"]
              for s in doc["skipped"]), f"no 2d size skip: {doc['skipped']}")
    check(any(r["payload"] == "1d" for r in doc["records"]), "1d at 100 B still runs")


def test_memory_guard(a):
    out = out_path(a, "memory.json")
    p = mpirun(a, a.np, ["--methods", "bcast,pack", "--sizes", "large,xlarge",
                         "--max-memory", "50MB", "-o", out] + FAST)
    check(p.returncode == 0, f"exit {p.returncode}")
    doc = validate(a, out)
    skipped = {(s["method"], s["size_label"]) for s in doc["skipped"]}
    measured = {(r["method"], r["size_label"]) for r in doc["records"]}
    # pack holds 2 copies: np x 2 x 11 MB > 80% of 50 MB; bcast (1 copy) fits
    # at 2 ranks (22 MB < 40 MB).
    check(("pack", "xlarge") in skipped, f"pack xlarge not skipped: {skipped}")
    check(("pack", "large") in measured, "pack large must still run")
    check(("bcast", "xlarge") in measured, "bcast xlarge fits and must run")
    reason = next(s["reason"] for s in doc["skipped"] if s["method"] == "pack")
    check("payload copies" in reason and "50.0 MB available" in reason, reason)
    # Fan-in: the root holds one buffer per client, so a fan-in method counts
    # 2 copies per rank: 2 ranks x 2 x 16.8 MB > 80% of 60 MB.
    p = mpirun(a, a.np, ["--methods", "send", "--sizes", "16MiB", "--max-memory", "60MB",
                         "-o", out] + FAST)
    check(p.returncode == 0, f"exit {p.returncode}")
    doc = validate(a, out)
    check(doc["records"] == [] and len(doc["skipped"]) == 1, "fan-in 16MiB must be skipped")
    check("2 payload copies" in doc["skipped"][0]["reason"], doc["skipped"][0]["reason"])
    expect_usage_error(a, ["--max-memory", "lots"], ["--max-memory 'lots'", "Accepted", "8GiB"])


def test_broken_plugin(a):
    d = os.path.join(a.workdir, "broken_plugins")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "mpiarena_garbage.so"), "w") as f:
        f.write("this is not an ELF file\n")
    shutil.copy(os.path.join(a.test_plugins, "mpiarena_wrong_abi.so"), d)
    # Built against the other MPI's mpi.h (tests/CMakeLists.txt), when its
    # headers are installed.
    other = os.path.join(os.path.dirname(a.test_plugins), "plugins_bad",
                         "mpiarena_other_mpi.so")
    if os.path.exists(other):
        shutil.copy(other, d)
    else:
        print(f"note: {other} not built (the other MPI's headers are missing)")
    out = out_path(a, "broken.json")
    p = mpirun(a, a.np, ["--plugin-dir", d, "--methods", "bcast", "--sizes", "small",
                         "-o", out] + FAST)
    check(p.returncode == 0, f"a broken plugin file must not stop the run: exit {p.returncode}")
    check("mpiarena_garbage.so" in p.stderr and "cannot load" in p.stderr,
          "no warning naming the unloadable file")
    check("mpiarena_wrong_abi.so" in p.stderr and "ABI version" in p.stderr,
          "no warning naming the wrong-ABI file")
    lines = [l for l in p.stderr.splitlines() if "mpiarena_garbage.so" in l]
    check(len(lines) == 1, f"the warning must be printed once, got {len(lines)}")
    if os.path.exists(other):
        mine, theirs = (("Open MPI", "MPICH") if a.launcher == "openmpi"
                        else ("MPICH", "Open MPI"))
        lines = [l for l in p.stderr.splitlines() if "mpiarena_other_mpi.so" in l]
        check(len(lines) == 1 and f"was built against {theirs}" in lines[0]
              and f"this runner against {mine}" in lines[0],
              f"no single warning naming the other MPI's plugin and both MPIs: {lines}")
    doc = validate(a, out)
    check(len(doc["records"]) == 2, "bcast 1d and 2d must still run")


def test_interrupted(a):
    out = out_path(a, "interrupted.json")
    cmd = launch(a) + [a.runner, "--methods", "all",
           "--sizes", "small,medium,large,xlarge,xxlarge", "-o", out, "--quiet"]
    proc = subprocess.Popen(cmd, env=env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 120
    records = 0
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.2)
        try:
            with open(out) as f:
                records = len(json.load(f)["records"])
        except (OSError, ValueError):
            continue
        if records >= 3:
            break
    check(proc.poll() is None, "the run ended before it could be interrupted")
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    doc = validate(a, out)
    check(doc["complete"] is False, "an interrupted run must say complete: false")
    check(len(doc["records"]) >= 3, "the points measured before the kill must be kept")


def test_list_help(a):
    p = runner(a, ["--list"])
    check(p.returncode == 0, "--list failed")
    names = [line.split()[0] for line in p.stdout.splitlines() if line.split()]
    for m in expected_methods(a, TRANSFER_METHODS) + ["null"]:
        check(m in names, f"--list lacks {m}")
    if a.boost_mpi == "off":  # built without Boost.MPI: none of its methods
        check(not BOOST_MPI_METHODS & set(names),
              f"--list has Boost.MPI methods: {sorted(BOOST_MPI_METHODS & set(names))}")
    check("transfer" in p.stdout and "1d,2d" in p.stdout, "--list lacks suite/payloads")
    p = runner(a, ["--help"])
    check(p.returncode == 0 and "--min-time" in p.stdout and "validate" in p.stdout,
          "--help incomplete")
    p = runner(a, ["validate", "/nonexistent.json"])
    check(p.returncode == 2, "validate of a missing file must exit 2")
    bad = out_path(a, "bad.json")
    with open(bad, "w") as f:
        json.dump({"schema_version": 1, "records": []}, f)
    p = runner(a, ["validate", bad])
    check(p.returncode == 1 and "invalid" in p.stderr, "an invalid document must fail validate")
    p = runner(a, ["sizes", "--sizes", "netpipe:16..32,1KiB"])
    check(p.returncode == 0, "sizes failed")
    got = [int(line.split("\t")[0]) for line in p.stdout.splitlines()]
    check(got == [16, 19, 21, 24, 27, 29, 32, 1024], f"sizes printed {got}")
    expect_usage_error(a, ["sizes", "--sizes", "3..2"], ["--sizes", "starts above its end"])
    # Under mpirun, --list prints once.
    p = mpirun(a, 2, ["--list"])
    headers = sum(line.startswith("method ") for line in p.stdout.splitlines())
    check(p.returncode == 0 and headers == 1, "--list under mpirun")
    p = runner(a, ["validate", bad, "--help"])
    check(p.returncode == 0 and "--min-time" in p.stdout, "validate --help must show the help")
    # A subcommand's --help shows the help even without its files.
    for cmd in (["report", "--help"], ["compare", "--help"], ["validate", "--help"],
                ["sizes", "--help"]):
        p = runner(a, cmd)
        check(p.returncode == 0 and "--min-time" in p.stdout,
              f"{' '.join(cmd)} must show the help, exit {p.returncode}")
    # Under mpirun, validate reports once, with its exit code on every rank.
    p = mpirun(a, 3, ["validate", bad])
    check(p.returncode == 1 and p.stderr.count("invalid:") == 1,
          f"validate under mpirun: exit {p.returncode}, stderr {p.stderr!r}")


def test_pingpong(a):
    """Every ping-pong plugin at 0 B, on the NetPIPE ladder and at 64 KiB:
    verified one-way times, the pair (0, 1) only, and fits that hold (or
    the sizes they leave out) over every size of every method."""
    out = out_path(a, f"pingpong_np{a.np}.json")
    sizes = "0,netpipe:1000..1100,65536"
    p = mpirun(a, a.np, ["--methods", "pingpong", "--sizes", sizes, "-o", out] + FAST)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = validate(a, out)
    want_sizes = {0, 1021, 1024, 1027, 65536}
    got = {(r["method"], r["bytes"]) for r in doc["records"]}
    methods = expected_methods(a, PINGPONG_METHODS)
    for m in methods:
        for b in want_sizes:
            check((m, b) in got, f"no record for {m} at {b} B")
    for r in doc["records"]:
        check(r["suite"] == "pingpong" and r["payload"] == "bytes", "not a pingpong record")
        check(r["verification"]["status"] == "passed",
              f"{r['method']} {r['bytes']}: {r['verification']}")
        check(r["payload_bytes"] == r["bytes"], "the bytes payload holds exactly the size")
        check(r["time_scale"] == 0.5, "ping-pong records hold one-way times")
        check(r["pairs"] == 1, "one pair by default")
        check(r["ranks"] == a.np, "record ranks differs from -np")
    unexpected = [s for s in doc["skipped"] if not known_skip(a, s)]
    check(unexpected == [], f"unexpected skips: {unexpected}")
    # Every size is fitted (where L + n / B holds within 25%, L >= 0) or
    # listed as not fitted.
    summary = doc["summary"]
    for m in methods:
        fits = [f for f in summary["fits"] if f["method"] == m]
        unfitted = [u for u in summary["unfitted"] if u["method"] == m]
        check(fits or unfitted, f"no fitted model for {m}, nor its sizes left out")
        check(sum(f["points"] for f in fits + unfitted) == len(want_sizes),
              f"{m}: the fits and the sizes left out cover every size")
        for f in fits:
            check(f["latency_s"] >= 0 and f["max_error"] <= 0.25, f"{m}: fit {f}")
    check("L + n / B" in p.stdout, "no fit table after the run")
    # --wait auto: ranks sleep between samples exactly when the node has
    # more ranks than CPUs, and the header says so.
    cpus = len(os.sched_getaffinity(0))  # what mpirun may bind the ranks to
    over = a.np > cpus
    ctx = doc["context"]
    check(ctx["cpus_per_node"] == cpus, f"cpus_per_node {ctx['cpus_per_node']}, expected {cpus}")
    check(ctx["oversubscribed"] == over, f"oversubscribed {ctx['oversubscribed']}, np {a.np}")
    check(ctx["waiting"] == ("sleep" if over else "poll"), f"waiting {ctx['waiting']}")
    check(("oversubscribed:" in p.stdout) == over, "the header must say oversubscribed")
    for r in doc["records"]:
        per = r["per_rank_s"]
        check(len(per) == a.np, "per_rank_s has one time per rank")
        if a.np > 2:  # ranks outside the pair (0, 1) are idle
            check(max(per[2:]) < min(per[:2]), f"{r['method']}: an idle rank was busy")


def test_pairs_all(a):
    """--pairs all: every disjoint pair bounces at once; each pair's ranks are
    busy, an odd last rank idle; the aggregate bandwidth counts the pairs."""
    out = out_path(a, f"pairs_np{a.np}.json")
    p = mpirun(a, a.np, ["--methods", "pingpong", "--pairs", "all", "--sizes", "0,4096",
                         "--wait", "sleep", "-o", out] + FAST)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = validate(a, out)
    check(doc["context"]["waiting"] == "sleep", "--wait sleep is not recorded")
    check(doc["context"]["options"]["pairs"] == "all", "context lacks --pairs all")
    npairs = a.np // 2
    for r in doc["records"]:
        check(r["verification"]["status"] == "passed",
              f"{r['method']} {r['bytes']}: {r['verification']}")
        check(r["pairs"] == npairs, f"pairs {r['pairs']}, expected {npairs}")
        check(abs(r["aggregate_bandwidth_Bps"] - npairs * r["bandwidth_Bps"]) <=
              1e-6 * max(1.0, r["aggregate_bandwidth_Bps"]), "aggregate bandwidth")
        per = r["per_rank_s"]
        busy = per[:2 * npairs]
        if a.np % 2:
            check(per[-1] < min(busy), f"{r['method']}: the odd rank was busy")
    unexpected = [s for s in doc["skipped"] if not known_skip(a, s)]
    check(unexpected == [], f"unexpected skips: {unexpected}")


def test_fanin(a):
    """Every send mode fans in to rank 0: verified, with per-rank times."""
    out = out_path(a, f"fanin_np{a.np}.json")
    sizes = "0,8,65536,1MiB"
    p = mpirun(a, a.np, ["--methods", "fanin", "--sizes", sizes, "--wait", "poll",
                         "-o", out] + FAST)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = validate(a, out)
    check(doc["context"]["waiting"] == "poll", "--wait poll is not recorded")
    got = {(r["method"], r["bytes"]) for r in doc["records"]}
    for m in FANIN_METHODS:
        for b in (0, 8, 65536, 1 << 20):
            check((m, b) in got, f"no record for {m} at {b} B")
    for r in doc["records"]:
        check(r["suite"] == "fanin", "not a fan-in record")
        check(r["verification"]["status"] == "passed",
              f"{r['method']} {r['bytes']}: {r['verification']}")
        check("time_scale" not in r, "fan-in times are not scaled")
        per = r["per_rank_s"]
        check(len(per) == a.np and all(t > 0 for t in per), "one time per rank")
    check(doc["skipped"] == [], f"unexpected skips: {doc['skipped']}")
    # --per-rank prints each rank's time, a column per rank.
    p = runner(a, ["report", out, "--per-rank"])
    check(p.returncode == 0, f"report --per-rank exited {p.returncode}")
    check("Per-rank time" in p.stdout, "report --per-rank lacks its table")
    check(f"rank {a.np - 1}" in p.stdout and f"rank {a.np}" not in p.stdout,
          f"report --per-rank must have one column per rank (np {a.np})")
    rows = [l for l in p.stdout.splitlines() if l.split()[:1] == ["fanin"]]
    check(len(rows) >= len(FANIN_METHODS) * 4,
          f"report --per-rank: {len(rows)} fan-in rows")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    ap.add_argument("--np", type=int, default=2)
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--test-plugins", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--boost-mpi", choices=["on", "off"], default="on",
                    help="whether the build has the Boost.MPI methods")
    a = parse_args(ap)
    tests = {
        "all-methods": test_all_methods,
        "corrupt": test_corrupt,
        "bad-input": test_bad_input,
        "too-few-ranks": test_too_few_ranks,
        "broken-plugin": test_broken_plugin,
        "interrupted": test_interrupted,
        "list-help": test_list_help,
        "memory-guard": test_memory_guard,
        "pingpong": test_pingpong,
        "fanin": test_fanin,
        "pairs-all": test_pairs_all,
    }
    try:
        tests[a.test](a)
    except Fail as e:
        print(f"FAIL: {e}", file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
