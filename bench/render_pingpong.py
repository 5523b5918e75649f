#!/usr/bin/env python3
"""Renders the head of docs/results/pingpong.md from the files that
bench/pingpong_vs_netpipe wrote: the ratio of mpiarena's mpi_bytes one-way
time to NetPIPE's per size, latency and peak bandwidth of both, and the
seed-001 factor boost_serialized / boost_bytes."""
import json
import os
import sys


def netpipe(path):
    """{bytes: one-way seconds} from a NetPIPE -o file (bytes, Mbps, s)."""
    out = {}
    with open(path) as f:
        for line in f:
            cols = line.split()
            if len(cols) >= 3:
                out[int(cols[0])] = float(cols[2])
    return out


def records(path):
    with open(path) as f:
        doc = json.load(f)
    return doc, {(r["method"], r["bytes"]): r for r in doc["records"]}


def us(s):
    return f"{s * 1e6:.2f} us"


def gbps(bps):
    return f"{bps / 1e9:.2f} GB/s"


def main():
    d = sys.argv[1]
    npa, npb = netpipe(os.path.join(d, "netpipe_a.np")), netpipe(os.path.join(d, "netpipe_b.np"))
    doc, recs = records(os.path.join(d, "mpi_bytes_np2.json"))
    ctx = doc["context"]
    print("# Ping-pong: mpiarena against NetPIPE, and the seed-001 variants\n")
    print("Produced by `bench/pingpong_vs_netpipe` on "
          f"{', '.join(ctx['hosts'])}, {ctx['ranks']} ranks, {ctx['mpi_library'][:40]}, "
          f"{ctx['start_time']}. NetPIPE (NPopenmpi, `-l 1 -u 4194304`, perturbation "
          "3 B) ran before and after mpiarena's `mpi_bytes` on the same ladder "
          "(`--sizes netpipe:1B..4MiB`). NetPIPE reports the best of its trials "
          "of the one-way time (round trip / 2); mpiarena reports the median "
          "over repetitions of the slowest rank's one-way time, and its minimum. "
          "Ratio = mpiarena / NetPIPE (mean of the two NetPIPE runs).\n")
    rows, within, total, worst = [], 0, 0, (0, 1.0)
    for b in sorted(npa):
        r = recs.get(("mpi_bytes", b))
        if r is None or b not in npb or b > 4 * 1024 * 1024:
            continue
        ref = (npa[b] + npb[b]) / 2
        med, mn = r["time_s"]["median"], r["time_s"]["min"]
        ratio = med / ref
        total += 1
        within += abs(ratio - 1) <= 0.05
        if abs(ratio - 1) > abs(worst[1] - 1):
            worst = (b, ratio)
        rows.append(f"| {b} | {us(npa[b])} | {us(npb[b])} | {us(med)} | {us(mn)} | "
                    f"{ratio:.3f} | {mn / ref:.3f} |")
    verdict = "met" if within == total else "NOT met"
    faster = [b for b in sorted(npa) if ("mpi_bytes", b) in recs and b in npb and
              recs[("mpi_bytes", b)]["time_s"]["median"] < 0.95 * (npa[b] + npb[b]) / 2]
    slower = [b for b in sorted(npa) if ("mpi_bytes", b) in recs and b in npb and
              recs[("mpi_bytes", b)]["time_s"]["median"] > 1.05 * (npa[b] + npb[b]) / 2]
    print(f"**{within} of {total} sizes within ±5%** (median / NetPIPE); worst "
          f"{worst[1]:.3f} at {worst[0]} B. The goal (every size within ±5%) is "
          f"**{verdict}** in this run: mpiarena is more than 5% faster at "
          f"{len(faster)} sizes and more than 5% slower at {len(slower)}.\n")
    peak_np = max(b / t for b, t in npa.items() if t > 0)
    peak_ma = max(r["payload_bytes"] / r["time_s"]["median"]
                  for (m, b), r in recs.items() if r["time_s"]["median"] > 0)
    lat_np = npa[min(npa)]
    lat_ma = recs[("mpi_bytes", min(b for m, b in recs))]["time_s"]["median"]
    fit = [f for f in doc["summary"].get("fits", []) if f["method"] == "mpi_bytes"]
    print("| | NetPIPE | mpiarena mpi_bytes |\n|---|---:|---:|")
    print(f"| latency (1 B one-way) | {us(lat_np)} | {us(lat_ma)} |")
    print(f"| peak bandwidth | {gbps(peak_np)} | {gbps(peak_ma)} |")
    if fit:
        f = fit[0]
        bw = "-" if f["bandwidth_Bps"] is None else gbps(f["bandwidth_Bps"])
        print(f"| fit L + n/B (mpiarena) | | L = {us(f['latency_s'])}, B = {bw}, "
              f"R² = {f['r2']:.4f} |")
    print("\n| bytes | NetPIPE run 1 | NetPIPE run 2 | mpiarena median | mpiarena min | "
          "median / NetPIPE | min / NetPIPE |\n|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))

    sdoc, srec = records(os.path.join(d, "seed001_np2.json"))
    print("\n## Seed 001: boost_serialized against boost_bytes\n")
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
