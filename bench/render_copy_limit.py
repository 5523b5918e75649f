#!/usr/bin/env python3
"""Renders DIR.md from bench/copy_limit's files in DIR: each variant's rate
round by round against the osu_bw reference of its round, the control
(the reference again at the round's end), the copy limit, and per
hypothesis the ratios that test it, with vmstat's view of the machine."""
import bench_io  # docs/results' raw data, plain or gzip-compressed
from bench_io import open  # noqa: A004 (reads FILE or FILE.gz)
import json
import os
import re
import statistics
import sys

d = sys.argv[1]
WHAT = [
    ("osu_ref_a", "osu_bw -W 8 -b single, two-copy path (the reference)"),
    ("osu_w1", "window of 1 message"),
    ("osu_w64", "window of 64 messages"),
    ("osu_multi", "-b multiple: a buffer per message"),
    ("osu_frag4m", "FIFO fragments of 4 MiB, not 32 KiB"),
    ("osu_cma", "single-copy path (CMA): one copy"),
    ("osu_big", "4 x the size: buffers beyond the last-level cache"),
    ("stream_bw", "bench/stream_bw.c, the same stream in our code"),
    ("shm", "mpiarena shm, 1d xxlarge (median of its samples)"),
    ("cma_split", "mpiarena cma_split, 1d xxlarge, interleaved with shm"),
    ("shm_split", "mpiarena shm_split, 1d xxlarge, interleaved with them"),
    ("osu_ref_b", "the reference again (control)"),
    ("memcpy_np1_fresh", "memcpy, destination untouched (page faults), 1 rank"),
    ("memcpy_np1_memcpy", "memcpy, pre-touched, 1 rank"),
    ("memcpy_np1_nt", "copy with non-temporal stores, 1 rank"),
    ("glibc_nt_np1_memcpy", "glibc memcpy, non-temporal threshold lowered"),
    ("memcpy_np1_chunked", "two copies through a 32 KiB fragment, 1 rank"),
    ("memcpy_np1_read", "read only, 1 rank"),
    ("memcpy_np1_write", "write only (memset), 1 rank"),
    ("memcpy_np2_memcpy", "memcpy, pre-touched, 2 ranks at once (aggregate)"),
    ("memcpy_np2_nt", "non-temporal copy, 2 ranks at once (aggregate)"),
    ("memcpy_np2_chunked", "two copies through a fragment, 2 ranks (aggregate)"),
    ("memcpy_np2_read", "read only, 2 ranks (aggregate)"),
    ("memcpy_np2_write", "write only, 2 ranks (aggregate)"),
    ("memcpy_big_np1_memcpy", "memcpy at 4 x the size, 1 rank"),
    ("memcpy_big_np1_nt", "non-temporal copy at 4 x the size, 1 rank"),
    ("split_own", "shared segment, each of 2 ranks copies its own "
     "(aggregate, non-temporal)"),
    ("split_split", "shared segment, one copy split in halves over 2 ranks "
     "(non-temporal)"),
    ("split_huge_own", "as split_own, on transparent huge pages"),
    ("split_huge_split", "as split_split, on transparent huge pages"),
]
rounds = {}
for f in sorted(bench_io.glob(os.path.join(d, "round_*.tsv"))):
    r = int(re.search(r"round_(\d+)", f).group(1))
    vals = {}
    for line in open(f):
        parts = line.split()
        if len(parts) == 2:
            try:
                vals[parts[0]] = float(parts[1])
            except ValueError:
                pass
    rounds[r] = vals
order = sorted(rounds)
limits, split, shared = {}, {}, {}
for r in order:
    path = os.path.join(d, f"shm_r{r}.json")
    if bench_io.exists(path):
        for rec in json.load(open(path))["records"]:
            if rec["method"] == "shm":
                limits[r] = rec.get("copy_limit", {})
            elif rec["method"] == "cma_split":
                split[r] = rec.get("copy_limit", {})
            elif rec["method"] == "shm_split":
                shared[r] = rec.get("copy_limit", {})


def vmstat_summary():
    path = os.path.join(d, "vmstat.txt")
    if not bench_io.exists(path):
        return "no vmstat"
    cols, rows = None, []
    for line in open(path):
        f = line.split()
        if "st" in f and "us" in f:
            cols = f
            continue
        if cols and f and f[0].isdigit():
            rows.append(dict(zip(cols, f)))
    if not rows:
        return "no vmstat rows"
    med = lambda k: statistics.median(int(x[k]) for x in rows)  # noqa: E731
    # The bench's own two ranks poll on both CPUs (idle near 0 %, 2-3
    # runnable): more runnable than that is someone else's work.
    busy = (" The machine was busy with other work (runnable median "
            f"{med('r')} on 2 CPUs): these figures are not its own."
            if med("r") > 3 else "")
    return (f"vmstat over the run ({len(rows)} s): runnable `r` median "
            f"{med('r')} (2 CPUs), idle `id` median {med('id')} %, steal `st` "
            f"median {med('st')} %, max {max(int(x['st']) for x in rows)} %."
            + busy)


def ratio(a, b, r):
    va, vb = rounds[r].get(a), rounds[r].get(b)
    return va / vb if va and vb else None


def med_ratio(a, b):
    xs = [x for x in (ratio(a, b, r) for r in order) if x]
    return statistics.median(xs) if xs else None


def fmt(x, unit=""):
    return "-" if x is None else f"{x:.2f}{unit}"


controls = [x for x in (ratio("osu_ref_b", "osu_ref_a", r) for r in order) if x]
lo = min(controls) if controls else None
hi = max(controls) if controls else None


# Ratios between two runs of bench/memcpy_bw.c (or across kinds) have no
# control of their own: a band of 10 % around 1 stands for it.
BAND = (0.9, 1.1)


def band_of(a, b):
    osu = ("osu", "stream", "shm", "cma")
    if a.startswith(osu) and b.startswith(osu) and lo is not None:
        return lo * 0.95, hi * 1.05
    return BAND


def verdict(x, band):
    if x is None:
        return "not measured"
    if band[0] <= x <= band[1]:
        return "within %.2f-%.2f: no effect seen" % band
    return "outside %.2f-%.2f: " % band + ("faster" if x > 1 else "slower")


cmd = open(os.path.join(d, "command.txt")).read().strip()
size = None
for r in order:
    if limits.get(r):
        size = limits[r]["bytes"]
out = [
    "# What osu_bw and shm measure above the copy limit\n",
    f"Generated by `{cmd}` (bench/render_copy_limit.py); 2 ranks on the "
    "2 CPUs of one VM, payload " +
    (f"{size / 1e6:.0f} MB" if size else "xxlarge") + ". Every rate is "
    "bytes of payload per second (GB = 1e9 B); a variant changes one thing "
    "against the reference, and its ratio is taken to the reference of the "
    "same round. The reference runs first and last in each round: its "
    "control ratio (last / first) is the spread a change must leave to "
    "count.\n",
    vmstat_summary() + "\n",
    "| variant | what changes | " + " | ".join(f"round {r} GB/s" for r in order) +
    " | median GB/s | median / reference |",
    "|---|---|" + "---:|" * (len(order) + 2),
]
for key, what in WHAT:
    vals = [rounds[r].get(key) for r in order]
    if not any(vals):
        continue
    got = [v for v in vals if v]
    rel = med_ratio(key, "osu_ref_a") if key.startswith(("osu", "stream", "shm", "cma")) else None
    out.append(f"| `{key}` | {what} | " +
               " | ".join(fmt(v / 1e9 if v else None) for v in vals) +
               f" | {fmt(statistics.median(got) / 1e9)} | {fmt(rel)} |")
out += ["", "Control (reference last / first): " +
        ", ".join(f"{x:.2f}" for x in controls) + ".\n"]
out += ["## The copy limit of the same run\n",
        "From the runner's records of `shm`, `cma_split` and `shm_split` "
        "(their "
        "`copy_limit`: the best of 5 copies of each kind, memcpy and "
        "non-temporal stores, between pre-touched buffers); the last "
        "column holds osu_bw's two copies against the same limit:\n",
        "| round | runner one core GB/s | runner 2 ranks GB/s | shm GB/s | "
        "shm fraction | cma_split fraction | shm_split fraction | osu_bw "
        "ref x 2 copies / runner 2 ranks |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|"]
for r in order:
    c = limits.get(r) or {}
    one, two = c.get("one_core_Bps"), c.get("all_ranks_Bps")
    ref = rounds[r].get("osu_ref_a")
    out.append(f"| {r} | {fmt(one / 1e9 if one else None)} | "
               f"{fmt(two / 1e9 if two else None)} | "
               f"{fmt(rounds[r].get('shm', 0) / 1e9 or None)} | "
               f"{fmt(c.get('fraction'))} | "
               f"{fmt((split.get(r) or {}).get('fraction'))} | "
               f"{fmt((shared.get(r) or {}).get('fraction'))} | "
               f"{fmt(2 * ref / two if ref and two else None)} |")
for name, src in (("shm", limits), ("cma_split", split),
                  ("shm_split", shared)):
    fr = [(src.get(r) or {}).get("fraction") for r in order]
    fr = [x for x in fr if x is not None]
    if fr:
        out += ["", f"{name} at 0.9 of the copy limit or more (its record's "
                f"fraction against the 2 ranks' limit): "
                f"{sum(x >= 0.9 for x in fr)} of {len(fr)} rounds (fractions "
                f"{', '.join(f'{x:.2f}' for x in fr)})."]
H = [
    ("The FIFO fragments stay in cache, so the two copies cost one DRAM "
     "read and one DRAM write per byte, made by two cores at once",
     [("osu_frag4m", "osu_ref_a", "fragments of 4 MiB / 32 KiB"),
      ("memcpy_np1_chunked", "memcpy_np1_memcpy",
       "two copies through a 32 KiB fragment / one memcpy, one core"),
      ("osu_ref_a", "memcpy_np1_memcpy", "osu_bw / one-core memcpy"),
      ("osu_ref_a", "memcpy_np2_memcpy", "osu_bw / 2-rank aggregate memcpy")]),
    ("The window reuses one buffer (it stays in the last-level cache)",
     [("osu_multi", "osu_ref_a", "-b multiple / -b single"),
      ("osu_big", "osu_ref_a", "4 x the size / the size")]),
    ("Completion is counted early",
     [("osu_w1", "osu_ref_a", "window 1 / window 8 (each message acknowledged)"),
      ("osu_w64", "osu_ref_a", "window 64 / window 8"),
      ("stream_bw", "osu_ref_a", "our stream (acknowledged after its receives) / osu_bw")]),
    ("One copy split over both cores reaches the copy limit when both "
     "buffers are in shared memory",
     [("split_split", "split_own", "one copy, halves on 2 ranks / each "
       "rank its own copy"),
      ("split_huge_split", "split_split", "on huge pages / on 4 KiB pages"),
      ("shm", "split_split", "mpiarena shm / the split copy"),
      ("cma_split", "split_split", "mpiarena cma_split / the split copy"),
      ("shm_split", "split_split", "mpiarena shm_split / the split copy")]),
    ("memcpy is measured badly (page faults, no non-temporal stores)",
     [("memcpy_np1_fresh", "memcpy_np1_memcpy", "untouched / pre-touched destination"),
      ("memcpy_np1_nt", "memcpy_np1_memcpy", "non-temporal stores / memcpy"),
      ("glibc_nt_np1_memcpy", "memcpy_np1_memcpy", "glibc with non-temporal stores / without"),
      ("memcpy_big_np1_memcpy", "memcpy_np1_memcpy", "memcpy at 4 x the size / the size")]),
]
out += ["", "## The hypotheses, one variable at a time\n",
        "Each ratio is the median over the rounds of the ratio within a "
        "round. A ratio of two osu_bw-like runs counts as an effect only "
        f"outside the control's spread ({fmt(lo)} to {fmt(hi)}, widened by "
        "5 %); a ratio between bench/memcpy_bw.c's runs, or across kinds, "
        "outside 0.90-1.10.\n",
        "| hypothesis | test | median ratio | per round | reading |",
        "|---|---|---:|---|---|"]
for title, tests in H:
    for a, b, what in tests:
        x = med_ratio(a, b)
        per = ", ".join(fmt(ratio(a, b, r)) for r in order)
        out.append(f"| {title} | {what} | {fmt(x)} | {per} | "
                   f"{verdict(x, band_of(a, b))} |")


def effect(x, band):
    """+1 faster, -1 slower, 0 within the band, None unknown."""
    if x is None:
        return None
    return 0 if band[0] <= x <= band[1] else (1 if x > 1 else -1)


def sentence(a, b, faster, slower, same):
    x = med_ratio(a, b)
    e = effect(x, band_of(a, b))
    if e is None:
        return None
    return (faster if e > 0 else slower if e < 0 else same).format(fmt(x))


reading = [
    sentence("osu_ref_a", "memcpy_np1_memcpy",
             "osu_bw moves its payload {}x as fast as one core's memcpy "
             "copies it, although it copies every byte twice.",
             "osu_bw moves its payload at {}x one core's memcpy: below "
             "the copy limit in this run.",
             "osu_bw moves its payload at {}x one core's memcpy."),
    sentence("memcpy_np1_chunked", "memcpy_np1_memcpy",
             "Two copies through a 32 KiB fragment on ONE core run {}x "
             "as fast as one memcpy: the fragment stays in cache, so the "
             "second copy costs next to nothing in memory traffic.",
             "Two copies through a 32 KiB fragment on one core run at {}x "
             "one memcpy: the second copy is not free.",
             "Two copies through a 32 KiB fragment on one core run at {}x "
             "one memcpy: the second copy, from a fragment in cache, costs "
             "little, so a FIFO's two copies cost memory about what one "
             "memcpy does."),
    sentence("osu_frag4m", "osu_ref_a",
             "FIFO fragments of 4 MiB make osu_bw faster ({}x).",
             "FIFO fragments of 4 MiB, too large for a core's L2, slow "
             "osu_bw ({}x): its speed rests on fragments that stay in "
             "cache.",
             "FIFO fragments of 4 MiB leave osu_bw where it was ({}x)."),
    sentence("osu_multi", "osu_ref_a",
             "A buffer per message (-b multiple) is faster ({}x).",
             "A buffer per message (-b multiple) is slower ({}x): the "
             "reused buffer stays in cache.",
             "A buffer per message (-b multiple) changes nothing ({}x): "
             "the reuse of one buffer is not what makes it fast."),
    sentence("osu_big", "osu_ref_a",
             "At 4x the size osu_bw is faster ({}x).",
             "At 4x the size, beyond the last-level cache, osu_bw slows "
             "({}x): at the size measured its buffers are partly served "
             "from the last-level cache.",
             "At 4x the size, beyond the last-level cache, osu_bw keeps "
             "its rate ({}x): the cache does not carry it."),
    sentence("stream_bw", "osu_ref_a",
             "Our own stream, which stops its clock after the receiver's "
             "acknowledgement of the window, reads {}x osu_bw.",
             "Our own stream, which stops its clock after the receiver's "
             "acknowledgement of the window, reads {}x osu_bw.",
             "Our own stream, which stops its clock after the receiver's "
             "acknowledgement of the window, reads the same ({}x): nothing "
             "is counted before it arrived."),
    sentence("memcpy_np1_fresh", "memcpy_np1_memcpy",
             "A memcpy into untouched pages is faster ({}x).",
             "A memcpy into untouched pages runs at {}x the pre-touched "
             "one: a limit measured with page faults is too low (the "
             "runner touches every page first).",
             "Page faults cost the first memcpy little ({}x)."),
    sentence("split_split", "split_own",
             "One copy split in halves over the 2 ranks, between buffers "
             "in one shared segment, moves {}x the payload rate of every "
             "rank copying its own.",
             "One copy split in halves over the 2 ranks, between buffers "
             "in one shared segment, reaches {}x the rate of every rank "
             "copying its own.",
             "One copy split in halves over the 2 ranks, between buffers "
             "in one shared segment, reaches the copy limit ({}x the rate "
             "of every rank copying its own): a method whose payload "
             "lives in shared memory can reach it."),
    sentence("memcpy_np1_nt", "memcpy_np1_memcpy",
             "Non-temporal stores copy {}x as fast as glibc's memcpy at "
             "this size: a limit taken from memcpy alone is low.",
             "Non-temporal stores copy slower ({}x) than glibc's memcpy "
             "at this size.",
             "Non-temporal stores copy as fast as glibc's memcpy ({}x)."),
]
out += ["", "## Reading\n",
        "Sentences chosen by the ratios above (the control's spread, or "
        "the 10 % band, decides between faster, slower and the same):\n"]
out += [f"- {x}" for x in reading if x]
with open(d.rstrip("/") + ".md", "w") as f:
    f.write("\n".join(out) + "\n")
print("\n".join(out))
