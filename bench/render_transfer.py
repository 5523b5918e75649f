#!/usr/bin/env python3
"""Head of docs/results/transfer.md: the goals of issue 3 checked against the
records of bench/transfer. Every sentence is derived from the JSON."""
import bench_io  # docs/results' raw data, plain or gzip-compressed
from bench_io import open  # noqa: A004 (reads FILE or FILE.gz)
import json
import sys

docs = [json.load(open(p)) for p in sys.argv[1:]]
ORDER = ["small", "medium", "large", "xlarge", "xxlarge", "xxxlarge"]


def fmt_s(s):
    return f"{s * 1e6:.1f} µs" if s < 1e-3 else f"{s * 1e3:.2f} ms" if s < 1 else f"{s:.3f} s"


ctx = docs[0]["context"]
print(f"""# Transfer suite results

Produced by `bench/transfer` on {ctx['hosts'][0]}, {ctx['start_time']}
({ctx['mpi_library'].splitlines()[0][:60]}). Per-operation time of the slowest rank,
median over {docs[0]['records'][0]['repetitions']} samples; every point verified on a
poisoned receive side. The machine has 2 cores: 4-rank figures are oversubscribed
(collectives 2-5× slower than on 4 real cores) and are for relative order only.
Why some methods are slow at large sizes: [../transfer-methods.md](../transfer-methods.md).

## Goals
""")

for doc in docs:
    ranks = doc["context"]["ranks"]
    s = doc["summary"]
    print(f"### {ranks} ranks\n")
    # Goal 1: best 2d within 1.10x of best 1d from large up.
    rows = [c for c in s["payload_1d_vs_2d"]
            if c["suite"] == "transfer" and c["size_label"] in ORDER
            and ORDER.index(c["size_label"]) >= ORDER.index("large")]
    if rows:
        worst = max(rows, key=lambda c: c["ratio_2d_over_1d"])
        met = all(c["ratio_2d_over_1d"] <= 1.10 for c in rows)
        print("- **Best 2d within 1.10× of best 1d, large and up: "
              f"{'met' if met else 'NOT met'}.** Ratios: " +
              ", ".join(f"{c['size_label']} {c['ratio_2d_over_1d']:.2f} "
                        f"({c['best_2d']} vs {c['best_1d']})" for c in rows) +
              f". Worst: {worst['size_label']}, {worst['ratio_2d_over_1d']:.2f}.")
    # Goal 2: best 1d at xxlarge >= 12 GB/s (stated for 2 ranks).
    xx = [b for b in s["best"] if b["suite"] == "transfer" and b["payload"] == "1d"
          and b["size_label"] == "xxlarge"]
    if xx:
        b = xx[0]
        gbs = b["bandwidth_Bps"] / 1e9
        goal = " (goal at 2 ranks: ≥ 12 GB/s: " + ("met" if gbs >= 12 else "NOT met") + ")" \
            if ranks == 2 else ""
        print(f"- Best 1d at xxlarge: **{b['method']}, {gbs:.2f} GB/s** "
              f"({fmt_s(b['median_s'])}){goal}.")
    # Goal 3: methods far from the best at the largest size measured.
    sizes = sorted({r["bytes"] for r in doc["records"] if r["suite"] == "transfer"})
    if sizes:
        top = sizes[-1]
        for payload in ("1d", "2d"):
            recs = [r for r in doc["records"] if r["bytes"] == top and r["payload"] == payload
                    and r["suite"] == "transfer" and r["verification"]["status"] == "passed"]
            if not recs:
                continue
            best = min(r["time_s"]["median"] for r in recs)
            slow = sorted((r["time_s"]["median"] / best, r["method"]) for r in recs
                          if r["time_s"]["median"] > 3 * best)
            label = recs[0]["size_label"]
            if slow:
                print(f"- {payload} at {label}: more than 3× the best: " +
                      ", ".join(f"{m} {x:.1f}×" for x, m in slow) +
                      " (explained in transfer-methods.md).")
            else:
                print(f"- {payload} at {label}: every method within 3× of the best.")
    changes = [c for c in s["winner_changes"] if c["suite"] == "transfer"]
    for c in changes:
        print(f"- {c['payload']}: the fastest method changes from {c['from_method']} "
              f"({c['from_size_label']}) to {c['to_method']} ({c['to_size_label']}).")
    print()
