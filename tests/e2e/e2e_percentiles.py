#!/usr/bin/env python3
"""OSU 7.3's percentiles (issue 45): p50, p95, p99 of a point's samples.

    e2e_percentiles.py record --np N   -m allreduce -i 1 -r 200 --sizes 8
                                        (one operation per sample, as OSU's
                                        per-iteration times): the record's
                                        time_s holds p50, p95 and p99, ordered
                                        between min and max, each the
                                        nearest-rank percentile of its own
                                        samples_s.max computed here; the
                                        table (--percentiles), markdown, csv
                                        and html show them.
    e2e_percentiles.py few --np N      too few samples: -r 10 gives p50 only,
                                        -r 1 none, and the table says '-';
                                        validate refuses a percentile its
                                        samples cannot give or contradict;
                                        a file without them (written before
                                        they existed) validates, reports and
                                        compares; --percentiles where it has
                                        no table exits 2 with one message.
"""
import csv
import io
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, env, launch, show, suite_main  # noqa: E402

NAMES = ("p50", "p95", "p99")
# The fewest samples each is given for: 100 / (100 - p), rounded up.
MIN_SAMPLES = {"p50": 2, "p95": 20, "p99": 100}


def nearest_rank(samples, p):
    """The ceil(n * p / 100)-th smallest sample (whole-number arithmetic),
    or None below MIN_SAMPLES."""
    n = len(samples)
    if n < MIN_SAMPLES[f"p{p}"]:
        return None
    rank = (n * p + 99) // 100
    return sorted(samples)[rank - 1]


def run_fixed(a, reps, args, out):
    """-m allreduce -i 1 (one operation per sample, so no --min-time) at
    a.np ranks, `reps` samples, writing `out`."""
    if os.path.exists(out):
        os.remove(out)
    cmd = launch(a) + [a.runner, "-m", "allreduce", "-i", "1", "--sizes", "8",
                       "-r", str(reps), "-o", out] + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=280, env=env())
    return show(cmd, p)


def tool(a, args):
    p = subprocess.run([a.runner] + args, capture_output=True, text=True, env=env())
    return show(["runner"] + args, p)


def load(path):
    with open(path) as f:
        return json.load(f)


def check_agrees(t, samples, where):
    """time_s `t` holds exactly the percentiles `samples` give, ordered."""
    for name in NAMES:
        want = nearest_rank(samples, int(name[1:]))
        if want is None:
            check(name not in t, f"{where}: {name} given for {len(samples)} samples")
        else:
            check(name in t, f"{where}: no {name} for {len(samples)} samples")
            check(math.isclose(t[name], want, rel_tol=1e-12, abs_tol=0),
                  f"{where}: {name} {t[name]} != nearest rank of samples_s.max {want}")
    given = [t[k] for k in ("min",) + NAMES + ("max",) if k in t]
    check(given == sorted(given), f"{where}: not min <= p50 <= p95 <= p99 <= max: {given}")


def test_record(a):
    out = os.path.join(a.workdir, "osu.json")
    p = run_fixed(a, 200, ["--percentiles"], out)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    v = tool(a, ["validate", out])
    check(v.returncode == 0, "the run's file does not validate")
    rec = load(out)["records"][0]
    check(rec["verification"]["status"] == "passed", f"{rec['verification']}")
    check(rec["inner_iterations"] == 1 and len(rec["samples_s"]["max"]) == 200,
          f"{rec['inner_iterations']} x {len(rec['samples_s']['max'])}, expected 1 x 200")
    t = rec["time_s"]
    check(all(k in t for k in NAMES), f"time_s lacks a percentile: {sorted(t)}")
    check_agrees(t, rec["samples_s"]["max"], "allreduce 8 B")
    # The run's table (--percentiles) has the three columns.
    header = next((line.split() for line in p.stdout.splitlines()
                   if {"method", "median"} <= set(line.split())), [])
    check("min" in header and header[header.index("min") + 1:][:3] == list(NAMES),
          f"the table's columns are not ... min p50 p95 p99 ...: {header}")
    # report: markdown with --percentiles, csv and html without it.
    md = tool(a, ["report", out, "--format", "markdown", "--percentiles"])
    check(md.returncode == 0 and "| median | min | p50 | p95 | p99 |" in md.stdout,
          "markdown report lacks the percentile columns")
    plain = tool(a, ["report", out])
    check(plain.returncode == 0 and " p95 " not in plain.stdout,
          "the default table shows percentiles unasked (OSU prints them with -z)")
    c = tool(a, ["report", out, "--format", "csv"])
    check(c.returncode == 0, "report --format csv failed")
    row = next(csv.DictReader(io.StringIO(c.stdout)))
    for name in NAMES:
        check(float(row[f"{name}_s"]) == t[name], f"csv {name}_s {row[f'{name}_s']} != {t[name]}")
    html = os.path.join(a.workdir, "osu.html")
    h = tool(a, ["report", out, "--format", "html", "-o", html])
    check(h.returncode == 0, "report --format html failed")
    with open(html) as f:
        page = f.read()
    check(all(f">{k}</th>" in page for k in NAMES), "the page's table lacks p50/p95/p99")


def test_few(a):
    # -r 10: p50 only; -r 1: none.
    ten = os.path.join(a.workdir, "ten.json")
    p = run_fixed(a, 10, ["--percentiles"], ten)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    rec = load(ten)["records"][0]
    check("p50" in rec["time_s"] and "p95" not in rec["time_s"]
          and "p99" not in rec["time_s"], f"10 samples: {sorted(rec['time_s'])}")
    check_agrees(rec["time_s"], rec["samples_s"]["max"], "10 samples")
    row = next(line for line in p.stdout.splitlines() if "allreduce" in line)
    check(row.split().count("-") >= 2, f"the table gives no '-' for p95, p99: {row!r}")
    one = os.path.join(a.workdir, "one.json")
    p = run_fixed(a, 1, [], one)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    t = load(one)["records"][0]["time_s"]
    check(not any(k in t for k in NAMES), f"1 sample has percentiles: {sorted(t)}")

    # validate refuses a p99 for 10 samples, and a p50 its samples contradict.
    doc = load(ten)
    doc["records"][0]["time_s"]["p99"] = doc["records"][0]["time_s"]["max"]
    bad = os.path.join(a.workdir, "p99_of_10.json")
    with open(bad, "w") as f:
        json.dump(doc, f)
    v = tool(a, ["validate", bad])
    check(v.returncode == 1 and "p99 needs at least 100" in v.stdout + v.stderr,
          f"validate of a p99 from 10 samples: exit {v.returncode}")
    doc = load(ten)
    t = doc["records"][0]["time_s"]
    t["p50"] = t["max"] * 2
    bad = os.path.join(a.workdir, "p50_above_max.json")
    with open(bad, "w") as f:
        json.dump(doc, f)
    v = tool(a, ["validate", bad])
    check(v.returncode == 1 and "[time_s][p50]" in v.stdout + v.stderr
          and "is above max" in v.stdout + v.stderr,
          f"validate of a p50 above max: exit {v.returncode}")

    # A file written before percentiles existed: valid, reported, compared.
    doc = load(ten)
    for r in doc["records"]:
        for k in NAMES:
            r["time_s"].pop(k, None)
    old = os.path.join(a.workdir, "old.json")
    with open(old, "w") as f:
        json.dump(doc, f)
    check(tool(a, ["validate", old]).returncode == 0, "an old file does not validate")
    r = tool(a, ["report", old, "--percentiles"])
    check(r.returncode == 0 and " p50 " in r.stdout, "report --percentiles of an old file")
    c = tool(a, ["compare", old, ten])
    check(c.returncode in (0, 1), f"compare of an old file and a new one: exit {c.returncode}")
    c = tool(a, ["report", old, "--format", "csv"])
    row = next(csv.DictReader(io.StringIO(c.stdout)))
    check(c.returncode == 0 and row["p50_s"] == "", f"csv of an old file: {row.get('p50_s')!r}")

    # --percentiles where there is no table: exit 2, one message.
    for args, words in ((["report", ten, "--percentiles", "--format", "json"],
                         "--percentiles adds columns to a table"),
                        (["compare", ten, ten, "--percentiles"], "percentiles")):
        e = tool(a, args)
        check(e.returncode == 2 and words in e.stderr,
              f"{' '.join(args)}: exit {e.returncode}, expected 2 naming {words!r}")


if __name__ == "__main__":
    sys.exit(suite_main({"record": test_record, "few": test_few}))
