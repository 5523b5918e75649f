#!/usr/bin/env python3
"""Renders the head of docs/results/pingpong.md from the files that
bench/pingpong_vs_netpipe wrote: per size, the paired ratios of mpiarena's
mpi_bytes one-way time to NetPIPE's (paired.jsonl), latency and peak
bandwidth of both, the fit, and the seed-001 factor boost_serialized /
boost_bytes."""
import bench_io  # docs/results' raw data, plain or gzip-compressed
from bench_io import open  # noqa: A004 (reads FILE or FILE.gz)
import json
import os
import statistics
import sys


def records(path):
    with open(path) as f:
        doc = json.load(f)
    return doc, {(r["method"], r["bytes"]): r for r in doc["records"]}


def us(s):
    return f"{s * 1e6:.2f} us"


def gbps(bps):
    return f"{bps / 1e9:.2f} GB/s"


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def main():
    d = sys.argv[1]
    pairs = {}
    with open(os.path.join(d, "paired.jsonl")) as f:
        for line in f:
            if line.strip():
                p = json.loads(line)
                pairs.setdefault(p["bytes"], []).append(p)
    doc, recs = records(os.path.join(d, "mpi_bytes_np2.json"))
    ctx = doc["context"]
    rounds = max(len(v) for v in pairs.values())
    print("# Ping-pong: mpiarena against NetPIPE, and Boost.MPI's NetPIPE variants\n")
    print("Produced by `bench/pingpong_vs_netpipe` on "
          f"{', '.join(ctx['hosts'])}, {ctx['ranks']} ranks, {ctx['mpi_library']}, "
          f"{ctx['start_time']}.\n")
    print("How: for each of "
          f"{rounds} rounds and each size of NetPIPE's perturbed ladder, NetPIPE "
          "(NPopenmpi `-l n -u n -p 0`) ran twice and mpiarena (`--methods mpi_bytes "
          "--sizes n -r 3 --min-time 0.05`) once, at that size alone, back to back "
          "on the same 2 ranks (NetPIPE, NetPIPE, mpiarena in odd rounds; mpiarena, "
          "NetPIPE, NetPIPE in even ones). Both report the one-way time (round trip "
          "/ 2), best of 3 trials (mpiarena: the minimum over its 3 repetitions), "
          "with one 16 KiB-aligned buffer per rank that the pong is received into "
          "(NetPIPE's default mode). Paired ratio = mpiarena / the NetPIPE run next "
          "to it; the verdict per size is the median of its paired ratios over the "
          "rounds. **Control**: the same statistic for the two adjacent NetPIPE runs "
          "(second / first), i.e. how well NetPIPE reproduces itself on this machine. "
          "Every mpiarena run verified the data moved.\n")
    rows, within, total, worst, outside, spreads = [], 0, 0, (0, 1.0), [], []
    failed, ctrl_within, best_within = 0, 0, 0
    all_test, all_ctrl = [], []
    bands = [(1, 4096), (4096, 65536), (65536, 1 << 20), (1 << 20, 1 << 23)]
    band_test = {b: [] for b in bands}
    band_ctrl = {b: [] for b in bands}
    for b in sorted(pairs):
        ps = pairs[b]
        ratios = [p["mpiarena_min_s"] / p["netpipe_s"] for p in ps if p["netpipe_s"] > 0]
        ctrl = [p["netpipe_control_s"] / p["netpipe_s"] for p in ps if p["netpipe_s"] > 0]
        if not ratios:
            continue
        failed += sum(p["verification"] != "passed" for p in ps)
        nps = [p["netpipe_s"] for p in ps] + [p["netpipe_control_s"] for p in ps]
        mas = [p["mpiarena_min_s"] for p in ps]
        all_test += ratios
        all_ctrl += ctrl
        for lo, hi in bands:
            if lo <= b < hi:
                band_test[(lo, hi)] += ratios
                band_ctrl[(lo, hi)] += ctrl
        ratio, cratio = median(ratios), median(ctrl)
        best = min(mas) / min(nps)
        total += 1
        ok = abs(ratio - 1) <= 0.05
        within += ok
        ctrl_within += abs(cratio - 1) <= 0.05
        best_within += abs(best - 1) <= 0.05
        if not ok:
            outside.append(f"{b} B ({ratio:.3f})")
        if abs(ratio - 1) > abs(worst[1] - 1):
            worst = (b, ratio)
        spreads.append(max(nps) / min(nps))
        rows.append(f"| {b} | {us(median(nps))} | {us(median(mas))} | "
                    + " ".join(f"{x:.2f}" for x in ratios)
                    + f" | **{ratio:.3f}**{'' if ok else ' ✗'} | {cratio:.3f} | {best:.3f} | "
                    f"{max(nps) / min(nps):.2f} |")
    verdict = "met" if within == total else "NOT met"
    print(f"**{within} of {total} sizes within ±5%** (median paired ratio); worst "
          f"{worst[1]:.3f} at {worst[0]} B. The goal (every size from 1 B to 4 MiB "
          f"within ±5%) is **{verdict}** in this run. "
          f"Control: NetPIPE against itself is within ±5% at **{ctrl_within} of "
          f"{total}** sizes by the same statistic. Best over all rounds against best "
          f"(mpiarena / NetPIPE): {best_within} of {total} within ±5%. Verification "
          f"failures in the paired runs: {failed}.\n")

    def within5(xs):
        return f"{100 * sum(abs(x - 1) <= 0.05 for x in xs) / len(xs):.0f}%"

    print(f"Pooled over all sizes, the median paired ratio is {median(all_test):.3f} "
          f"(control: {median(all_ctrl):.3f}); a single mpiarena/NetPIPE pair agrees "
          f"within ±5% in {within5(all_test)} of cases, two adjacent NetPIPE runs in "
          f"{within5(all_ctrl)}. By size band:\n")
    print("| sizes | pairs | mpiarena / NetPIPE: median, IQR | pairs within ±5% | "
          "control NetPIPE / NetPIPE: median, IQR | control pairs within ±5% |\n"
          "|---|---:|---|---:|---|---:|")
    for (lo, hi) in bands + [(1, 1 << 23)]:
        t = all_test if (lo, hi) == (1, 1 << 23) else band_test[(lo, hi)]
        c = all_ctrl if (lo, hi) == (1, 1 << 23) else band_ctrl[(lo, hi)]
        if not t:
            continue
        name = "all" if (lo, hi) == (1, 1 << 23) else f"{lo} B .. <{hi} B"
        qt, qc = statistics.quantiles(t, n=4), statistics.quantiles(c, n=4)
        print(f"| {name} | {len(t)} | {median(t):.3f}, {qt[0]:.2f}-{qt[2]:.2f} | "
              f"{within5(t)} | {median(c):.3f}, {qc[0]:.2f}-{qc[2]:.2f} | {within5(c)} |")
    print()
    if outside:
        print(f"Outside ±5%: {', '.join(outside)}.\n")
    print("Why pairing is needed on this machine: NetPIPE's own best-of-3 time for "
          "one size differs between its runs by a factor of "
          f"{median(spreads):.2f} at the median size and up to {max(spreads):.2f} "
          "(column *NetPIPE spread*, over all its runs of that size). The node's "
          "speed changes for a fraction of a second to minutes at a time "
          "([methodology](../methodology.md)), so two ladders run one after the other "
          "compare different machines.\n")
    lat = pairs[min(pairs)]
    peak_np = max(b / median([p["netpipe_s"] for p in ps]) for b, ps in pairs.items())
    peak_ma = max(b / median([p["mpiarena_min_s"] for p in ps]) for b, ps in pairs.items())
    fit = [f for f in doc["summary"].get("fits", []) if f["method"] == "mpi_bytes"]
    print("| | NetPIPE | mpiarena mpi_bytes |\n|---|---:|---:|")
    print(f"| latency ({min(pairs)} B one-way, median over rounds) | "
          f"{us(median([p['netpipe_s'] for p in lat]))} | "
          f"{us(median([p['mpiarena_min_s'] for p in lat]))} |")
    print(f"| peak bandwidth (median over rounds) | {gbps(peak_np)} | {gbps(peak_ma)} |")
    for f in fit:  # a line per range where the model holds (two at a switch)
        bw = "-" if f["bandwidth_Bps"] is None else gbps(f["bandwidth_Bps"])
        print(f"| fit L + n/B (mpiarena, one whole-ladder run, {f['min_bytes']:.0f} to "
              f"{f['max_bytes']:.0f} B) | | L = {us(f['latency_s'])}, "
              f"B = {bw}, R² = {f['r2']:.4f} |")
    print("\n| bytes | NetPIPE (median of runs) | mpiarena (median of rounds) | "
          "paired ratios by round | median ratio | control | best / best | "
          "NetPIPE spread |\n|---:|---:|---:|---|---:|---:|---:|---:|")
    print("\n".join(rows))

    sdoc, srec = records(os.path.join(d, "seed001_np2.json"))
    print("\n## Boost.MPI's evaluation: boost_serialized against boost_bytes\n")
    top = max(b for m, b in srec)
    if ("boost_bytes", top) in srec and ("boost_serialized", top) in srec:
        f = (srec[("boost_serialized", top)]["time_s"]["median"] /
             srec[("boost_bytes", top)]["time_s"]["median"])
        print(f"At {top} B, boost_serialized (one serialization call per byte) "
              f"takes **{f:.1f}x** the time of boost_bytes.\n")
    print("| bytes | boost_bytes | boost_serialized | factor |\n|---:|---:|---:|---:|")
    for b in sorted({b for m, b in srec}):
        a, s = srec.get(("boost_bytes", b)), srec.get(("boost_serialized", b))
        if a and s and a["time_s"]["median"] > 0:
            print(f"| {b} | {us(a['time_s']['median'])} | {us(s['time_s']['median'])} | "
                  f"{s['time_s']['median'] / a['time_s']['median']:.1f} |")


if __name__ == "__main__":
    main()
