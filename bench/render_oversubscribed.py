#!/usr/bin/env python3
"""Renders docs/results/oversubscribed.md from the files that
bench/oversubscribed_wait wrote: per point, the median over rounds of each
configuration's median time, and the median of the ratios taken within a
round (the three configurations of a round ran back to back)."""
import bench_io  # docs/results' raw data, plain or gzip-compressed
from bench_io import open  # noqa: A004 (reads FILE or FILE.gz)
import json
import os
import re
import statistics
import sys


def fmt(s):
    return f"{s * 1e9:.0f} ns" if s < 1e-6 else f"{s * 1e6:.2f} us"


def main():
    d, np = sys.argv[1], sys.argv[2]
    runs = {}  # (round, config) -> {(method, bytes): record}
    context = None
    for path in sorted(bench_io.glob(os.path.join(d, "r*.json"))):
        m = re.match(r"r(\d+)_np\d+(?:_(poll|sleep|noyield))?\.json", os.path.basename(path))
        with open(path) as f:
            doc = json.load(f)
        config = m.group(2) or "np2"
        if config in ("poll", "sleep"):
            context = doc["context"]
        runs[(int(m.group(1)), config)] = {(r["method"], r["bytes"]): r for r in doc["records"]}
    rounds = sorted({r for r, _ in runs})
    failed = sum(1 for recs in runs.values() for r in recs.values()
                 if r["verification"]["status"] != "passed")

    def times(config, key):
        return {r: runs[(r, config)][key]["time_s"]["median"]
                for r in rounds if key in runs.get((r, config), {})}

    def ratio(a, b):
        return statistics.median(a[r] / b[r] for r in a if r in b)

    print("# Waiting on an oversubscribed node\n")
    print(f"`bench/oversubscribed_wait --np {np} --rounds {len(rounds)}`; "
          f"{context['cpus_per_node']} CPUs, {np} ranks (oversubscribed), "
          f"{context['mpi_library'].split(',')[0]}, {context['start_time'][:10]}. "
          f"Verification failures: {failed}.\n")
    print("Each figure is the median over rounds of a run's median per-operation "
          "time; a ratio is the median over rounds of the ratio of two runs of "
          "the same round (they ran back to back). `poll`: ranks waiting around "
          "a sample poll inside MPI, as every MPI benchmark does; `sleep`: they "
          "wait in an untimed sleeping barrier (`--wait sleep`, what `--wait "
          "auto` picks on an oversubscribed node).\n")
    print(f"## Ping-pong `mpi_bytes`, pair (0, 1): 2 ranks against {np} ranks\n")
    print(f"`sleep, no yield`: `--wait sleep` and Open MPI's `--mca "
          "mpi_yield_when_idle 0` (Open MPI makes ranks blocked in MPI yield "
          "the CPU between polls when a node is oversubscribed, the working "
          "pair included).\n")
    print(f"| size | 2 ranks | {np} ranks, poll | {np} ranks, sleep "
          f"| {np} ranks, sleep, no yield | poll / 2 ranks | sleep / 2 ranks "
          "| sleep, no yield / 2 ranks |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    sizes = sorted({b for recs in runs.values() for (m, b) in recs if m == "mpi_bytes"})
    for b in sizes:
        k = ("mpi_bytes", b)
        two, poll, sleep = times("np2", k), times("poll", k), times("sleep", k)
        quiet = times("noyield", k)
        print(f"| {b} B | {fmt(statistics.median(two.values()))} "
              f"| {fmt(statistics.median(poll.values()))} "
              f"| {fmt(statistics.median(sleep.values()))} "
              f"| {fmt(statistics.median(quiet.values()))} "
              f"| {ratio(poll, two):.2f} | {ratio(sleep, two):.2f} "
              f"| {ratio(quiet, two):.2f} |")
    print(f"\n## Every method at {np} ranks: sleep against poll\n")
    print("| suite/method | size | poll | sleep | sleep / poll, paired | "
          "sleep / poll, of the medians |")
    print("|---|---:|---:|---:|---:|---:|")
    keys = sorted({k for (r, c), recs in runs.items() if c == "poll" for k in recs})
    # Per round, the order of the configurations rotates; this VM's speed
    # state still changes within a round (see docs/results/pingpong.md).
    suites = {k: rec["suite"] for recs in runs.values() for k, rec in recs.items()}
    for k in keys:
        poll, sleep = times("poll", k), times("sleep", k)
        mp, ms = statistics.median(poll.values()), statistics.median(sleep.values())
        print(f"| {suites[k]}/{k[0]} | {k[1]} B | {fmt(mp)} | {fmt(ms)} "
              f"| {ratio(sleep, poll):.2f} | {ms / mp:.2f} |")


if __name__ == "__main__":
    main()
