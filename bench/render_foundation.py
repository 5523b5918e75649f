#!/usr/bin/env python3
"""Renders docs/results/foundation.md from the JSON written by bench/foundation."""
import bench_io  # docs/results' raw data, plain or gzip-compressed
from bench_io import open  # noqa: A004 (reads FILE or FILE.gz)
import json
import os
import sys

d = sys.argv[1]


def load(name):
    with open(os.path.join(d, name)) as f:
        return json.load(f)


def us(s):
    if s < 1e-3:
        return f"{s * 1e6:.2f} µs"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.3f} s"


def gbs(r):
    return "-" if r["bandwidth_Bps"] is None else f"{r['bandwidth_Bps'] / 1e9:.2f}"


def table(doc, suite="transfer"):
    groups = {}
    for r in doc["records"]:
        if r["suite"] == suite:
            groups.setdefault((r["payload"], r["bytes"], r["size_label"]), []).append(r)
    lines = []
    for (payload, _, label), recs in sorted(groups.items()):
        recs.sort(key=lambda r: r["time_s"]["median"])
        best = recs[0]["time_s"]["median"]
        lines.append(f"\n**{payload}, {label} ({recs[0]['payload_bytes']:,} B)**\n")
        lines.append("| # | method | median | min | GB/s | CV | × best | iters × reps | verified |")
        lines.append("|---|---|---:|---:|---:|---:|---:|---:|---|")
        for i, r in enumerate(recs, 1):
            t = r["time_s"]
            lines.append(
                f"| {i} | {r['method']} | {us(t['median'])} | {us(t['min'])} | {gbs(r)} | "
                f"{t['cv'] * 100:.1f}% | {t['median'] / best:.2f} | "
                f"{r['inner_iterations']} × {r['repetitions']} | {r['verification']['status']} |")
    return "\n".join(lines)


def winners(doc):
    out = []
    groups = {}
    for r in doc["records"]:
        if r["suite"] == "transfer":
            groups.setdefault((r["payload"], r["bytes"], r["size_label"]), []).append(r)
    for (payload, _, label), recs in sorted(groups.items()):
        best = min(recs, key=lambda r: r["time_s"]["median"])
        out.append(f"| {payload} | {label} | {best['method']} | {us(best['time_s']['median'])} |")
    return "\n".join(out)


default = load("default_np2.json")
np2, np4, head = load("transfer_np2.json"), load("transfer_np4.json"), load("headline_np4.json")
wall = open(os.path.join(d, "default_np2.wall_s")).read().strip()
head_wall = open(os.path.join(d, "headline_np4.wall_s")).read().strip()
null = [r for r in np2["records"] + np4["records"] if r["method"] == "null"]
ctx = np2["context"]
n_default = len(default["records"])
bad = [r for doc in (default, np2, np4, head) for r in doc["records"]
       if r["verification"]["status"] != "passed"]
head_ok = all(r["verification"]["status"] == "passed" for r in head["records"])
head_points = sorted({(r["method"], r["payload"], r["size_label"]) for r in head["records"]})

print(f"""# Foundation figures

Produced by `bench/foundation` on {ctx['hosts'][0]} ({ctx['mpi_library'].splitlines()[0][:40]}),
{ctx['start_time']}. Times are the per-operation time of the slowest rank, median over
{np2['records'][0]['repetitions']} samples; the machine has 2 cores, so **the 4-rank figures are
oversubscribed** (4 ranks on 2 cores slows large collectives 2-5×): read them for correctness and
relative order, not as absolute figures. Timings on this machine are noisy: compare methods within
one table (same run), not across tables.

Points not verified: {len(bad)} (every point below was verified on a poisoned receive side).

## Default run

`mpirun -np 2 runner --methods raw,bcast,pack,datatype,rdma,boost,boost_packed,null` with default
options otherwise (the MPI & Boost transfer benchmark's seven methods on every payload they support, sizes small to xxlarge, `--min-time 0.005`, 7 repetitions): **{wall} s** of wall time for {n_default} points,
each with its CV reported.

## Harness overhead (`null` method)

| ranks | size label | median per operation | iters × reps |
|---|---|---:|---:|""")
for r in null:
    print(f"| {r['ranks']} | {r['size_label']} | {r['time_s']['median'] * 1e9:.1f} ns | "
          f"{r['inner_iterations']} × {r['repetitions']} |")
print(f"""
## Headline command

`mpirun -np 4 --oversubscribe runner --methods bcast,rdma --sizes all`: **{head_wall} s**,
{len(head['records'])} records ({len(head_points)} distinct method/payload/size points), all
verified: {'yes' if head_ok else 'NO'}; skipped: {len(head['skipped'])}.

Fastest method per payload and size at 4 ranks (oversubscribed):

| payload | size | fastest | median |
|---|---|---|---:|
{winners(head)}

## 2 ranks
{table(np2)}

## 4 ranks (oversubscribed: 4 ranks on 2 cores)
{table(np4)}
""")
