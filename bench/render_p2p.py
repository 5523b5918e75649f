#!/usr/bin/env python3
"""Renders bench/p2p's results (DIR) into docs/results/rma.md (OUT).

    render_p2p.py DIR OUT
"""
import bench_io  # docs/results' raw data, plain or gzip-compressed
from bench_io import open  # noqa: A004 (reads FILE or FILE.gz)
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_stats import median, vmstat  # noqa: E402

SYNCS = ["fence", "lock", "flush", "flush_local", "pscw"]
WINDOWS = ["allocate", "create", "dynamic"]


def load(path):
    with open(path) as f:
        return json.load(f)


def rounds(d, prefix):
    files = bench_io.glob(os.path.join(d, f"{prefix}_r*.json"))
    return [load(p) for p in sorted(files, key=lambda p: int(re.findall(r"_r(\d+)", p)[0]))]


def mib(b):
    return f"{b / 1048576:g} MiB" if b >= 1048576 else f"{b / 1024:g} KiB" if b >= 1024 else f"{b} B"


def rate(bps):
    return f"{bps / 1e9:.2f} GB/s" if bps >= 1e9 else f"{bps / 1e6:.1f} MB/s"


def secs(s):
    return f"{s * 1e9:.0f} ns" if s < 1e-6 else f"{s * 1e6:.2f} us" if s < 1e-3 else f"{s * 1e3:.2f} ms"


def by(doc, **keys):
    return [r for r in doc["records"] if all(r.get(k) == v for k, v in keys.items())]


def stream_section(d, prefix="stream", cold=False):
    docs = rounds(d, prefix)
    out = ["## Streaming bandwidth against the one-way ping-pong" +
           (", the ping-pong's caches cold" if cold else ""), ""]
    if not docs:
        return out + [f"(no {prefix}_r*.json)", ""]
    sizes = sorted({r["bytes"] for r in docs[0]["records"]})
    out += [f"{len(docs)} launches of 2 ranks, each measuring `isend_bw`, `persistent_bw` "
            "(window 64), `mpi_bytes` and `pingpong_isend` (one-way ping-pong, "
            "`--buffers separate`" + (", `--cache cold`" if cold else "") +
            ") at every size. Ratio of bandwidths within one launch, "
            "median over the launches (lowest to highest); the goal is isend_bw / mpi_bytes "
            ">= 1 from 4 MiB in every launch. Control: `pingpong_isend` / `mpi_bytes`, two "
            "ping-pongs of the same message.", "",
            "| size | isend_bw | mpi_bytes | isend_bw / mpi_bytes | persistent_bw / mpi_bytes "
            "| control | goal met in |", "|---|---|---|---|---|---|---|"]
    for b in sizes:
        def bw(doc, m):
            rs = by(doc, method=m, bytes=b)
            return rs[0]["bandwidth_Bps"] if rs and rs[0]["verification"]["status"] == "passed" else None
        rows = [(bw(x, "isend_bw"), bw(x, "persistent_bw"), bw(x, "mpi_bytes"),
                 bw(x, "pingpong_isend")) for x in docs]
        rows = [r for r in rows if None not in r]
        if not rows:
            continue
        ratio = [s / p for s, _, p, _ in rows]
        pers = [q / p for _, q, p, _ in rows]
        ctrl = [c / p for _, _, p, c in rows]
        met = sum(x >= 1 for x in ratio)
        spread = lambda xs: f"{median(xs):.2f} ({min(xs):.2f} to {max(xs):.2f})"  # noqa: E731
        out.append(f"| {mib(b)} | {rate(median([r[0] for r in rows]))} | "
                   f"{rate(median([r[2] for r in rows]))} | {spread(ratio)} | {spread(pers)} | "
                   f"{spread(ctrl)} | {met} of {len(rows)} |")
    return out + [""]


def crossover(doc, window):
    """Per sync: the smallest size from which its put bandwidth is >= 90% of
    the best sync's at that size and every larger one (None: never)."""
    recs = [r for r in doc["records"] if r["payload"] == window and "params" in r]
    sizes = sorted({r["bytes"] for r in recs})
    bw = {(r["params"]["sync"], r["bytes"]): r["bandwidth_Bps"] for r in recs
          if r["verification"]["status"] == "passed"}
    best = {b: max(bw.get((s, b), 0) for s in SYNCS) for b in sizes}
    res = {}
    for s in SYNCS:
        first = None
        for b in reversed(sizes):
            if bw.get((s, b), 0) >= 0.9 * best[b]:
                first = b
            else:
                break
        res[s] = first
    return res, best


def put_section(d):
    docs = rounds(d, "put")
    out = ["## From which size each synchronisation's put bandwidth is within 10% of the best", ""]
    if not docs:
        return out + ["(no put_r*.json)", ""]
    out += [f"{len(docs)} launches of 2 ranks; in each, the five `put_*_bw` methods (window 64) "
            "ran interleaved at every size from 64 B to 4 MiB on each window kind. Per launch "
            "and synchronisation: the smallest size from which its bandwidth is at least 90% "
            "of the best synchronisation's at that size and at every larger size. Median over "
            "the launches (lowest to highest); `never`: not even at 4 MiB.", "",
            "| window | " + " | ".join(SYNCS) + " | best at 4 MiB (median) |",
            "|---|" + "---|" * (len(SYNCS) + 1)]
    for w in WINDOWS:
        per = [crossover(x, w) for x in docs]
        cells = []
        for s in SYNCS:
            vals = [c[0][s] for c in per]
            known = sorted(v for v in vals if v is not None)
            if not known:
                cells.append("never")
                continue
            text = mib(known[len(known) // 2]) if len(known) == len(vals) else \
                f"{mib(known[len(known) // 2])} ({len(vals) - len(known)} never)"
            if len(set(vals)) > 1 and len(known) == len(vals):
                text += f" ({mib(known[0])} to {mib(known[-1])})"
            cells.append(text)
        top = median([c[1][max(c[1])] for c in per if c[1]])
        out.append(f"| {w} | " + " | ".join(cells) + f" | {rate(top)} |")
    return out + [""]


def matrix_section(d):
    path = os.path.join(d, "matrix.json")
    out = ["## The matrix (one launch)", ""]
    if not bench_io.exists(path):
        return out + ["(no matrix.json)", ""]
    doc = load(path)
    recs = [r for r in doc["records"] if "params" in r]
    out += ["Every rma method on every window kind, 2 ranks, one launch (`matrix.json`). "
            "Latency: median time of one operation with its synchronisation; bandwidth: per "
            "operation of a window of 64. `*` the fastest synchronisation of the row; "
            "`skip`: not run (see below).", ""]
    skipped = {(s["method"], s["payload"], s["bytes"]) for s in doc["skipped"]}
    for mode in ("latency", "bandwidth"):
        for w in WINDOWS:
            for b in sorted({r["bytes"] for r in recs if r["params"]["mode"] == mode}):
                rs = [r for r in recs if r["payload"] == w and r["bytes"] == b
                      and r["params"]["mode"] == mode]
                if not rs:
                    continue
                ops = []
                for r in rs:
                    if r["params"]["op"] not in ops:
                        ops.append(r["params"]["op"])
                out += [f"**{mode}, {w}, {mib(b)}**", "",
                        "| op | " + " | ".join(SYNCS) + " |", "|---|" + "---|" * len(SYNCS)]
                for op in ops:
                    row = {r["params"]["sync"]: r for r in rs if r["params"]["op"] == op}
                    ok = [r for r in row.values() if r["verification"]["status"] == "passed"]
                    best = min(ok, key=lambda r: r["time_s"]["median"]) if ok else None
                    cells = []
                    for s in SYNCS:
                        r = row.get(s)
                        if r is None:
                            cells.append("skip")
                        elif r["verification"]["status"] != "passed":
                            cells.append("FAILED")
                        else:
                            v = rate(r["bandwidth_Bps"]) if mode == "bandwidth" else secs(r["time_s"]["median"])
                            cells.append(("*" if r is best else "") + v)
                    out.append(f"| {op} | " + " | ".join(cells) + " |")
                out.append("")
    reasons = sorted({s["reason"] for s in doc["skipped"]})
    if reasons:
        out += ["Skipped: " + "; ".join(f"{len([1 for s in doc['skipped'] if s['reason'] == x])} "
                                        f"points: {x}" for x in reasons), ""]
    return out


def main():
    d, target = sys.argv[1], sys.argv[2]
    st = [s for _, s in vmstat(d)]
    cmd = open(os.path.join(d, "command.txt")).read().strip() if bench_io.exists(
        os.path.join(d, "command.txt")) else "bench/p2p"
    ctx = load(os.path.join(d, "matrix.json"))["context"] if bench_io.exists(
        os.path.join(d, "matrix.json")) else {}
    head = ["<!-- bench/render_p2p.py writes the part below the marker from "
            f"{os.path.relpath(d, os.path.dirname(os.path.abspath(target)))}/; "
            "edit above it -->", "",
            f"Command: `{cmd}` ({ctx.get('mpi_library', '?').splitlines()[0] if ctx else '?'}, "
            f"{ctx.get('cpus_per_node', '?')} CPUs). vmstat st during the run: median "
            f"{median(st) if st else float('nan'):g}%, max {max(st) if st else float('nan'):g}%.", ""]
    body = (head + stream_section(d) + stream_section(d, "cold", True) + put_section(d) +
            matrix_section(d))
    marker = "<!-- generated -->"
    text = open(target).read() if bench_io.exists(target) else "# One-sided communication\n\n"
    text = text.split(marker)[0].rstrip() + "\n\n" + marker + "\n" + "\n".join(body) + "\n"
    with open(target, "w") as f:
        f.write(text)
    print(f"render_p2p: wrote {target}")


if __name__ == "__main__":
    main()
