#!/usr/bin/env python3
"""End-to-end tests of the runner's command line and its guards under
mpirun: bad input, too few ranks, the memory guard, a broken plugin, an
interrupted run keeping its points, --list and --help.

Each subcommand is one ctest test (tests/e2e/CMakeLists.txt); the harness
is e2e.py's.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import (  # noqa: E402
    BOOST_MPI_METHODS, VERIFY, TRANSFER_METHODS, Skip, check, env, expect_usage_error,
    expected_methods, launch, mpirun, out_path, runner, validate, runner_main)


def test_bad_input(a):
    expect_usage_error(a, ["--methods", "nosuch"],
                       ["unknown method or suite 'nosuch'",
                        "'runner --list' lists the"])
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
    # "1,000" is not the sizes 1 and 0.
    expect_usage_error(a, ["--sizes", "1,000"], ["'000'", "write 1000"])
    # A method named in --methods is never dropped without a word.
    expect_usage_error(a, ["--methods", "bcast,mpi_bytes", "--payloads", "bytes"],
                       ["method 'bcast' offers none of --payloads bytes",
                        "its payloads: 1d, 2d"])
    # A runner that finds no plugin says so, not "available methods: ;".
    lone = os.path.join(a.workdir, "lone_runner")
    shutil.rmtree(lone, ignore_errors=True)
    os.makedirs(lone)
    shutil.copy(a.runner, lone)
    p = subprocess.run(launch(a, a.np) + [os.path.join(lone, "runner"), "-m",
                                          "bcast"] + VERIFY,
                       capture_output=True, text=True, timeout=120,
                       env=env({"MPIARENA_PLUGIN_PATH": ""}))
    print(p.stderr[-2000:], file=sys.stderr)
    check(p.returncode == 2, f"a runner without plugins: exit {p.returncode}")
    check("no plugin was loaded" in p.stderr and "--plugin-dir" in p.stderr
          and "available methods: ;" not in p.stderr,
          f"a runner without plugins: {p.stderr[-600:]!r}")
    check(p.stderr.count("runner: error:") == 1, "one error, from rank 0")


def test_too_few_ranks(a):
    out = out_path(a, "np1.json")
    p = mpirun(a, 1, ["--methods", "bcast,null", "--sizes", "small", "-o", out] + VERIFY)
    check(p.returncode == 0, f"exit {p.returncode}")
    doc = validate(a, out)
    reasons = [s["reason"] for s in doc["skipped"] if s["method"] == "bcast"]
    check(len(reasons) == 2, f"bcast 1d and 2d must be skipped at 1 rank: {doc['skipped']}")
    check(all("needs at least 2 ranks" in r for r in reasons), f"reasons: {reasons}")
    check("skipped bcast: needs at least 2 ranks" in p.stdout, "table must show the skip")
    check(any(r["method"] == "null" for r in doc["records"]), "null still runs at 1 rank")
    # A 2d payload below one element is skipped with its reason too.
    p = mpirun(a, 2, ["--methods", "bcast", "--sizes", "100", "-o", out] + VERIFY)
    check(p.returncode == 0, f"exit {p.returncode}")
    doc = validate(a, out)
    check(any(s["payload"] == "2d" and "at least 220 bytes" in s["reason"]
              for s in doc["skipped"]), f"no 2d size skip: {doc['skipped']}")
    check(any(r["payload"] == "1d" for r in doc["records"]), "1d at 100 B still runs")


def test_memory_guard(a):
    out = out_path(a, "memory.json")
    p = mpirun(a, a.np, ["--methods", "bcast,pack", "--sizes", "large,xlarge",
                         "--max-memory", "50MB", "-o", out] + VERIFY)
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
    # 1 copy plus 1 per rank of the point, the root's need, for every rank:
    # 2 ranks x 3 x 16.8 MB > 80% of 60 MB.
    p = mpirun(a, a.np, ["--methods", "send", "--sizes", "16MiB", "--max-memory", "60MB",
                         "-o", out] + VERIFY)
    check(p.returncode == 0, f"exit {p.returncode}")
    doc = validate(a, out)
    check(doc["records"] == [] and len(doc["skipped"]) == 1, "fan-in 16MiB must be skipped")
    check(f"{1 + a.np} payload copies" in doc["skipped"][0]["reason"],
          doc["skipped"][0]["reason"])
    expect_usage_error(a, ["--max-memory", "lots"], ["--max-memory 'lots'", "Accepted", "8GiB"])


# Each rank under a wrapper that runs it and prints its peak resident
# memory (the kernel's maxrss of the child) on stdout.
RSS_WRAPPER = ("import resource, subprocess, sys\n"
               "rc = subprocess.call(sys.argv[1:])\n"
               "kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
               "print(f'rank peak rss {kib} KiB', flush=True)\n"
               "sys.exit(rc)\n")


def peak_rss_per_rank(a, np, args):
    """Runs the runner at np ranks, each under RSS_WRAPPER: its exit code,
    the largest rank's peak resident memory (bytes) and the document."""
    out = out_path(a, "memory_peak.json")
    cmd = launch(a, np) + [sys.executable, "-c", RSS_WRAPPER, a.runner] + \
        args + ["-o", out]
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=280, env=env())
    print(p.stdout[-3000:])
    print(p.stderr[-3000:], file=sys.stderr)
    # The ranks' lines may run together on mpirun's stdout.
    peaks = [int(k) * 1024 for k in re.findall(r"rank peak rss (\d+) KiB",
                                               p.stdout)]
    check(len(peaks) == np, f"{len(peaks)} peaks reported, {np} ranks")
    return p.returncode, max(peaks), validate(a, out)


def test_memory_released(a):
    """Methods measured one at a time hold one method's buffers at a time:
    each strategy is destroyed before the next is created, so the launch
    peaks at what its largest point needs, not at their sum."""
    sizes = ["--sizes", "48MiB", "--min-time", "0.001", "-r", "2", "--warmup", "1"]
    methods = ["allgather", "alltoall", "gather", "scatter", "allreduce"]
    rc, alone, doc = peak_rss_per_rank(
        a, a.np, ["--methods", "alltoall"] + sizes)
    check(rc == 0, f"alltoall alone: exit {rc}")
    rc, together, doc = peak_rss_per_rank(
        a, a.np, ["--methods", ",".join(methods), "--interleave", "off"] + sizes)
    check(rc == 0, f"five methods: exit {rc}")
    check(len(doc["records"]) == len(methods),
          f"{len(doc['records'])} records, {len(methods)} methods")
    mib = 1 << 20
    print(f"peak rss per rank: alltoall alone {alone / mib:.0f} MiB, "
          f"five methods in turn {together / mib:.0f} MiB")
    # The other four need 2-3 payloads each (more than 96 MiB): held
    # together they would add 400 MiB and more; freed, at most the heap's
    # slack and the MPI library's caches remain.
    check(together < alone + 64 * mib,
          f"five methods in turn peaked at {together / mib:.0f} MiB a rank, "
          f"alltoall alone at {alone / mib:.0f} MiB: buffers pile up")
    mem = doc["context"]["memory"]
    check(mem["peak_rss_bytes"] <= together + 16 * mib and
          mem["peak_rss_bytes"] > 48 * mib,
          f"context.memory.peak_rss_bytes {mem['peak_rss_bytes']} against "
          f"the measured {together}")
    check(mem["planned_per_rank_bytes"] >= 2 * 48 * mib,
          f"planned {mem['planned_per_rank_bytes']}")


def test_memory_held(a):
    """A plugin that keeps memory past release() (the test plugin hoarder
    keeps a copy of its payload in a static) is noticed: its record says
    what it held, the log warns; a method that frees its buffers is not."""
    slow = os.path.join(os.path.dirname(a.test_plugins), "plugins_slow")
    out = out_path(a, "memory_held.json")
    p = mpirun(a, a.np, ["--plugin-dir", slow, "--methods", "hoarder,bcast",
                         "--sizes", "96MiB", "--interleave", "off",
                         "-o", out] + VERIFY)
    check(p.returncode == 0, f"exit {p.returncode}")
    doc = validate(a, out)
    notes = {r["method"]: " ".join(r.get("notes", [])) for r in doc["records"]}
    check(set(notes) == {"hoarder", "bcast"}, f"records: {sorted(notes)}")
    check("still held" in notes["hoarder"] and "outlives release()" in
          notes["hoarder"], f"hoarder's notes: {notes['hoarder']!r}")
    check("still held" not in notes["bcast"], f"bcast: {notes['bcast']!r}")
    check("hoarder" in p.stderr and "still held" in p.stderr,
          "no warning naming hoarder on stderr")


def memory_cgroup(limit):
    """A new memory cgroup of `limit` bytes (v1 or v2) and the file a
    process joins it through; Skip when this machine cannot make one."""
    name = f"mpiarena-e2e-{os.getpid()}"
    v1 = "/sys/fs/cgroup/memory"
    try:
        if os.path.isdir(v1):
            d = os.path.join(v1, name)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "memory.limit_in_bytes"), "w") as f:
                f.write(str(limit))
        elif os.path.exists("/sys/fs/cgroup/cgroup.controllers"):
            d = os.path.join("/sys/fs/cgroup", name)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "memory.max"), "w") as f:
                f.write(str(limit))
        else:
            raise Skip("no memory cgroup mounted")
    except OSError as e:
        raise Skip(f"cannot make a memory cgroup here ({e})")
    return d


def test_memory_cgroup(a):
    """Inside a memory cgroup the guard plans for the cgroup's limit, not
    the machine's memory, and says which it used."""
    limit = 1 << 30
    d = memory_cgroup(limit)
    try:
        out = out_path(a, "memory_cgroup.json")
        cmd = launch(a, a.np) + [a.runner, "--methods", "bcast,alltoall",
                                 "--sizes", "4KiB,160MiB", "-o", out] + VERIFY
        shell = f'echo $$ > {d}/cgroup.procs && exec "$@"'
        print("$", " ".join(cmd), flush=True)
        p = subprocess.run(["sh", "-c", shell, "sh"] + cmd, capture_output=True,
                           text=True, timeout=280, env=env())
        print(p.stdout[-3000:])
        print(p.stderr[-3000:], file=sys.stderr)
        check(p.returncode == 0, f"exit {p.returncode}")
        doc = validate(a, out)
    finally:
        try:
            os.rmdir(d)
        except OSError:
            pass
    mem = doc["context"].get("memory", {})
    check("cgroup" in mem.get("source", "") and
          0 < mem.get("available_bytes", 0) <= limit,
          f"context.memory {mem}: the cgroup's 1 GiB limit not taken")
    # alltoall at 160 MiB needs 2 x 2 x 160 MiB and more per node, beyond
    # 80% of 1 GiB; at 4 KiB it runs, as bcast does at both sizes.
    skipped = {(s["method"], s["size_label"]): s["reason"]
               for s in doc["skipped"]}
    measured = {(r["method"], r["size_label"]) for r in doc["records"]}
    big = next((r for (m, _), r in skipped.items() if m == "alltoall"), "")
    check("cgroup" in big and "available" in big,
          f"alltoall 160MiB not skipped for the cgroup: {skipped}")
    check(("bcast", "160 MiB") in measured or
          any(m == "bcast" and l != "4 KiB" for m, l in measured),
          f"bcast at 160 MiB fits and must run: {measured}")


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
                         "-o", out] + VERIFY)
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
    check(p.returncode == 0 and "runner validate FILE..." in p.stdout,
          "validate --help must show its help")
    # A subcommand's --help shows its own help even without its files:
    # its usage and its options, not a run's.
    for cmd, usage, option in ((["report", "--help"], "runner report FILE", "--per-rank"),
                               (["compare", "--help"], "runner compare BASE NEW", "--threshold"),
                               (["validate", "--help"], "runner validate FILE", "--log-level"),
                               (["sizes", "--help"], "runner sizes [--sizes SPEC]", "--sizes")):
        p = runner(a, cmd)
        check(p.returncode == 0 and usage in p.stdout and option in p.stdout
              and "--min-time" not in p.stdout,
              f"{' '.join(cmd)} must show its own help, exit {p.returncode}")
    # Under mpirun, validate reports once, with its exit code on every rank.
    p = mpirun(a, 3, ["validate", bad])
    check(p.returncode == 1 and p.stderr.count("invalid:") == 1,
          f"validate under mpirun: exit {p.returncode}, stderr {p.stderr!r}")


def test_suggestions(a):
    """A mistyped method, option or command is answered with the nearest
    names, every unknown name of a list at once, in a few lines; each
    command's help lists its own options, and an option of another
    command is refused naming the commands that take it."""
    p = expect_usage_error(a, ["--methods", "bcats,allreduse"],
                           ["'bcats' (did you mean 'bcast'",
                            "'allreduse' (did you mean 'allreduce'",
                            "'runner --list' lists the"])
    # The runner's message, not the launcher's own lines about the exit.
    message = [l for l in p.stderr.splitlines() if "runner: error:" in l]
    check(len(message) == 1 and len(message[0]) < 600,
          f"the message is {len(message[0])} characters long: {message[0]!r}")
    expect_usage_error(a, ["--treshold", "5"], ["did you mean '--threshold'"])
    expect_usage_error(a, ["compair", "a.json", "b.json"],
                       ["unexpected argument 'compair' (did you mean 'compare'?)"])
    expect_usage_error(a, ["report", "x.json", "--window", "4"],
                       ["'--window' is not an option of 'runner report'",
                        "it is an option of a run, ab"])
    expect_usage_error(a, ["-x"], ["'-x': not an option of a run",
                                   "its short options are -f, -h"])
    # Without a launcher too: one message, exit 2.
    for args, needle in ((["--methods", "bcats"], "did you mean 'bcast'"),
                         (["--payloads", "2D", "-m", "bcast"], "did you mean '2d'?"),
                         (["-f", "jsn"], "did you mean 'json'?"),
                         (["--help-method", "bcats"], "did you mean 'bcast'")):
        p = runner(a, args)
        check(p.returncode == 2 and needle in p.stderr
              and p.stderr.count("runner: error:") == 1,
              f"{args}: exit {p.returncode}, {p.stderr!r}")
    p = runner(a, ["report", "--help"])
    check(p.returncode == 0 and "--format" in p.stdout and "--per-rank" in p.stdout,
          "report --help lacks its options")
    for other in ("--threshold", "--window", "--methods"):
        check(other not in p.stdout, f"report --help shows {other}")
    p = runner(a, ["compare", "--help"])
    check(p.returncode == 0 and "--threshold" in p.stdout and "--window" not in p.stdout,
          "compare --help must show --threshold and no run option")
    p = runner(a, ["help", "compare"])
    check(p.returncode == 0 and "--threshold" in p.stdout, "runner help compare")
    p = runner(a, ["--help"])
    check(p.returncode == 0 and "runner COMMAND --help" in p.stdout
          and "--min-time" in p.stdout and "--threshold" not in p.stdout,
          "runner --help: the overview and a run's options")


if __name__ == "__main__":
    sys.exit(runner_main({
        "bad-input": test_bad_input,
        "too-few-ranks": test_too_few_ranks,
        "broken-plugin": test_broken_plugin,
        "interrupted": test_interrupted,
        "list-help": test_list_help,
        "suggestions": test_suggestions,
        "memory-guard": test_memory_guard,
        "memory-released": test_memory_released,
        "memory-cgroup": test_memory_cgroup,
        "memory-held": test_memory_held,
    }))
