#!/usr/bin/env python3
"""Renders docs/results/tuning.md from bench/tuning's files:
render_tuning.py DIR OUT.md COMMAND [NOTE]. Every figure comes from DIR."""
import bench_io  # docs/results' raw data, plain or gzip-compressed
from bench_io import open  # noqa: A004 (reads FILE or FILE.gz)
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_stats import jsonl, median, quartiles, vmstat  # noqa: E402


def load(d):
    meta = json.load(open(os.path.join(d, "meta.json")))
    decisions = json.load(open(os.path.join(d, "decisions.json")))
    launches = jsonl(os.path.join(d, "launches.jsonl"))
    return meta, decisions, launches


def complete_rounds(launches):
    """The rounds that hold all three launches: [{kind: medians}]."""
    by_round = {}
    for l in launches:
        by_round.setdefault(l["round"], {})[l["kind"]] = l["medians"]
    return [r for r in by_round.values() if set(r) == {"D", "F", "C"}]


def ratios(launches):
    """point -> ([F/D per round], [C/D per round])"""
    out = {}
    for r in complete_rounds(launches):
        for point, d in r["D"].items():
            if point in r["F"] and point in r["C"] and d > 0:
                f, c = out.setdefault(point, ([], []))
                f.append(r["F"][point] / d)
                c.append(r["C"][point] / d)
    return out


def p_greater(a, b):
    """Exact one-sided p of the rank sum: that a's values are larger than
    b's (Mann-Whitney U; ties by mid-ranks), by counting every split of the
    pooled values (dynamic programming over the doubled mid-ranks)."""
    pooled = sorted([(x, True) for x in a] + [(y, False) for y in b])
    rank2, i = [], 0
    while i < len(pooled):
        j = i
        while j < len(pooled) and pooled[j][0] == pooled[i][0]:
            j += 1
        rank2 += [i + 1 + j] * (j - i)  # mid-rank, doubled
        i = j
    seen = sum(r for r, (_, mine) in zip(rank2, pooled) if mine)
    n = len(a)
    ways = [dict() for _ in range(n + 1)]  # ways[k][sum]
    ways[0][0] = 1
    for r in rank2:
        for k in range(n, 0, -1):
            for total, w in ways[k - 1].items():
                ways[k][total + r] = ways[k].get(total + r, 0) + w
    count = sum(ways[n].values())
    return sum(w for total, w in ways[n].items() if total >= seen) / count


def sign_p(below, n):
    """Exact one-sided sign test: the chance of at least `below` of n rounds
    under a claim if the true median sat exactly at it."""
    return sum(math.comb(n, i) for i in range(below, n + 1)) / 2 ** n


def sign_p_two_sided(above, n):
    """Exact two-sided sign test: the chance, with no difference, of a split
    of n rounds at least as uneven as `above` of them."""
    k = max(above, n - above)
    return min(1.0, 2 * sign_p(k, n)) if n else float("nan")


def launch_wide(launches, won):
    """Whether loading the file shifts a whole launch: per round, the
    median F/D and the median C/D over the points without a winner (where
    F runs the library's own choice, as D and C do). Returns (median over
    the rounds of each, rounds whose F/D is above their C/D, rounds)."""
    fs, cs, above = [], [], 0
    for r in complete_rounds(launches):
        plain = [p for p, d in r["D"].items()
                 if d > 0 and p in r["F"] and p in r["C"] and p not in won
                 and p.split("|")[0] + "|*" not in won]
        if not plain:
            continue
        f = median([r["F"][p] / r["D"][p] for p in plain])
        c = median([r["C"][p] / r["D"][p] for p in plain])
        fs.append(f)
        cs.append(c)
        above += f > c
    return (median(fs) if fs else float("nan"),
            median(cs) if cs else float("nan"), above, len(fs))


def envelope(controls, alpha=0.05):
    """The A/A control's upper bound for one point's median F/D: the
    set-up's median C/D, on a log scale, mean + z * sd with z the normal
    quantile at 1 - alpha / points (Bonferroni: under no change, some point
    of the set-up crosses it with probability alpha at most)."""
    logs = [math.log(c) for c in controls if c > 0]
    if len(logs) < 2:
        return float("nan")
    mean = sum(logs) / len(logs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / (len(logs) - 1))
    z = statistics.NormalDist().inv_cdf(1 - alpha / len(logs))
    return math.exp(mean + z * sd)


METHOD_OF = {"bcast": "coll_bcast"}


def winners(decisions):
    """point -> (winner name, claimed factor), keyed as the launches are."""
    return {k: (p["winner"]["name"], p.get("claimed", p["factor"]))
            for k, p in keyed(decisions).items()}


def pass_bounds(d):
    """point -> each pass's lower bound of a winner it kept (the passes'
    decisions bench/tuning stored: decisions_pass<n>.json), keyed as the
    launches are; a claim is the smallest of them."""
    out, n = {}, 1
    while bench_io.exists(os.path.join(d, f"decisions_pass{n}.json")):
        with open(os.path.join(d, f"decisions_pass{n}.json")) as f:
            for point, p in keyed(json.load(f)).items():
                out.setdefault(point, []).append(p["confirmation"]["at_least"])
        n += 1
    return out


def keyed(decisions):
    """The winners of a decisions file, keyed as the launches are."""
    out = {}
    for p in decisions["points"]:
        if "winner" not in p:
            continue
        method = METHOD_OF.get(p["collective"], p["collective"])
        # a barrier's winner holds at every size the launches name
        size = "*" if p["collective"] == "barrier" else p["size"]
        out[f"{method}|{size}"] = p
    return out


def setup_rows(d):
    meta, decisions, launches = load(d)
    r = ratios(launches)
    won = winners(decisions)
    bounds = pass_bounds(d)
    control = max((median(c) for f, c in r.values()), default=float("nan"))
    bound = envelope([median(c) for f, c in r.values()])
    beyond = []
    rows, slower, met_claim, met_threshold = [], [], 0, 0
    worse, worse_won, better_won, contradicted = [], 0, 0, 0
    for point in sorted(r, key=lambda p: (p.split("|")[0], int(p.split("|")[1])
                                          if p.split("|")[1].isdigit() else 0)):
        f, c = r[point]
        mf, mc = median(f), median(c)
        lo, hi = quartiles(f)
        hit = won.get(point) or won.get(point.split("|")[0] + "|*")
        if mf > control:
            slower.append(point + (" (winner)" if hit else ""))
        if mf > bound:
            beyond.append(point + (" (winner)" if hit else ""))
        if p_greater(f, c) < 0.05:
            worse.append(point)
            worse_won += bool(hit)
        if hit and p_greater(c, f) < 0.05:
            better_won += 1
        if hit:
            name, claimed = hit
            met_claim += (1 / mf) >= claimed
            met_threshold += (1 / mf) >= 1 + decisions["threshold"]
            below = sum(1 / x < claimed for x in f)
            p_claim = sign_p(below, len(f))
            contradicted += p_claim < 0.05
            key = point if point in won else point.split("|")[0] + "|*"
            rows.append((point, name, claimed, mf, lo, hi, mc, below, len(f),
                         p_claim, bounds.get(key, [])))
    return (meta, decisions, r, control, slower, rows, met_claim,
            met_threshold, worse, worse_won, better_won, bound, beyond,
            contradicted, launch_wide(launches, won))


def fmt(x, d=2):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}f}"


def cell(points):
    """Points for a table cell: "allreduce 8" (a bar would end the cell)."""
    return ", ".join(p.replace("|", " ") for p in points)


def passes(decisions):
    """The confirmation's passes: their winners, and whether the last kept
    them all (settled)."""
    p = decisions.get("passes", [])
    steps = " → ".join([str(p[0]["candidates"])] + [str(q["kept"]) for q in p]) if p else "-"
    return (f"{len(p)}: {steps}, "
            f"{'settled' if decisions.get('settled') else 'not settled'}")


def main():
    src, out, command = sys.argv[1:4]
    extra = " " + sys.argv[4] if len(sys.argv) > 4 else ""  # e.g. which run
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    where = os.path.relpath(os.path.abspath(src), root)
    recheck = ("" if "--recheck" not in command else
               " **A recheck**: no sweep and no confirmation here; the files "
               "and decisions are those the run named by --recheck wrote, "
               "evaluated again with the rounds above (the columns of the "
               "sweep and the passes are copied from that run).")
    names = sorted(n for n in bench_io.listdir(src)
                   if bench_io.exists(os.path.join(src, n, "launches.jsonl")))
    lines = [
        "# runner tune: the library's file against its default",
        "",
        f"Produced by `{command}` (bench/tuning, render_tuning.py); every "
        f"figure comes from the files under `{where}/`." + recheck + extra,
        "",
        "Per set-up: one tuning launch (`runner --algorithms all`, the nine "
        "collectives, 8 B to 1 MiB) and `runner tune` on it (the candidate "
        "file); then the confirmation: rounds of two launches without "
        "`--algorithms` in a shuffled order, the library's default and the "
        "candidate loaded, and `runner tune` on the sweep and those launches "
        "(docs/tuning.md, \"Confirming a file with launches\"), which keeps "
        "a winner only where the launches' lower bound of default / file is "
        "at least 1.05x and claims that bound (each of a pass's k winners "
        "at 1 - 0.05 / k, so that the file's claims hold together; a claim "
        "the smallest over the passes that kept it). Setting a winner aside "
        "changes the file, and with it what else runs in a launch, so the "
        "next pass confirms the new file the same way, until a pass keeps "
        "every winner (settled: the claims come from launches of the very "
        "file evaluated) or 3 passes. Then, apart from all that, "
        "the evaluation: rounds of three launches in a shuffled order, D "
        "(the library's default), F (the confirmed file loaded) and C (the "
        "default again, the A/A control). A launch's median of a point is one "
        "observation; F/D and C/D are taken per round and their median over "
        "the rounds is reported.",
        "",
        "**Goals**: no point slower with the file than the "
        "default beyond the A/A control, and every declared winner faster in "
        "the evaluation by at least the margin the file claimed. \"Beyond "
        "the A/A control\" is judged two ways. (a) The control's envelope: "
        "the set-up's median C/D on a log scale, mean + z sd, z at 1 - "
        "0.05/points (Bonferroni): with no change at all, some point of a "
        "set-up crosses it with probability 5% at most. (b) Strictly: above "
        "the largest median C/D of the set-up; a point with no winner runs "
        "the library's own choice under F too, a second A/A control, so "
        "under no change at all one of the 72 F/D is the largest of the 144 "
        "ratios about half the time: (b) fails by chance. Beside them, per "
        "point, the exact one-sided U test of the rounds' F/D against their "
        "C/D (p < 0.05, no correction: about 1 point in 20 is flagged by "
        "chance). And the whole launch, which the envelope, taken over "
        "points, cannot see: per round the median F/D and the median C/D "
        "over the points without a winner (where F runs the library's own "
        "choice), their medians over the rounds, and in how many rounds "
        "the F launch came out slower than the C launch (exact two-sided "
        "sign test: a file that slowed everything would make that most "
        "rounds). A claim is judged two ways too: the median D/F over the "
        "rounds at or above it, and, since that median is itself a sample, "
        "whether the rounds contradict it: the exact one-sided sign test of "
        "the rounds whose D/F fell below the claim (p < 0.05: 5 rounds of 5 "
        "below it; 4 of 5 gives p = 0.19).",
        "",
        "| set-up | ranks | oversubscribed | tuning launch | points | candidates of the sweep | confirmation passes | winners confirmed (points they cover) | A/A envelope | (a) points with F/D beyond it | A/A control: largest C/D | (b) points with F/D above it | points F significantly slower than C (of them under a winner) | the whole launch, points without a winner: median F/D / C/D; rounds F/D above C/D (sign test p) | winner points at their claimed margin | claims the evaluation contradicts | winner points at least 5% faster | winner points F significantly faster than C |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    details = []
    for n in names:
        (meta, decisions, r, control, slower, rows, claim, thr, worse,
         worse_won, better_won, bound, beyond,
         contradicted, wide) = setup_rows(os.path.join(src, n))
        wf, wc, above, nr = wide
        nwin = sum("winner" in p for p in decisions["points"])
        ncand = sum("confirmation" in p or "winner" in p
                    for p in decisions["points"])
        lines.append(
            f"| {n} | {meta['ranks']}{' (2 nodes)' if meta['cluster'] else ''} | "
            f"{'yes' if meta['oversubscribed'] or meta['cluster'] else 'no'} | "
            f"{meta['tuning_run_s']:.0f} s | {len(r)} | {ncand} | "
            f"{passes(decisions)} | "
            f"{nwin} ({len(rows)}) | {fmt(bound)} | "
            f"{len(beyond)}{': ' + cell(beyond) if beyond else ''} | "
            f"{fmt(control)} | "
            f"{len(slower)}{': ' + cell(slower) if slower else ''} | "
            f"{len(worse)} ({worse_won}) | "
            f"{fmt(wf, 3)} / {fmt(wc, 3)}; {above} of {nr} "
            f"({fmt(sign_p_two_sided(above, nr), 2)}) | "
            f"{claim} of {len(rows)} | {contradicted} | "
            f"{thr} of {len(rows)} | "
            f"{better_won} of {len(rows)} |")
        if rows:
            details += ["", f"### {n}: the declared winners", "",
                        "| point | winner | claimed margin (confirmation's lower bound) | each pass's bound | D/F median | rounds below the claim (sign test p) | F/D median | F/D quartiles | C/D median |",
                        "|---|---|---|---|---|---|---|---|---|"]
            for (point, name, claimed, mf, lo, hi, mc, below, n_rounds,
                 p_claim, each) in rows:
                each = ", ".join(f"{b:.2f}x" for b in each) or "-"
                details.append(f"| {point.replace('|', ' ')} | {name} | "
                               f"{claimed:.2f}x | {each} | {1 / mf:.2f}x | "
                               f"{below} of {n_rounds} ({p_claim:.3f}) | "
                               f"{mf:.3f} | {lo:.3f}-{hi:.3f} | "
                               f"{mc:.3f} |")
    st = [s for _, s in vmstat(src)]
    lines += ["", f"Steal (`vmstat 1`, column st) during the bench: median "
              f"{fmt(median(st), 0)}%, largest {max(st) if st else '-'}% "
              f"over {len(st)} seconds (`{where}/vmstat.txt`).",
              "", "F/D below 1: the file is faster. Oversubscribed set-ups "
              "(more ranks than this VM's 2 CPUs, and the emulated cluster, "
              "whose 4 ranks share them) time the ranks' competition for the "
              "CPUs as much as the algorithms: meaningful for this VM only."]
    lines += details
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
