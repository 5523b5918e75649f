#!/usr/bin/env python3
"""End-to-end tests of the runner against hostile or inconsistent input:
deeply nested files, a directory given as a file, preset ranges of --sizes,
the units of --sizes and their labels,
a --plugin-dir that repeats a directory already searched, a plugin that
reuses a built-in method's name, a --plugin-dir relative to the working
directory, ranks started with different options, and --log-level. Each
subcommand is one ctest test. Self-contained (its own small helpers), so
that it does not depend on e2e.py.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Fail, add_mpi_args, check, launch_prefix, parse_args, show, VERIFY  # noqa: E402
from e2e import env as base_env  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FAST = VERIFY




def env():
    e = base_env()
    e.pop("SPDLOG_LEVEL", None)
    return e


def runner(a, args, timeout=60):
    cmd = [a.runner] + args
    return show(cmd, subprocess.run(cmd, capture_output=True, text=True,
                                    timeout=timeout, env=env()))


def mpirun(a, contexts, timeout=120):
    """contexts: a list of (np, args); several make an MPMD command line."""
    cmd = launch_prefix(a)
    for i, (np, args) in enumerate(contexts):
        cmd += ([":"] if i else []) + ["-np", str(np), a.runner] + args
    return show(cmd, subprocess.run(cmd, capture_output=True, text=True,
                                    timeout=timeout, env=env()))


def out_path(a, name):
    path = os.path.join(a.workdir, name)
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)
    return path


def no_signal(p, what):
    check(p.returncode >= 0, f"{what}: killed by signal {-p.returncode}")


# ------------------------------------------------------------ documents


def record(method, samples, size=11000):
    s = sorted(samples)
    median = s[len(s) // 2]
    mean = sum(s) / len(s)
    return {
        "suite": "transfer", "method": method, "payload": "1d",
        "size_label": "small", "bytes": size, "payload_bytes": size,
        "ranks": 2, "inner_iterations": 100, "repetitions": len(samples),
        "warmup": 1, "statistic": "max_over_ranks_per_repetition",
        "time_s": {"min": s[0], "median": median, "mean": mean, "max": s[-1],
                   "stddev": 0.0, "cv": 0.0},
        "samples_s": {"max": samples, "min": samples, "avg": samples},
        "bandwidth_Bps": size / median,
        "verification": {"status": "passed", "message": ""},
        "plugin": {"file": f"/x/mpiarena_{method}.so", "abi": 1},
    }


def document(options):
    return {"schema_version": 1, "complete": True,
            "context": {"start_time": "2024-01-02T03:04:05Z", "hosts": ["node1"],
                        "ranks": 2, "nodes": 1, "mpi_library": "Open MPI v4.1.4",
                        "mpi_version": "3.1", "runner_version": "0.1.0",
                        "plugin_abi": 1, "command_line": ["runner"],
                        "options": options},
            "records": [record("bcast", [1e-6 * (1 + i / 100) for i in range(7)])],
            "skipped": []}


def write_nested(a, name, depth):
    """A valid document whose context.options.x holds `depth` nested arrays
    (written by hand: Python's json module recurses too)."""
    text = json.dumps(document({"x": "@DEEP@", "repetitions": 7}))
    text = text.replace('"@DEEP@"', "[" * depth + "]" * depth)
    path = out_path(a, name)
    with open(path, "w") as f:
        f.write(text)
    return path


# ------------------------------------------------------------ tests


def test_deep_nesting(a):
    plain = out_path(a, "plain.json")
    with open(plain, "w") as f:
        json.dump(document({"repetitions": 7}), f)
    # 100 levels (document, context, options and 97 arrays) is readable...
    ok = write_nested(a, "nested_100.json", 97)
    p = runner(a, ["validate", ok])
    check(p.returncode == 0, f"validate of 100 levels: exit {p.returncode}")
    p = runner(a, ["report", ok])
    check(p.returncode == 0, f"report of 100 levels: exit {p.returncode}")
    p = runner(a, ["compare", plain, ok])
    check(p.returncode == 0, f"compare with 100 levels: exit {p.returncode}")
    # ... one more, or 70 000, is refused alike by validate (1: invalid),
    # report and compare (2: bad input), never a crash.
    for depth in (98, 70000):
        deep = write_nested(a, f"nested_{depth}.json", depth)
        p = runner(a, ["validate", deep])
        no_signal(p, "validate")
        check(p.returncode == 1, f"validate of {depth} arrays: exit {p.returncode}")
        check("nested deeper than 100 levels" in p.stderr, "validate does not say why")
        for args in (["report", deep], ["report", deep, "--format", "json"],
                     ["report", deep, "--format", "gbench"],
                     ["compare", plain, deep], ["compare", deep, plain],
                     ["compare", deep, deep, "--format", "json"]):
            p = runner(a, args)
            no_signal(p, " ".join(args))
            check(p.returncode == 2, f"{args}: exit {p.returncode}, expected 2")
            check("runner: error:" in p.stderr and "nested deeper than 100 levels" in p.stderr,
                  f"{args}: no clear message")


def test_unreadable(a):
    plain = out_path(a, "plain_for_dir.json")
    with open(plain, "w") as f:
        json.dump(document({"repetitions": 7}), f)
    d = out_path(a, "a_directory")
    os.makedirs(d)
    for args in (["validate", d], ["validate", plain, d], ["report", d],
                 ["compare", d, plain], ["compare", plain, d]):
        p = runner(a, args)
        check(p.returncode == 2, f"{args}: exit {p.returncode}, expected 2 (cannot read)")
        check(f"cannot read '{d}': it is a directory" in p.stderr, f"{args}: message")
    p = runner(a, ["validate", "/nonexistent.json"])
    check(p.returncode == 2, "validate of a missing file must exit 2")


def sizes_of(a, args):
    p = runner(a, ["sizes"] + args)
    check(p.returncode == 0, f"sizes {args}: exit {p.returncode}")
    return [line.split("\t")[1] for line in p.stdout.splitlines()]


def test_preset_ranges(a):
    five = ["small", "medium", "large", "xlarge", "xxlarge"]
    check(sizes_of(a, ["--sizes", "small..xxlarge"]) == five, "small..xxlarge")
    check(sizes_of(a, []) == five, "the default is small..xxlarge")
    check(sizes_of(a, ["--sizes", "medium..large,1KiB"]) == ["1 KiB", "medium", "large"],
          "a preset range in a list")
    # The default the README states is accepted, and --help shows it.
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    row = [l for l in readme.splitlines() if l.startswith("| `-s, --sizes`")]
    check(len(row) == 1, "README has no --sizes row")
    default = re.findall(r"`([^`]*)`", row[0].rsplit("|", 2)[1])
    # The runner's default, then the overlap suite's (seed 002's ladder).
    check(default == ["small..xxlarge", "64KiB..16MiB", "8B..4MiB"],
          f"README's --sizes default: {default}")
    check(sizes_of(a, ["--sizes", default[0]]) == five, "README's default")
    check(len(sizes_of(a, ["--sizes", default[1]])) == 9, "the overlap default")
    p = runner(a, ["--help"])
    flat = " ".join(p.stdout.split())
    check("(=small..xxlarge)" in flat and "preset ranges" in flat,
          "--help does not show the preset range default")
    for spec, why in (("xxlarge..small", "starts above its end"),
                      ("small..4MiB", "mixes a preset and a byte value"),
                      ("small..huge", "'huge' is neither a preset name nor a byte value")):
        p = runner(a, ["sizes", "--sizes", spec])
        check(p.returncode == 2 and why in p.stderr and "small..xxlarge" in p.stderr,
              f"--sizes {spec}: exit {p.returncode}, message lacks '{why}' or the syntax")


def test_unit_labels(a):
    """A size keeps the unit system it was given in; OSU's A:B ranges;
    an unknown unit is refused with the one meant."""
    p = runner(a, ["sizes", "--sizes", "1:16,1MiB,1MB,4096"])
    got = [tuple(line.split("\t")) for line in p.stdout.splitlines()]
    want = [("1", "1 B"), ("2", "2 B"), ("4", "4 B"), ("8", "8 B"), ("16", "16 B"),
            ("4096", "4096"), ("1000000", "1 MB"), ("1048576", "1 MiB")]
    check(p.returncode == 0 and got == want, f"sizes printed {got}, expected {want}")
    p = runner(a, ["sizes", "--sizes", "osu-coll"])
    got = [line.split("\t")[1] for line in p.stdout.splitlines()]
    check(len(got) == 21 and got[0] == "1 B" and got[-1] == "1 MiB", f"osu-coll: {got}")
    for spec, hint in (("4Kb", "did you mean 'kB' or 'KiB'?"),
                       ("1mib", "did you mean 'MiB'?"),
                       ("2XB", "'MB' or 'GB'?")):
        p = runner(a, ["sizes", "--sizes", spec])
        check(p.returncode == 2 and hint in p.stderr and "powers of 1024" in p.stderr,
              f"--sizes {spec}: exit {p.returncode}, message lacks '{hint}': {p.stderr}")
    p = runner(a, ["--help"])
    flat = " ".join(p.stdout.split())
    check("1MB = 10^6 bytes, 1MiB = 2^20" in flat and "A:B" in flat,
          "--help does not tell 1MB from 1MiB or show OSU's ranges")


def builtin_plugins(a):
    d = os.path.join(os.path.dirname(a.runner), "lib", "mpiarena", "plugins")
    check(os.path.isdir(d), f"no built-in plugin directory {d}")
    return d


def test_plugin_dir_twice(a):
    d = builtin_plugins(a)
    for args in (["--plugin-dir", d], ["--plugin-dir", d + "/", "--plugin-dir", d],
                 ["--plugin-dir", os.path.join(d, "..", "plugins")]):
        p = runner(a, ["--list"] + args)
        check(p.returncode == 0, f"--list {args}: exit {p.returncode}")
        check(p.stderr.strip() == "", f"--list {args}: warned: {p.stderr!r}")
    # A run too (the same loader), on every rank.
    p = mpirun(a, [(2, ["--plugin-dir", d, "-m", "null", "--sizes", "1B", "-q"] + FAST)])
    check(p.returncode == 0, f"run with --plugin-dir of the built-ins: exit {p.returncode}")
    check("warn" not in p.stderr, f"run warned: {p.stderr!r}")
    # A copy of some plugins in another directory: one line, not one per plugin.
    copy = out_path(a, "plugin_copy")
    os.makedirs(copy)
    names = sorted(f for f in os.listdir(d) if f.endswith(".so"))[:4]
    for f in names:
        shutil.copy(os.path.join(d, f), copy)
    p = runner(a, ["--list", "--plugin-dir", copy])
    check(p.returncode == 0, "--list with a copy")
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    check(len(lines) == 1 and f"{len(names)} plugins in '{copy}'" in lines[0]
          and "already" in lines[0], f"copy: expected one warning line, got {lines}")


def shadow_files(a):
    """(the test plugin that declares "null" again, the built-in null),
    both canonical."""
    shadow = os.path.join(os.path.dirname(a.test_plugins), "plugins_shadow")
    theirs = os.path.realpath(os.path.join(shadow, "mpiarena_shadow_null.so"))
    check(os.path.isfile(theirs), f"no test plugin {theirs}")
    p = runner(a, ["--help-method", "null"])
    ours = [l.split(" ", 3)[3] for l in p.stdout.splitlines() if l.startswith("  plugin ")]
    check(p.returncode == 0 and len(ours) == 1, f"--help-method null: {p.stdout!r}")
    return shadow, theirs, ours[0]


def test_plugin_shadowed(a):
    # A plugin that reuses a built-in method's name: the built-in runs, and
    # the warning, --list and --help-method say which file is which.
    shadow, theirs, ours = shadow_files(a)
    p = runner(a, ["--list", "--plugin-dir", shadow])
    check(p.returncode == 0, f"--list: exit {p.returncode}")
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    check(len(lines) == 1 and theirs in lines[0] and ours in lines[0]
          and f"-m null runs the one of '{ours}'" in lines[0],
          f"the warning does not name both files and the one -m runs: {lines}")
    rows = [l for l in p.stdout.splitlines() if l.startswith("null ")]
    check(len(rows) == 1, f"--list: {len(rows)} rows of null")
    shown = p.stdout.split("\nnot loaded, a method of the same name", 1)
    check(len(shown) == 2 and f"  null  {theirs}  (runs: {ours})" in shown[1],
          f"--list does not show the duplicate: {p.stdout[-600:]!r}")
    p = runner(a, ["--help-method", "null", "--plugin-dir", shadow])
    check(p.returncode == 0 and f"  plugin {ours}\n" in p.stdout
          and f"  also in {theirs} (not loaded" in p.stdout,
          f"--help-method null: {p.stdout!r}")
    # Without a duplicate, no such section.
    p = runner(a, ["--list"])
    check("not loaded" not in p.stdout, "--list without duplicates lists one")
    out = out_path(a, "shadowed.json")
    p = mpirun(a, [(2, ["-m", "null", "--sizes", "1B", "-q", "-o", out,
                        "--plugin-dir", shadow] + FAST)])
    check(p.returncode == 0, f"run: exit {p.returncode}")
    check(f"-m null runs the one of '{ours}'" in p.stderr, f"run: {p.stderr!r}")
    recs = json.load(open(out))["records"]
    files = {r["plugin"]["file"] for r in recs}
    check(recs and files == {ours}, f"the records measured {files}, not {ours}")


def test_plugin_path_absolute(a):
    # --plugin-dir given relative to the working directory: the records, and
    # --help-method, name the plugin file by its canonical path.
    cwd = out_path(a, "relative_cwd")
    os.makedirs(cwd)
    rel = os.path.relpath(a.test_plugins, cwd) + "/"
    want = os.path.realpath(os.path.join(a.test_plugins, "mpiarena_test_ok.so"))
    check(not rel.startswith("/"), rel)
    cmd = [a.runner, "--help-method", "test_ok", "--plugin-dir", rel]
    p = show(cmd, subprocess.run(cmd, capture_output=True, text=True, cwd=cwd,
                                 timeout=60, env=env()))
    check(p.returncode == 0 and f"  plugin {want}\n" in p.stdout,
          f"--help-method with --plugin-dir {rel}: {p.stdout!r}")
    cmd = launch_prefix(a) + ["-np", "2", a.runner, "-m", "test_ok", "--sizes", "4KiB",
                              "-q", "-o", "r.json", "--plugin-dir", rel] + FAST
    p = show(cmd, subprocess.run(cmd, capture_output=True, text=True, cwd=cwd,
                                 timeout=120, env=env()))
    check(p.returncode == 0, f"run from {cwd}: exit {p.returncode}")
    recs = json.load(open(os.path.join(cwd, "r.json")))["records"]
    files = {r["plugin"]["file"] for r in recs}
    check(recs and files == {want}, f"records name {files}, not {want}")


def test_options_mismatch(a):
    base = ["-m", "null", "--min-time", "0.001", "-r", "3"]
    start = time.time()
    p = mpirun(a, [(1, base + ["--sizes", "1KiB"]), (1, base + ["--sizes", "2KiB"])],
               timeout=90)
    elapsed = time.time() - start
    check(p.returncode == 2, f"MPMD with other --sizes: exit {p.returncode}, expected 2")
    check(elapsed < 60, f"took {elapsed:.0f} s")
    check(p.stderr.count("runner: error:") == 1,
          f"expected one error message, got {p.stderr.count('runner: error:')}")
    for needle in ("rank 1 was started with other options than rank 0",
                   "--sizes '2048' on rank 1, '1024' on rank 0"):
        check(needle in p.stderr, f"message lacks '{needle}'")
    # Two options differ: both named.
    base5 = ["-m", "null", "--min-time", "0.001", "-r", "5"]
    p = mpirun(a, [(1, base + ["--sizes", "1KiB"]),
                   (2, base5 + ["--sizes", "1KiB", "--pairs", "all"])],
               timeout=90)
    check(p.returncode == 2 and p.stderr.count("runner: error:") == 1,
          f"3 ranks, rank 1 and 2 differ: exit {p.returncode}")
    check("--pairs 'all' on rank 1, 'one' on rank 0" in p.stderr and
          "--repetitions '5' on rank 1, '3' on rank 0" in p.stderr, "both options named")
    # A command line that does not parse on one rank only (here -r twice),
    # or another command on one rank: exit 2 with one message, no hang.
    for other in (base + ["--sizes", "1KiB", "-r", "5"], ["--version"],
                  ["sizes", "--sizes", "1KiB"]):
        start = time.time()
        p = mpirun(a, [(2, base + ["--sizes", "1KiB"]), (1, other)], timeout=90)
        check(p.returncode == 2 and p.stderr.count("runner: error:") == 1,
              f"rank 2 with {other}: exit {p.returncode}, "
              f"{p.stderr.count('runner: error:')} messages")
        check("rank 2" in p.stderr, f"rank 2 with {other}: the rank is not named")
        check(time.time() - start < 60, f"rank 2 with {other}: too slow")
    # What only rank 0 does, and how much a rank logs, may differ.
    out = out_path(a, "mismatch_ok.json")
    p = mpirun(a, [(1, base + ["--sizes", "1KiB", "-o", out, "--format", "csv"]),
                   (1, base + ["--sizes", "1024", "--log-level", "error"])])
    check(p.returncode == 0, f"same points, other output and logging: exit {p.returncode}")
    check(os.path.exists(out), "rank 0's output not written")


def test_log_level(a):
    p = runner(a, ["--help"])
    flat = " ".join(p.stdout.split())
    check("--log-level" in flat and "trace, debug, info, warn, error or off" in flat,
          "--help does not document --log-level")
    p = runner(a, ["--log-level", "loud"])
    check(p.returncode == 2 and "--log-level 'loud'" in p.stderr and
          "trace, debug, info, warn, error, off" in p.stderr, "a bad level")
    p = runner(a, ["-q", "--log-level", "debug"])
    check(p.returncode == 2 and "--quiet is --log-level warn" in p.stderr, "-q with --log-level")
    run = ["-m", "null", "--sizes", "1B,2B"] + FAST
    p = mpirun(a, [(2, run)])
    check(p.returncode == 0 and "[rank0] [info]" in p.stderr and "[rank1]" not in p.stderr,
          "by default rank 0 logs progress, the others warnings only")
    for quiet in (["--log-level", "warn"], ["-q"], ["--log-level", "off"]):
        p = mpirun(a, [(2, run + quiet)])
        check(p.returncode == 0 and "[info]" not in p.stderr, f"{quiet}: progress printed")
    p = mpirun(a, [(2, run + ["--log-level", "debug"])])
    check(p.returncode == 0 and "[rank0] [info]" in p.stderr and "[rank1] [info]" in p.stderr,
          "--log-level debug: every rank logs")
    # --list: the plugin loader's debug lines (a library that is no plugin).
    p = runner(a, ["--list", "--plugin-dir", a.test_plugins, "--log-level", "debug"])
    check(p.returncode == 0 and "is not an mpiarena plugin" in p.stderr
          and "is not an mpiarena plugin" not in p.stdout, "--list --log-level debug")
    p = runner(a, ["--list", "--plugin-dir", a.test_plugins])
    check("is not an mpiarena plugin" not in p.stderr + p.stdout, "debug lines by default")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--test-plugins", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    tests = {
        "deep-nesting": test_deep_nesting,
        "unreadable": test_unreadable,
        "preset-ranges": test_preset_ranges,
        "unit-labels": test_unit_labels,
        "plugin-dir-twice": test_plugin_dir_twice,
        "options-mismatch": test_options_mismatch,
        "log-level": test_log_level,
        "plugin-shadowed": test_plugin_shadowed,
        "plugin-path-absolute": test_plugin_path_absolute,
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
