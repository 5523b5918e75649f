#!/usr/bin/env python3
"""docs/results/stencil.md from what bench/stencil wrote: OPBench
tables with our figures beside them, the slopes of comm and pack against
size, and the fastest strategy per size. Every figure of ours comes from the
JSON; OPBench's tables are quoted from seed 004 (the reference)."""
import bench_io  # docs/results' raw data, plain or gzip-compressed
from bench_io import open  # noqa: A004 (reads FILE or FILE.gz)
import json
import os
import statistics
import sys

out = sys.argv[1]
files = sorted(bench_io.glob(os.path.join(out, "stencil_np2_round*.json")),
               key=lambda f: int(f.rsplit("round", 1)[1].split(".")[0]))
docs = [json.load(open(f)) for f in files]
first = docs[0]
ctx = first["context"]
E = ctx["options"]["exchanges"]

# Seed 004 (µs; pack, comm, unpack per exchange, app per iteration):
# HMPI's MPI-mode output and OPI's, BENCH_ITERS=200, COMM_ITERS=4, stride 8.
SEED_MPI = {8: (0.001, 1.183, 0.008, 0.006), 1024: (0.207, 1.570, 0.146, 0.028),
            65536: (10.940, 15.466, 6.984, 0.818), 1048576: (175.133, 219.351, 113.820, 13.020),
            4194304: (673.720, 798.686, 470.269, 51.019)}
SEED_OPI = {8: (0.053, 1.201, 0.110, 0.038), 1024: (0.135, 1.233, 0.288, 0.057),
            65536: (5.068, 1.239, 13.156, 0.800), 1048576: (93.164, 1.225, 203.080, 12.903),
            4194304: (374.805, 1.190, 807.090, 48.723)}


def phase(r, name):
    return next(p for p in r["phases_s"] if p["name"] == name)["time_s"]["median"]


def per(doc):
    return {(r["method"], r["bytes"]): r for r in doc["records"]}


def slope(xs, ys):
    mx, my = statistics.mean(xs), statistics.mean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


got = per(first)
sizes = sorted({b for (_, b) in got})
methods = sorted({m for (m, _) in got})
place = ctx.get("placement", {}).get("ranks_0_1", {})
shared = [k[6:] for k, v in place.items() if k.startswith("share_") and v]
failed = sum(1 for d in docs for r in d["records"] if r["verification"]["status"] != "passed")
npoints = sum(len(d["records"]) for d in docs)
config = ("one processor: OPBench's configuration (i)" if place.get("share_package")
          else "two processors: OPBench's configuration (ii)" if place.get("same_host")
          else "two hosts")
print(f"""# Stencil suite results: OPBench

Produced by `bench/stencil --rounds {len(docs)}` on {ctx['hosts'][0]}, {ctx['start_time']}
({ctx['mpi_library'].splitlines()[0][:60]}), 2 ranks on {ctx['cpus_per_node']} CPUs; ranks 0 and 1
on CPUs {ctx['placement']['ranks'][0]['cpus']} and {ctx['placement']['ranks'][1]['cpus']}, sharing
{', '.join(shared) if shared else 'nothing'} ({config}). {E} exchanges per iteration, stride
{ctx['options']['stride']} B. Times are the slowest rank's, median over
{first['records'][0]['repetitions']} samples; {npoints - failed} of {npoints} points verified.
Our pack, comm and unpack below are **per exchange** (the phase over the
{E} exchanges of an iteration, / {E}), app per iteration, as OPBench's columns.
""")


def seed_table(title, ours, seed):
    print(f"### {title}\n")
    print("| size (B) | OPBench pack | OPBench comm | OPBench unpack | OPBench app | pack | comm | unpack | app |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for b in sizes:
        r = got.get((ours, b))
        if not r:
            continue
        s = seed.get(b)
        seed_cells = " | ".join(f"{v:.3f}" for v in s) if s else "- | - | - | -"
        mine = [phase(r, "pack") / E, phase(r, "comm") / E, phase(r, "unpack") / E,
                phase(r, "app")]
        print(f"| {b} | {seed_cells} | " + " | ".join(f"{v * 1e6:.3f}" for v in mine) + " |")
    print()


print("## Beside OPBench's tables (µs)\n")
seed_table("opbench_mpi beside OPBench's MPI-mode run", "opbench_mpi", SEED_MPI)
seed_table("stencil_shm beside OPBench's OPI run (ownership passing)", "stencil_shm", SEED_OPI)

print("## Goal: comm against size for ownership passing\n")
print("Least-squares slope of each phase (per exchange) against the message "
      f"size, in ns per KiB, in each of the {len(docs)} launches (median and range), "
      "beside the same slope through OPBench's tables (its rows at 8 B, 1 KiB, "
      "64 KiB, 1 MiB and 4 MiB):\n")


def slopes_of(doc, m, ph):
    g = per(doc)
    xs = [b for b in sizes if (m, b) in g]
    return slope([x / 1024 for x in xs], [phase(g[(m, b)], ph) / E for b in xs]) * 1e9


def seed_slope(table, col):
    xs = sorted(table)
    return slope([x / 1024 for x in xs], [table[x][col] * 1e-6 for x in xs]) * 1e9


print("| phase | opbench_mpi | stencil_shm | shm / mpi | OPBench MPI | OPBench OPI | OPBench OPI / MPI |")
print("|---|---:|---:|---:|---:|---:|---:|")
ratio = {}
for col, ph in enumerate(("pack", "comm", "unpack")):
    mpi = [slopes_of(d, "opbench_mpi", ph) for d in docs]
    shm = [slopes_of(d, "stencil_shm", ph) for d in docs]
    r = [b / a for a, b in zip(mpi, shm)]
    ratio[ph] = r
    smpi, sopi = seed_slope(SEED_MPI, col), seed_slope(SEED_OPI, col)
    print(f"| {ph} | {statistics.median(mpi):.1f} ({min(mpi):.0f}-{max(mpi):.0f}) | "
          f"{statistics.median(shm):.1f} ({min(shm):.0f}-{max(shm):.0f}) | "
          f"{statistics.median(r):.2f} ({min(r):.2f}-{max(r):.2f}) | {smpi:.1f} | {sopi:.2f} | "
          f"{sopi / smpi:.3f} |")
print()
c = ratio["comm"]
g = per(first)
lo, hi = phase(g[("stencil_shm", sizes[0])], "comm") / E, phase(g[("stencil_shm", sizes[-1])], "comm") / E
print(f"- **comm**: stencil_shm's grows {1 / statistics.median(c):.1f}x more slowly with size than "
      f"opbench_mpi's (ratio {min(c):.2f}-{max(c):.2f} over the launches), but it is **not flat** as "
      f"OPBench's OPI (ratio {abs(seed_slope(SEED_OPI, 1) / seed_slope(SEED_MPI, 1)):.3f}): "
      f"from {lo * 1e6:.2f} µs at {sizes[0]} B to {hi * 1e6:.1f} µs at {sizes[-1] // 1048576} MiB in the first "
      "launch. The hand-off itself carries no data; what grows is, most likely, the wait "
      "for the neighbour's pack, which is now where the data moves.")
print(f"- **Where the copy goes**: OPBench's OPI pays it in unpack (OPI/MPI slope "
      f"{seed_slope(SEED_OPI, 2) / seed_slope(SEED_MPI, 2):.2f} for unpack, "
      f"{seed_slope(SEED_OPI, 0) / seed_slope(SEED_MPI, 0):.2f} for pack). Here shm/mpi is "
      f"{statistics.median(ratio['pack']):.2f} for pack and {statistics.median(ratio['unpack']):.2f} "
      "for unpack: the copy that opbench_mpi's comm makes (through Open MPI's shared-memory "
      "transport) does not reappear in either, on two cores that share an L3; it is not "
      "moved into unpack as in OPBench.\n")

print("## Goal: the fastest strategy per size, and its margin over opbench_mpi\n")
print(f"Over {len(docs)} launches: per launch the fastest verified method and "
      "opbench_mpi's time over it; median over the launches, with the range, and "
      "the median CV of the winner's samples. Above 1: faster than OPBench's MPI mode.\n")
print("| size (B) | fastest (launches won) | opbench_mpi / fastest, median | range | CV of the fastest |")
print("|---:|---|---:|---|---:|")
winners = []
for b in sizes:
    wins, ratios, cvs = {}, [], []
    for d in docs:
        g = per(d)
        recs = [g[(m, b)] for m in methods if (m, b) in g
                and g[(m, b)]["verification"]["status"] == "passed"]
        w = min(recs, key=lambda r: r["time_s"]["median"])
        wins[w["method"]] = wins.get(w["method"], 0) + 1
        ref = g.get(("opbench_mpi", b))
        if ref:
            ratios.append(ref["time_s"]["median"] / w["time_s"]["median"])
        cvs.append(w["time_s"]["cv"])
    ranked = sorted(wins.items(), key=lambda kv: -kv[1])
    top = ranked[0]
    tie = len(ranked) > 1 and ranked[1][1] == top[1]
    winners.append((b, "tie" if tie else top[0]))
    others = ", ".join(f"{m} {n}" for m, n in ranked[1:])
    print(f"| {b} | {'tie: ' if tie else ''}{top[0]} ({top[1]}/{len(docs)}{'; ' + others if others else ''}) | "
          f"{statistics.median(ratios):.2f} | {min(ratios):.2f}-{max(ratios):.2f} | "
          f"{100 * statistics.median(cvs):.1f}% |")
print()
changes = [f"{winners[i][1]} up to {winners[i][0]} B, then {winners[i + 1][1]}"
           for i in range(len(winners) - 1) if winners[i][1] != winners[i + 1][1]]
print("Where the winner changes: " + ("; ".join(changes) if changes else "nowhere") + ".\n")

print("## Why these strategies win where they do\n")
print("- **Small messages: `stencil_neighbor`.** One `MPI_Neighbor_alltoall` "
      f"does two exchanges, so an iteration makes {E // 2} MPI calls instead of "
      f"{E} send/receive pairs; below a few hundred bytes the time is the calls.\n"
      "- **`stencil_datatype`** has no pack or unpack loop; the library gathers "
      "the strided data itself, which at stride 8 is a plain copy, so it wins "
      "some sizes outright and trails `stencil_shm` closely at others.\n"
      "- **From a few KiB: `stencil_shm`.** It packs straight into the "
      "neighbour's window and hands off with a zero-byte message; "
      "`opbench_mpi` packs, then Open MPI copies the buffer through its "
      "shared-memory transport, then the receiver unpacks: one copy more, "
      "which is the comm column of the first table.")
dt = [phase(per(d)[("stencil_datatype", b)], "app") / phase(per(d)[("opbench_mpi", b)], "app")
      for d in docs for b in sizes if 4096 <= b <= 65536]
ours4 = phase(got[("opbench_mpi", 4194304)], "app") if ("opbench_mpi", 4194304) in got else 0
print(f"- **The app column** is {ours4 * 1e6 / SEED_MPI[4194304][3]:.0f}x OPBench's at 4 MiB: "
      f"ours updates all {E} faces (n elements each) per iteration, which explains {E}x; the "
      "rest we cannot explain from OPBench's text. It is the same arithmetic for every "
      "strategy, but not the same time: stencil_datatype's app takes "
      f"{min(dt):.1f}-{max(dt):.1f}x opbench_mpi's from 4 KiB to 64 KiB (every launch), "
      "probably because the library read its faces in place from the other process, so "
      "the app phase then writes cache lines another core holds. Part of a strategy's "
      "cost can land outside its comm phase; the operation's total is the fair comparison.\n"
            "- **Against OPBench's absolute figures:** one machine and one MPI here, "
      "OPBench's Cab nodes there. What carries over is the direction: with "
      "ownership passing built from standard MPI-3 (`MPI_Win_allocate_shared`, "
      "no HMPI) comm grows several times more slowly than OPBench's MPI mode; "
      "it is not flat, and the copy's cost does not show in unpack as in "
      "OPBench (see the slopes above).\n")

vm = os.path.join(out, "vmstat.txt")
if bench_io.exists(vm):
    print("`vmstat 1 3` at the end of the bench (column `st`: time the host "
          "took from this VM):\n\n```\n" + open(vm).read().rstrip() + "\n```\n")
