#!/usr/bin/env python3
"""The ping-pong suite's buffer options end to end (issue 16).

    e2e_pingpong.py options --np N   every ping-pong method (pingpong and
        send modes) verified at N ranks with --cache cold (separate
        buffers, the default), with --buffers shared, and with both under
        --pairs all; records and context say which; a fan-in method beside
        them runs hot and says so; bad values of --cache and --buffers exit
        2 with one message.

What the buffers are (addresses, a send buffer never written, the rotation
over more than the last-level cache) is tested on the base class itself in
tests/test_engine_mpi.cpp and tests/test_pingpong_buffers.cpp.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import (add_mpi_args, check, expect_usage_error,  # noqa: E402
                 known_skip, parse_args, run_np, run_test, runner)

# The methods built whatever the build's MPI (the Boost.MPI ones too when
# it has them: every method --list shows in the pingpong suite is run).
CORE_METHODS = ["mpi_bytes", "mpi_datatype", "pingpong_ssend", "pingpong_bsend",
                "pingpong_isend", "pingpong_rsend"]
SIZES = [0, 1000, 65536]
# The last-level cache the runs read (the runner's test hook
# MPIARENA_TEST_LLC_BYTES): the cold set is twice it per method and rank, so
# a host's own (300 MiB here) would make every run touch gigabytes.
TEST_LLC = 4 << 20


def pingpong_methods(a):
    p = runner(a, ["--list"])
    check(p.returncode == 0, "--list failed")
    methods = [f[0] for f in (line.split() for line in p.stdout.splitlines()[1:])
               if len(f) >= 2 and f[1] == "pingpong"]
    for m in CORE_METHODS:
        check(m in methods, f"--list lacks the ping-pong method {m}")
    return methods


def run(a, tag, args, methods, sizes, cache, buffers, pairs=1, extra=()):
    """Runs the ping-pong suite (and `extra` methods) with `args`; checks
    that every ping-pong method was verified at every size and that records
    and context say `cache` and `buffers`. Returns the document."""
    out = os.path.join(a.workdir, f"pingpong_{tag}_np{a.np}.json")
    sel = ",".join(["pingpong"] + list(extra))
    p = run_np(a, ["-m", sel, "--sizes", ",".join(map(str, sizes))] + args, out,
               extra_env={"MPIARENA_TEST_LLC_BYTES": str(TEST_LLC)})
    check(p.returncode == 0, f"{tag}: runner exited {p.returncode}")
    with open(out) as f:
        doc = json.load(f)
    skipped = set()
    for s in doc["skipped"]:
        check(known_skip(a, s), f"{tag}: unexpected skip: {s}")
        skipped.add((s["method"], s["bytes"]))
    ctx = doc["context"]
    check(ctx["cache"]["mode"] == cache, f"{tag}: context cache {ctx['cache']}")
    check(ctx["buffers"] == buffers, f"{tag}: context buffers {ctx['buffers']}")
    got = {(r["method"], r["bytes"]): r for r in doc["records"]}
    for m in methods:
        for b in sizes:
            r = got.get((m, b))
            if (m, b) in skipped:
                continue
            check(r is not None, f"{tag}: no record for {m} at {b} B")
            check(r["verification"]["status"] == "passed",
                  f"{tag}: {m} {b} B: {r['verification']}")
            check(r.get("cache") == cache, f"{tag}: {m} {b} B: cache {r.get('cache')}")
            check(r.get("buffers") == buffers,
                  f"{tag}: {m} {b} B: buffers {r.get('buffers')}")
            check(r["pairs"] == pairs, f"{tag}: {m}: pairs {r['pairs']}, expected {pairs}")
    return doc


def test_options(a):
    methods = pingpong_methods(a)
    # --cache cold, separate buffers (the default); the fan-in method
    # `send` beside them runs hot whatever --cache says, and says so.
    doc = run(a, "cold", ["--cache", "cold"], methods, SIZES, "cold", "separate",
              extra=["send"])
    cache = doc["context"]["cache"]
    check(cache["cold_set_bytes"] > cache["llc_bytes"],
          f"the cold set must exceed the last-level cache: {cache}")
    check(cache["llc_bytes"] == TEST_LLC and cache["llc_source"] == "MPIARENA_TEST_LLC_BYTES",
          f"the test's last-level cache: {cache}")
    check(cache["cold_set_bytes"] == 2 * cache["llc_bytes"], f"cold set: {cache}")
    fanin = [r for r in doc["records"] if r["method"] == "send"]
    check(len(fanin) == len(SIZES), f"no fan-in records: {len(fanin)}")
    for r in fanin:
        check(r["verification"]["status"] == "passed", f"send: {r['verification']}")
        check(r.get("cache") == "hot" and "buffers" not in r,
              f"a fan-in record must say hot and no buffers: {r.get('cache')}, "
              f"{r.get('buffers')}")
    # NetPIPE's scheme, hot.
    run(a, "shared", ["--buffers", "shared"], methods, SIZES, "hot", "shared")
    # Both, on every disjoint pair at once.
    run(a, "shared_cold_pairs",
        ["--buffers", "shared", "--cache", "cold", "--pairs", "all"],
        methods, [1000, 65536], "cold", "shared", pairs=a.np // 2)
    # Bad values: exit 2, one message naming the value and what is accepted.
    expect_usage_error(a, ["-m", "pingpong", "--buffers", "foo"],
                       ["--buffers 'foo'", "accepted: separate, shared"])
    expect_usage_error(a, ["-m", "pingpong", "--cache", "warm"],
                       ["--cache 'warm'", "accepted: hot, cold"])


def main():
    ap = argparse.ArgumentParser()
    tests = {"options": test_options}
    ap.add_argument("test", choices=sorted(tests))
    ap.add_argument("--np", type=int, default=2)
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    return run_test(tests[a.test], a)


if __name__ == "__main__":
    sys.exit(main())
