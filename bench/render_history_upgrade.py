#!/usr/bin/env python3
"""docs/results/history_upgrade.md from the kept data of
bench/history_upgrade only: DIR/meta.json and DIR/series.jsonl (plain or
gzip-compressed). Every figure is derived from them.

    bench/render_history_upgrade.py [DIR]  (default docs/results/history_upgrade)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_io import open  # noqa: E402,A004 (reads FILE or FILE.gz)
from bench_stats import jsonl  # noqa: E402
from render_history import pct, wilson  # noqa: E402

GOALS = {"flat": ("alarms", "at most", 0.05),
         "upgrade": ("alarms", "at most", 0.05),
         "upgrade10": ("at_run", "at least", 0.90),
         "upgrade25": ("at_run", "at least", 0.99)}
TITLE = {"flat": "no upgrade, no step",
         "upgrade": "an upgrade that changes nothing",
         "upgrade10": "an upgrade 10% slower",
         "upgrade25": "an upgrade 25% slower"}


def judge(row, step_text, near):
    cs = row["changes"]
    k = row["k"]
    slow = [c for c in cs if c["factor"] > 1]
    return {
        "alarm": bool(cs),
        "at_run": k is not None and any(
            c["index"] == k and c["boundary"] == step_text for c in slow),
        "near": k is not None and any(abs(c["index"] - k) <= near
                                      for c in slow),
        "named_alarm": any(c["boundary"] for c in cs),
    }


def cell(x, n):
    lo, hi = wilson(x, n)
    return f"{x}/{n} = {pct(x / n)} ({pct(lo)}-{pct(hi)})"


def render(d):
    meta = json.load(open(os.path.join(d, "meta.json")))
    rows = list(jsonl(os.path.join(d, "series.jsonl")))
    text, near = meta["step_text"], meta["near"]
    out = ["# An MPI upgrade in the history", "",
           f"Made by `{meta['command']}` on {meta['date']} "
           f"({meta['versions']['repository']}), from the kept data in "
           f"[history_upgrade/](history_upgrade/) by "
           "`bench/render_history_upgrade.py`; nothing is timed.", "",
           f"{meta['replicas']} stores per condition, {meta['nights']} "
           f"nights each, {len(meta['points'])} points a night, each "
           f"point's record drawn from {meta['launches']['files']} real "
           "2-rank launches (bench/history's). In an upgrade store every "
           "night from k on (k drawn from "
           f"{meta['upgrade_nights'][0]}-{meta['upgrade_nights'][1]}) "
           f"names another version of the library (`{text}`), and its "
           "records are slowed by the condition's factor. `history "
           "changes` at its defaults "
           f"({json.dumps(meta['history_options'])}) judges every store; "
           "the series span the upgrade (one per point, never one per "
           "library).", "",
           "| condition | series | any change reported | found at its run, "
           f"named `{text}` | a slowdown within {near} runs | goal | met |",
           "|---|---|---|---|---|---|---|"]
    verdicts = []
    for cond in meta["conditions"]:
        rs = [r for r in rows if r["condition"] == cond]
        js = [judge(r, text, near) for r in rs]
        n = len(js)
        alarms = sum(j["alarm"] for j in js)
        at_run = sum(j["at_run"] for j in js)
        within = sum(j["near"] for j in js)
        kind, word, goal = GOALS[cond]
        x = alarms if kind == "alarms" else at_run
        met = x / n <= goal if word == "at most" else x / n >= goal
        verdicts.append(met)
        stepped = meta["conditions"][cond]["factor"] != 1
        out.append(
            f"| {TITLE[cond]} | {n} | {cell(alarms, n)} | "
            f"{cell(at_run, n) if stepped else '—'} | "
            f"{cell(within, n) if stepped else '—'} | "
            f"{'reports a change' if kind == 'alarms' else 'found at its run'} "
            f"{word} {pct(goal)} | {'yes' if met else 'NO'} |")
    named = sum(judge(r, text, near)["named_alarm"] for r in rows
                if r["condition"] == "upgrade")
    n_up = sum(1 for r in rows if r["condition"] == "upgrade")
    out += ["", "Intervals are Wilson's 95% score intervals. In the store "
            "where the upgrade changes nothing, "
            f"{named} of {n_up} series reported a change named at the "
            "boundary.", "",
            "A step found at its run carries the boundary in `history "
            "changes`'s JSON (`boundary`) and its text: `at run #N "
            f"(started), {text}: S series, +X%`. A change the medians "
            "place within 2 runs of the boundary is moved to it when the "
            "split there is confirmed too (the same U test, Welch test and "
            "threshold); a split the data place more than 2 runs away, or "
            "that does not hold at the boundary, stays where it is.", "",
            "The trend page of the first 25% store "
            "(`bench/history_upgrade --page FILE`, in headless Chromium at "
            "1400x1300): [trend-upgrade-screenshot.png]"
            "(../trend-upgrade-screenshot.png), one chart per point across "
            "the upgrade, the boundary dashed and labelled, the change "
            "point squared at it."]
    with open(d.rstrip("/") + ".md", "w") as f:
        f.write("\n".join(out) + "\n")
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(render(sys.argv[1] if len(sys.argv) > 1
                    else "docs/results/history_upgrade"))
