#!/usr/bin/env python3
"""End-to-end test of the trend page (`runner trend ... --format html`)
made from real runs, one with an injected huge sample.

trend-page:  five small runs of the runner at 2 ranks (bcast and raw at
             8 B and small), the third with the slowest sample of one point
             made 2000 times its median (the record's figures recomputed;
             runner validate accepts it). On the page: every chart is
             titled with the store's name of its point (as `history add`
             writes it in series.point); no y tick reaches the huge sample,
             a caret at the top edge gives its value; every median dot sits
             well above the axis. The page of `trend --db` names the same
             points. In Debian's headless Chromium (skipped when it is
             missing): no error, every chart drew, no text past a chart's
             edge, and a screenshot whose pixels show the charts' blue
             median lines (not blank).
history-page: the page of the 48 launches of docs/results/history (a
             noisy 2-core VM), one of them with a sample 2000 times its
             median injected: the same checks, every median of 22 charts
             of 48 runs off the axis; in Chromium, drawn and screenshot.
Same harness as e2e.py; each is one ctest test.
"""
import argparse
import glob
import gzip
import json
import math
import os
import re
import shutil
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Fail, Skip, run_test, add_mpi_args, check, env, launch, out_path, parse_args, show  # noqa: E402
from e2e_report import SVG, browser_check, charts_of, chromium, runner, write  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
HUGE = 2000  # the injected sample, in medians


def seconds(label):
    """'15.5 us' -> 1.55e-05."""
    value, unit = label.split()
    return float(value) * UNITS[unit]


def one_run(a, i):
    path = out_path(a, f"page_run{i}.json")
    cmd = launch(a, 2) + [a.runner, "-q", "-m", "bcast,raw", "-s", "8,small",
                          "--iterations", "20", "-r", "7", "--retry-noisy", "0",
                          "-o", path]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env())
    show(cmd, p)
    check(p.returncode == 0, f"run {i} exited {p.returncode}")
    return path


def inject(doc):
    """The slowest sample of the first record made HUGE times its median
    (the order of the samples kept, so the median stays), the record's
    time figures recomputed from its samples. Returns that value."""
    r = doc["records"][0]
    samples = r["samples_s"]["max"]
    k = samples.index(max(samples))
    samples[k] = r["time_s"]["median"] * HUGE
    n = len(samples)
    mean = sum(samples) / n
    sd = math.sqrt(sum((s - mean) ** 2 for s in samples) / (n - 1)) if n > 1 else 0.0
    r["time_s"].update({"max": max(samples), "mean": mean, "stddev": sd,
                        "cv": sd / mean if mean > 0 else 0.0})
    return samples[k]


def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit PNG, standard
    library only."""
    with open(path, "rb") as f:
        data = f.read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "the screenshot is not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    w, h, depth, ctype = ihdr[:4]
    check(depth == 8 and ctype in (2, 6), f"PNG depth {depth} colour type {ctype}")
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - bpp] if x >= bpp else 0
            up, ul = prev[x], prev[x - bpp] if x >= bpp else 0
            if ft == 1:
                line[x] = (line[x] + left) & 255
            elif ft == 2:
                line[x] = (line[x] + up) & 255
            elif ft == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif ft == 4:
                pa, pb, pc = abs(up - ul), abs(left - ul), abs(left + up - 2 * ul)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else ul)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def screenshot(a, html, name, size):
    shot = out_path(a, name)
    with tempfile.TemporaryDirectory() as profile:
        p = chromium(a, [f"--window-size={size}", f"--screenshot={shot}", "file://" + html],
                     profile)
    check(os.path.exists(shot), f"no screenshot (exit {p.returncode}): {p.stderr[-1500:]}")
    w, h, bpp, rows = png_pixels(shot)
    white = blue = 0
    for row in rows[::2]:
        for x in range(0, w * bpp, bpp * 2):
            r, g, b = row[x], row[x + 1], row[x + 2]
            white += r > 245 and g > 245 and b > 245
            # The median lines and the band (#4e79a7, lighter in the band).
            blue += b > r + 40 and b > g + 10
    total = len(rows[::2]) * len(range(0, w * bpp, bpp * 2))
    print(f"screenshot {shot}: {w}x{h}, {white / total:.1%} white, {blue} blue samples")
    check(white < 0.995 * total, "the screenshot is blank")
    check(blue > 200, f"the screenshot shows {blue} blue pixels sampled: no median line?")
    return shot


def check_page(a, page, medians, huge):
    """The charts of `page`: titled with the names of `medians` (store name
    -> the medians per run), scaled to the medians, the huge sample a
    caret; returns the charts."""
    root, svgs = charts_of(page)
    titles = [s.find(f"{SVG}title").text for s in svgs]
    check(sorted(titles) == sorted(medians), f"chart titles {titles}, store's points "
          f"{sorted(medians)}")
    carets = []
    for s in svgs:
        title = s.find(f"{SVG}title").text
        ticks = [seconds(t.text) for t in s.iter(f"{SVG}text")
                 if "ytick" in (t.get("class") or "").split()]
        check(len(ticks) >= 2, f"{title}: {len(ticks)} y ticks")
        lo, hi = min(medians[title]), max(medians[title])
        check(max(ticks) < 2 * hi and min(ticks) > lo / 2,
              f"{title}: y ticks {min(ticks)} to {max(ticks)} s for medians {lo} to {hi} s "
              f"(the huge sample: {huge} s)")
        plot = s.find(f"{SVG}rect[@class='plot']")
        bottom = float(plot.get("y")) + float(plot.get("height"))
        for dot in s.iter(f"{SVG}circle"):
            if "dot" in (dot.get("class") or "").split():
                check(float(dot.get("cy")) < bottom - 8,
                      f"{title}: a median at y {dot.get('cy')}, the axis at {bottom}")
        for e in s.iter(f"{SVG}polygon"):
            if "high" in (e.get("class") or "").split():
                carets.append(e.find(f"{SVG}title").text)
    want = f"slowest sample {huge * 1e6:.2f} us" if huge < 1e-3 else \
        f"slowest sample {huge * 1e3:.2f} ms"
    check(any(want in c for c in carets), f"no caret says {want!r}: {carets}")
    return svgs


def test_trend_page(a):
    paths = [one_run(a, i) for i in range(1, 6)]
    with open(paths[2]) as f:
        doc = json.load(f)
    huge = inject(doc)
    paths[2] = write(a, "page_run3_huge.json", doc)
    p = runner(a, ["validate", paths[2]])
    check(p.returncode == 0, f"the forged run does not validate: {p.stdout}{p.stderr}")
    db = out_path(a, "page_store.sqlite")
    check(runner(a, ["history", "add"] + paths + ["--db", db]).returncode == 0,
          "history add")
    with sqlite3.connect(db) as c:
        names = sorted({row[0] for row in c.execute("SELECT point FROM series")})
    check(len(names) == 6, f"series points {names}")  # 8 B has no 2d payload
    t = json.loads(runner(a, ["trend"] + paths + ["--format", "json"]).stdout)
    medians = {pt.get("store_name"): [c["median_s"] for c in pt["cells"] if c["present"]]
               for g in t["groups"] for pt in g["points"]}
    check(sorted(medians) == names, f"trend's store_name {sorted(medians)}, the store's {names}")
    html = out_path(a, "trend_page.html")
    check(runner(a, ["trend"] + paths + ["--format", "html", "-o", html]).returncode == 0,
          "trend --format html")
    page = open(html, encoding="utf-8").read()
    svgs = check_page(a, page, medians, huge)
    text = "".join(charts_of(page)[0].itertext())
    check(os.path.basename(paths[2]) in text, "the runs table lacks the files")
    db_html = out_path(a, "trend_db_page.html")
    check(runner(a, ["trend", "--db", db, "--format", "html", "-o", db_html]).returncode == 0,
          "trend --db --format html")
    check_page(a, open(db_html, encoding="utf-8").read(), medians, huge)
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        raise Skip("chromium is not installed (scripts/setup installs it): the page was "
                   "checked as XML only")
    browser_check(a, page, "trend_page_checked.html", len(svgs))
    screenshot(a, html, "trend_page.png", "1400,1400")


def test_history_page(a):
    paths = sorted(glob.glob(os.path.join(ROOT, "docs", "results", "history", "launches",
                                          "launch_*.json.gz")))
    check(len(paths) >= 40, f"{len(paths)} launches in docs/results/history")
    with gzip.open(paths[20], "rt") as f:
        doc = json.load(f)
    huge = inject(doc)
    paths[20] = write(a, "history_launch_huge.json", doc)
    p = runner(a, ["validate", paths[20]])
    check(p.returncode == 0, f"the forged launch does not validate: {p.stdout}{p.stderr}")
    t = json.loads(runner(a, ["trend"] + paths + ["--format", "json"]).stdout)
    check(len(t["groups"]) == 1, f"{len(t['groups'])} groups")
    medians = {pt["store_name"]: [c["median_s"] for c in pt["cells"] if c["present"]]
               for pt in t["groups"][0]["points"]}
    html = out_path(a, "history_page.html")
    check(runner(a, ["trend"] + paths + ["--format", "html", "-o", html]).returncode == 0,
          "trend --format html")
    page = open(html, encoding="utf-8").read()
    svgs = check_page(a, page, medians, huge)
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        raise Skip("chromium is not installed (scripts/setup installs it): the page was "
                   "checked as XML only")
    browser_check(a, page, "history_page_checked.html", len(svgs))
    screenshot(a, html, "history_page.png", "1400,2600")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    tests = {"trend-page": test_trend_page, "history-page": test_history_page}
    return run_test(tests[a.test], a)


if __name__ == "__main__":
    sys.exit(main())
