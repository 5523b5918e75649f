#!/usr/bin/env python3
"""docs/results/history.md from the kept data of bench/history only:
DIR/meta.json, DIR/series.jsonl and DIR/launches/vmstat.txt (plain or
gzip-compressed). Every figure and sentence is derived from them.

    bench/render_history.py [DIR]      (default docs/results/history)
"""
import statistics
import bench_io  # docs/results' raw data, plain or gzip-compressed
from bench_io import open  # noqa: A004 (reads FILE or FILE.gz)
from bench_stats import jsonl, median
import json
import math
import os
import sys

GOALS = {"flat": ("at most", 0.05), "step10": ("at least", 0.90),
         "step25": ("at least", 0.99)}
TITLES = {"flat": "flat series reporting any change",
          "step5": "5% steps found within {near} runs",
          "step10": "10% steps found within {near} runs",
          "step25": "25% steps found within {near} runs"}
STEPS = ("step5", "step10", "step25")
LABEL = {"flat": "flat series", "step5": "5% steps", "step10": "10% steps",
         "step25": "25% steps"}


def wilson(x, n, z=1.959964):
    """Wilson's 95% score interval of x successes in n."""
    if n == 0:
        return float("nan"), float("nan")
    p = x / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def pct(x):
    return f"{100 * x:.1f}%"


def rate(x, n):
    lo, hi = wilson(x, n)
    return f"{x} of {n} ({pct(x / n)}; {pct(lo)}–{pct(hi)})"


def judge(changes, k, near):
    """The outcome of one series for one tool (None: no data)."""
    if changes is None:
        return None
    o = {"any": bool(changes), "n": len(changes)}
    if k is None:
        o["slower"] = sum(c["factor"] > 1 for c in changes)
        return o
    o["found"] = any(abs(c["index"] - k) <= near and c["factor"] > 1
                     for c in changes)
    o["anywhere"] = any(c["factor"] > 1 for c in changes)
    o["wrong_place"] = o["any"] and not o["found"]
    o["extra"] = any(abs(c["index"] - k) > near for c in changes)
    o["offset"] = min((c["index"] - k for c in changes if c["factor"] > 1),
                      key=abs, default=None)
    return o


def verdict(cond, x, n):
    if cond not in GOALS or n == 0:
        return "—"
    how, goal = GOALS[cond]
    r = x / n
    lo, hi = wilson(x, n)
    ok = r <= goal if how == "at most" else r >= goal
    sure = (hi <= goal if how == "at most" else lo >= goal) if ok else \
        (lo > goal if how == "at most" else hi < goal)
    return ("PASS" if ok else "FAIL") + ("" if sure else " (interval "
                                         "straddles the goal)")


def vmstat_summary(d):
    """Lines of `vmstat 1` (no time stamps) during the launches: CPU idle
    and steal per second."""
    path = os.path.join(d, "launches", "vmstat.txt")
    if not bench_io.exists(path):
        return None
    head, rows = None, []
    for line in open(path):
        f = line.split()
        if "id" in f and "st" in f:
            head = f
            continue
        if head and f and f[0].isdigit() and len(f) == len(head):
            rows.append({h: int(v) for h, v in zip(head, f)})
    rows = rows[1:]  # the first line is the average since boot
    if not rows:
        return None
    return {"seconds": len(rows), "st_max": max(r["st"] for r in rows),
            "wa_max": max(r["wa"] for r in rows),
            "id_median": median([r["id"] for r in rows]),
            "usr_sys_median": median([r["us"] + r["sy"] for r in rows])}


def speed_section(d):
    """The section bench/history_speed measured (DIR/speed.json)."""
    lines = ["", "## Speed at a year's scale", ""]
    path = os.path.join(d, "speed.json")
    if not bench_io.exists(path):
        return lines + ["Not measured yet: `bench/history_speed` measures "
                        "it (DIR/speed.json)."]
    sp = json.load(open(path))
    med = statistics.median
    full = sp["stores"][0]
    sv = sp["survey"]
    lines += [
        f"`bench/history_speed` ({sp['date']}, {sp['cpus']} cores, nothing "
        f"else running; {sp['bench_seconds']} s): {sp['runs']} nightly runs "
        f"of the default survey (one real run, `{' '.join(sv['command_line'] or [])}`, "
        f"{sv['records']} points"
        + ("" if sv.get("complete") else ", stopped before its end")
        + f", {sv['bytes'] / 1e6:.1f} MB of JSON; each night's points scaled "
        f"by a lognormal factor, sd of the log {sp['spread']:.0%}) added 30 "
        "at a time, then `mpiarena-files history changes --format json` "
        "over every series (wall time of the whole command, median of 3) and "
        "one more run added (median of 5). A quarter of the points (every "
        "4th) in a second store shows the growth with series.", "",
        "| points a run | runs | series | `history changes` | changes "
        "found | store |",
        "|---:|---:|---:|---:|---:|---:|"]
    for st in sp["stores"]:
        for c in st["changes"]:
            lines.append(
                f"| {sv['records'] // st['every'] if st['every'] > 1 else sv['records']} "
                f"| {c['runs']} | {c['series']} | {med(c['seconds']):.2f} s "
                f"| {c['changes']} | {c['store_bytes'] / 1e6:.0f} MB |")
    lines += ["", "| points a run | runs before | add one run (median of 5) "
              "| slowest | goal |", "|---:|---:|---:|---:|---|"]
    for st in sp["stores"]:
        o = st["add_one"]
        n = sv["records"] // st["every"] if st["every"] > 1 else sv["records"]
        lines.append(f"| {n} | {o['runs_before']} | {med(o['seconds']):.2f} s "
                     f"| {max(o['seconds']):.2f} s | under 1 s: "
                     f"{'PASS' if med(o['seconds']) < 1 else 'FAIL'} |")
    first, last = full["changes"][0], full["changes"][-1]
    quarter_last = sp["stores"][-1]["changes"][-1]
    lines += [
        "", f"Goal: `history changes` for every series of {sp['runs']} runs "
        f"in under 10 s: {med(last['seconds']):.2f} s, "
        f"{'PASS' if med(last['seconds']) < 10 else 'FAIL'}.", "",
        "How it grows: `history changes` reads every point's median in one "
        "query (runs x series rows), searches each series for splits "
        "(O(n^2) in its n runs, by running sums of the energy statistic, "
        "again in each segment a split leaves) and reads raw samples only "
        "for a candidate change. Measured: from "
        f"{first['runs']} to {last['runs']} runs "
        f"({last['runs'] / first['runs']:.0f}x) the time grew "
        f"{med(last['seconds']) / med(first['seconds']):.0f}x; "
        f"{quarter_last['series']} to {last['series']} series "
        f"({last['series'] / quarter_last['series']:.0f}x, at "
        f"{last['runs']} runs) {med(last['seconds']) / med(quarter_last['seconds']):.0f}x, "
        "more than in proportion: the points are spread over a store "
        f"{last['store_bytes'] / quarter_last['store_bytes']:.0f}x larger, "
        "most of it the documents kept (probably: more of the file is read; "
        "not profiled). A run "
        "adds its points and samples in one transaction: its cost is its "
        "own size, not the store's. The store grows by about "
        f"{full['store_bytes'] / (sp['runs'] + 5) / 1e6:.1f} MB a run of "
        "the whole survey, most of it the document kept (compressed)."]
    return lines


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "docs/results/history"
    meta = json.load(open(os.path.join(d, "meta.json")))
    rows = jsonl(os.path.join(d, "series.jsonl"))
    near = meta["near"]
    ot = meta.get("otava")
    tools = [("mpiarena", "`runner history changes`")] + (
        [("otava", f"Apache Otava {ot['version']}")] if ot else [])
    conds = list(meta["conditions"])
    points = meta["points"]
    for r in rows:
        for t, _ in tools:
            r["o_" + t] = judge(r.get(t), r["k"], near)
    by = {c: [r for r in rows if r["condition"] == c] for c in conds}
    la = meta["launches"]
    per_cond = len(points) * meta["replicas"]
    lo = la["options"]
    cl = list(la["command"])
    if "-o" in cl:  # the launch's own file name says nothing
        del cl[cl.index("-o"):cl.index("-o") + 2]
    command = " ".join(cl)
    lines = [
        "# History: false alarms and power of `runner history changes`, "
        "beside Apache Otava (bench/history)",
        "",
        f"`{meta['command']}`, {meta['date']}; seed {meta['seed']}. "
        f"Rendered from `history/series.jsonl` and `history/meta.json` by "
        f"`bench/render_history.py` (`bench/history --render-only`). Nothing "
        f"here is timed: the series are resampled from real launches, so "
        f"the figures do not depend on the load of the machine that ran "
        f"the bench.",
        "",
        f"**The noise.** {len(la['files'])} launches (`history/launches/`), "
        f"taken one after another on this project's {la['cpus']}-core VM "
        f"({la['first_start']} to {la['last_end']}; "
        f"{(la['mpi_library'] or '').split(',')[0]}, {la['ranks']} ranks), "
        f"each `mpirun -np {la['ranks']} {command}`: {len(points)} points "
        f"(methods {', '.join(lo['methods'])} at sizes "
        f"{', '.join(lo['sizes'])}; {lo['repetitions']} repetitions, "
        f"min-time {lo['min_time_s'] * 1e3:g} ms, interleaving "
        f"{'on' if la['interleave'] else 'off'}).",
        "",
        f"**The series.** Per condition (flat; a step of +5%, +10%, +25%) "
        f"and replica ({meta['replicas']} replicas), one store of "
        f"{meta['nights']} nights: each night launch_01's document with its "
        f"own start time (one day apart from {meta['start']}) and revision, "
        f"and for each point the record of a launch drawn at random "
        f"(independently per point and night, with replacement). So "
        f"{per_cond} series (point, replica) per condition. In a step "
        f"condition each series has its own step night k, drawn uniformly "
        f"from [{meta['step_nights'][0]}, {meta['step_nights'][1]}] (the "
        f"0-based index of the first slowed night); from k on, the point's "
        f"record is slowed by the factor (every time multiplied, every "
        f"bandwidth divided).",
        "",
        "**The judges.** `mpiarena-files history add` of the store's nights, "
        "then `mpiarena-files history changes --format json` with its "
        "defaults (" + ", ".join(f"{k} {v}" for k, v in sorted(
            (meta.get("history_options") or {}).items())) + "). " +
        (f"Apache Otava {ot['version']} (`{ot['call']}`, its defaults: " +
         ", ".join(f"{k} {v}" for k, v in ot["options"].items()) +
         ") on each series' per-night medians (`time_s.median`), all series "
         "in one subprocess of a venv outside the project." if ot else
         "**Apache Otava was not run** (`--otava-python` missing): its columns "
         "are left out.") +
        f" A step is *found* when some change of its series lies within "
        f"{near} runs of k (|index − k| ≤ {near}) and is a slowdown (factor "
        f"> 1); a flat series *alarms* when it reports any change. Rates "
        f"with Wilson's 95% interval.",
        "",
        "## Goals",
        "",
        "| | goal | " + " | ".join(f"{name} | " for _, name in tools) + "",
        "|---|---|" + "---|---|" * len(tools)]
    lines[-2] = ("| | goal | " + " | ".join(f"{name} | verdict"
                                             for _, name in tools) + " |")
    for c in conds:
        rs = by[c]
        goal = GOALS.get(c)
        cells = []
        for t, _ in tools:
            key = "any" if c == "flat" else "found"
            x = sum(r["o_" + t][key] for r in rs)
            cells += [rate(x, len(rs)), verdict(c, x, len(rs))]
        lines.append(f"| {TITLES[c].format(near=near)} | "
                     f"{(goal[0] + ' ' + pct(goal[1]).replace('.0%', '%')) if goal else 'none set'} | " +
                     " | ".join(cells) + " |")
    lines += ["", "A verdict compares the rate with the goal; \"interval "
              "straddles the goal\" says the 95% interval reaches across it, "
              f"so {per_cond} series cannot settle it either way."]

    # Every outcome.
    lines += ["", "## Every outcome", "",
              "| condition | judge | series reporting a change | found "
              f"within {near} runs | a slowdown anywhere | a change, none "
              f"within {near} runs (wrong place) | a change more than {near} "
              "runs from k (extra) | changes per series (mean) |",
              "|---|---|---|---|---|---|---|---|"]
    for c in conds:
        for t, name in tools:
            os_ = [r["o_" + t] for r in by[c]]
            n = len(os_)
            mean_n = sum(o["n"] for o in os_) / n
            if c == "flat":
                slower = sum(o["slower"] > 0 for o in os_)
                lines.append(
                    f"| {c} | {name} | {rate(sum(o['any'] for o in os_), n)} "
                    f"| — | {slower} of {n} | — | — | {mean_n:.3f} |")
            else:
                lines.append(
                    f"| {c} | {name} | {sum(o['any'] for o in os_)} of {n} | "
                    f"{sum(o['found'] for o in os_)} of {n} | "
                    f"{sum(o['anywhere'] for o in os_)} of {n} | "
                    f"{sum(o['wrong_place'] for o in os_)} | "
                    f"{sum(o['extra'] for o in os_)} | {mean_n:.3f} |")
    uc = meta.get("unconfirmed_splits")
    if uc:
        lines += ["", "Splits that `history changes` placed but did not "
                  "confirm (the Mann-Whitney test on the pooled samples of "
                  "the runs beside the split, or the threshold), over all "
                  "stores: " + ", ".join(f"{c} {uc[c]}" for c in conds
                                         if c in uc) + "."]

    # The noise per point and where the misses are.
    sp = meta["spread"]
    lines += ["", "## The noise the series carry, and the misses per point",
              "",
              f"Launch-to-launch spread: the standard deviation of the log "
              f"of the point's median over the {len(la['files'])} launches "
              f"(≈ the relative spread of one night's value). Within: the "
              f"median over launches of the coefficient of variation of the "
              f"7 samples of one launch. Misses: of the {meta['replicas']} "
              f"series of the point per condition, those not found within "
              f"{near} runs; alarms: flat series reporting a change.", "",
              "| point | median time | launch-to-launch spread | within a "
              "launch | " + " | ".join(
                  f"{name}: flat alarms | misses 5% / 10% / 25%"
                  for _, name in tools) + " |",
              "|---|---|---|---|" + "---|---|" * len(tools)]

    def fmt_s(s):
        return (f"{s * 1e9:.0f} ns" if s < 1e-6 else
                f"{s * 1e6:.1f} µs" if s < 1e-3 else f"{s * 1e3:.2f} ms")

    miss = {t: {c: {p: 0 for p in points} for c in conds} for t, _ in tools}
    for r in rows:
        for t, _ in tools:
            o = r["o_" + t]
            bad = o["any"] if r["condition"] == "flat" else not o["found"]
            miss[t][r["condition"]][r["point"]] += bad
    for p in points:
        s = sp[p]
        cells = []
        for t, _ in tools:
            cells += [str(miss[t]["flat"][p]), " / ".join(
                str(miss[t][c][p]) for c in STEPS if c in conds)]
        lines.append(f"| `{p}` | {fmt_s(s['median_s'])} | "
                     f"{pct(s['sd_log'])} | {pct(s['cv_within_median'])} | " +
                     " | ".join(cells) + " |")

    # Notes, derived.
    lines += ["", "## Where the misses are", ""]
    ranked = sorted(points, key=lambda p: -sp[p]["sd_log"])
    thr = (meta.get("history_options") or {}).get("threshold", 0.05)
    noisy = [p for p in ranked if sp[p]["sd_log"] > thr]
    for t, name in tools:
        notes = []
        for c in STEPS:
            if c not in conds:
                continue
            total = sum(miss[t][c].values())
            if not total:
                notes.append(f"{LABEL[c]}: no miss in {len(by[c])} series")
                continue
            worst = sorted((p for p in points if miss[t][c][p]),
                           key=lambda p: (-miss[t][c][p], points.index(p)))
            in_noisy = sum(miss[t][c][p] for p in noisy)
            notes.append(
                f"{LABEL[c]}: {total} misses; most at " + ", ".join(
                    f"`{p}` {miss[t][c][p]}" for p in worst[:4]) +
                (f"; {in_noisy} of them at the {len(noisy)} points whose "
                 f"launch-to-launch spread exceeds the threshold "
                 f"({pct(thr)})" if noisy else ""))
        for c in STEPS:
            missed = [r["o_" + t] for r in by.get(c, [])
                      if not r["o_" + t]["found"]]
            if not missed or c == "step5":
                continue
            off = [o["offset"] for o in missed if o["offset"] is not None]
            notes.append(
                f"of the {len(missed)} misses of {LABEL[c]}, "
                f"{len(missed) - len(off)} "
                f"report no slowdown at all and {len(off)} place one more "
                f"than {near} runs from k" + (
                    f" (offsets " + ", ".join(f"{x:+d}" for x in sorted(off))
                    + ")" if off else ""))
        fl = [(r["point"], c["index"], c["factor"]) for r in by.get(
            "flat", []) for c in (r.get(t) or [])]
        if fl:
            ends = sum(i < 5 or i >= meta["nights"] - 5 for _, i, _ in fl)
            notes.append(
                f"flat series: {len(fl)} changes in {sum(r['o_' + t]['any'] for r in by['flat'])} "
                f"series, {sum(f > 1 for _, _, f in fl)} of them slowdowns; "
                f"{ends} within 5 nights of either end; factors " +
                ", ".join(f"{f:.3f}" for f in sorted(f for _, _, f in fl)[:8]) +
                (" …" if len(fl) > 8 else "") + "; at " + ", ".join(sorted(
                    {f"`{p}`" for p, _, _ in fl})))
        lines += [f"- **{name}**:"] + [f"  - {n[0].upper() + n[1:]}."
                                        for n in notes]
    lines += [
        f"- Noisiest points (launch-to-launch spread): " + ", ".join(
            f"`{p}` {pct(sp[p]['sd_log'])}" for p in ranked[:4]) +
        f"; quietest: " + ", ".join(f"`{p}` {pct(sp[p]['sd_log'])}"
                                     for p in ranked[-3:]) +
        f". Median over the points: "
        f"{pct(median([sp[p]['sd_log'] for p in points]))}; within a launch "
        f"the samples spread far less (median coefficient of variation "
        f"{pct(median([sp[p]['cv_within_median'] for p in points]))}): "
        f"from one night to the next a point moves by more than its "
        f"samples say. A change is reported only when the medians on its "
        f"two sides differ by at least the threshold ({pct(thr)}), which "
        f"the medians of a 5% step reach about as often as not (`history "
        f"changes` reported a change in " + (
            f"{sum(r['o_mpiarena']['any'] for r in by['step5'])} of "
            f"{len(by['step5'])} step5 series" if "step5" in by else "—") +
        f"): that row has no goal."]
    vm = vmstat_summary(d)
    if vm:
        lines += [f"- The launches' machine (`history/launches/vmstat.txt`, "
                  f"`vmstat 1`, {vm['seconds']} s): CPU idle median "
                  f"{vm['id_median']:g}% (the 2 ranks poll), user+system "
                  f"median {vm['usr_sys_median']:g}%, steal at most "
                  f"{vm['st_max']}%, I/O wait at most {vm['wa_max']}%."]

    lines += speed_section(d)

    v = meta.get("versions", {})
    lines += [
        "", "## Reproduce", "",
        "```",
        "# once, outside the project: Apache Otava, the reference",
        "python3 -m venv V && V/bin/pip install apache-otava",
        f"# the whole bench ({meta.get('bench_seconds'):.0f} s here on 2 "
        f"cores), then the page",
        f"bench/history --build BUILD --otava-python V/bin/python"
        f"{' --seed ' + str(meta['seed'])}"
        f" --nights {meta['nights']} --replicas {meta['replicas']}",
        "# the page again from the kept data",
        "bench/history --render-only",
        "# new launches: 30 or more, one after another on a quiet machine",
        f"for i in $(seq -w 1 {len(la['files'])}); do mpirun -np 2 build/runner -q -m "
        "bcast,raw,allreduce,mpi_bytes --sizes 8,small,medium,large -o "
        "L/launch_$i.json; done",
        "bench/history --import-launches L --build BUILD",
        "```",
        "",
        "`BUILD` holds `mpiarena-files` (no MPI needed). Without "
        "`--otava-python` (default /work/ref/otava/venv/bin/python) or when "
        "it is missing, the Otava columns are left out. Versions of this "
        f"run: {v.get('mpiarena_files')}, repository {v.get('repository')}, "
        f"Python {v.get('python')}" + (f", apache-otava {ot['version']}"
                                       if ot else "") + "."]
    out = d.rstrip("/") + ".md"
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"bench/render_history.py: wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
