#!/usr/bin/env python3
"""End-to-end tests of `runner report --format html` and `runner trend`.

html:            the page made from tests/fixtures/report_np2.json is one
                 self-contained, well-formed document whose every chart has
                 marks; Debian's headless Chromium loads it without an error,
                 every chart drew something on screen, and it takes a
                 screenshot (exit 77, skipped, when chromium is missing).
ab-page:         the page of a runner ab file gives runner compare FILE's
                 verdict per point and its exit code.
trend-step:      synthetic runs with a step change in one point: flagged at
                 the run of the step and nowhere else, runs in time order
                 whatever the order of the files.
trend-contexts:  runs whose ranks or MPI library differ are grouped apart,
                 with the reason.
bad-input:       wrong formats, files and outputs exit 2 with one message.
nightly:         docs/ci/nightly.sh three nights: the first is the baseline,
                 an unchanged second moves it, a third with a slowed method
                 (tests/plugins_slow, sleepy) exits 1, keeps the baseline,
                 and its trend page flags the third night.
Same harness as e2e.py; each is one ctest test.
"""
import argparse
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Fail, Skip, run_test, add_mpi_args, check, env, launch, out_path, parse_args, show  # noqa: E402
from e2e_compare import around, document, record, windowed  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "report_np2.json")
SVG = "{http://www.w3.org/2000/svg}"



def runner(a, args):
    p = subprocess.run([a.runner] + args, capture_output=True, text=True, env=env(),
                       timeout=120)
    show(["runner"] + args, p)
    return p


def write(a, name, doc):
    path = out_path(a, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


# ---------------------------------------------------------------- html


def charts_of(page):
    """The page parsed as XML (it must be well-formed) and its charts."""
    body = page.replace("<!DOCTYPE html>", "", 1)
    try:
        root = ET.fromstring(body)
    except ET.ParseError as e:
        raise Fail(f"the page is not well-formed: {e}")
    return root, root.findall(f".//{SVG}svg")


# Put in the page's head: collects every error (script or resource).
CATCH = ("<script>window.__errors=[];window.addEventListener('error',"
         "function(e){window.__errors.push(String(e.message||e.type))},true);</script>")
# Put at the end of its body: per chart, the marks that have a box on screen
# inside the chart, written into the DOM for --dump-dom.
MEASURE = """<script>(function(){
var out={errors:window.__errors,charts:[]};
document.querySelectorAll('svg.chart').forEach(function(svg){
  var box=svg.getBoundingClientRect(),drawn=0,marks=svg.querySelectorAll('.mark');
  marks.forEach(function(m){var r=m.getBoundingClientRect();
    if((r.width>0||r.height>0)&&r.right>=box.left&&r.left<=box.right&&
       r.bottom>=box.top&&r.top<=box.bottom)drawn++;});
  var over=0;svg.querySelectorAll('text').forEach(function(t){var r=t.getBoundingClientRect();
    if(r.width>0&&(r.left<box.left-1||r.right>box.right+1||r.top<box.top-1||
       r.bottom>box.bottom+1))over++;});
  var legends=[];svg.querySelectorAll('text.legend').forEach(function(t){
    var s='';t.querySelectorAll('tspan').forEach(function(p){s+=p.textContent;});
    legends.push(s);});
  out.charts.push({title:(svg.querySelector('title')||{}).textContent,
    width:box.width,height:box.height,marks:marks.length,drawn:drawn,overflow:over,
    legends:legends});});
var pre=document.createElement('pre');pre.id='browser-check';
pre.textContent=JSON.stringify(out);document.body.appendChild(pre);})();</script>"""

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def chromium(a, args, profile):
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    cmd = [exe] + CHROMIUM_FLAGS + [f"--user-data-dir={profile}"] + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p


def browser_check(a, page, name, charts):
    """`page` in headless Chromium: no error, each of its `charts` charts
    laid out, drawn, and no text past its edge. The measurements."""
    checked = out_path(a, name)
    with open(checked, "w", encoding="utf-8") as f:
        f.write(page.replace("<head>", "<head>" + CATCH, 1).replace("</body>", MEASURE + "</body>", 1))
    with tempfile.TemporaryDirectory() as profile:
        p = chromium(a, ["--window-size=1400,2000", "--dump-dom", "file://" + checked], profile)
    m = re.search(r'<pre id="browser-check">(.*?)</pre>', p.stdout, re.S)
    check(m is not None, f"chromium did not run the check (exit {p.returncode}): {p.stderr[-1500:]}")
    got = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&")
                     .replace("&lt;", "<").replace("&gt;", ">"))
    print(f"browser: {len(got['charts'])} charts, errors {got['errors']}")
    check(got["errors"] == [], f"the page raised errors in the browser: {got['errors']}")
    check(len(got["charts"]) == charts, f"browser saw {len(got['charts'])} charts, "
          f"the file has {charts}")
    for c in got["charts"]:
        check(c["width"] > 100 and c["height"] > 100, f"chart {c['title']} laid out {c}")
        check(c["drawn"] > 0, f"chart {c['title']} drew nothing on screen: {c}")
        check(c["overflow"] == 0, f"chart {c['title']}: text runs past the chart: {c}")
    return got


def test_html(a):
    html = out_path(a, "report.html")
    if os.path.exists(html):
        os.remove(html)
    p = runner(a, ["report", FIXTURE, "--format", "html", "-o", html])
    check(p.returncode == 0, f"report --format html exited {p.returncode}")
    check(p.stdout == "", "with -o nothing goes to stdout")
    page = open(html, encoding="utf-8").read()
    # Self-contained: no script, no stylesheet, image or frame to fetch, no
    # address but the SVG namespace.
    for bad in ("<script", "<link", "<img", "<iframe", "@import", "url("):
        check(bad not in page, f"the page holds {bad!r}: it must need nothing else")
    addresses = set(re.findall(r"https?://[^\"' )<]+", page))
    check(addresses <= {"http://www.w3.org/2000/svg"}, f"addresses in the page: {addresses}")
    root, svgs = charts_of(page)
    check(len(svgs) >= 15, f"{len(svgs)} charts, expected one per view")
    for svg in svgs:
        title = svg.find(f"{SVG}title")
        name = title.text if title is not None else "?"
        marks = [e for e in svg.iter() if "mark" in (e.get("class") or "").split()]
        check(marks, f"chart {name} has no mark")
        yticks = [e for e in svg.iter() if "ytick" in (e.get("class") or "").split()]
        check(len(yticks) >= 2, f"chart {name}: {len(yticks)} labelled y ticks, want 2 or more")
    text = "".join(root.itertext())
    doc = json.load(open(FIXTURE))
    suites = {(r["suite"], r["payload"]) for r in doc["records"]}
    for suite, payload in suites:
        check(f"{suite} / {payload} / 2 ranks" in text, f"no section for {suite} {payload}")
    for needle in ("Time against size", "Bandwidth against size", "Fastest method per size",
                   "Fitted model", "metric overlap", "phases of one operation",
                   "1d vs 2d", "Operation x synchronisation", "Context",
                   doc["context"]["mpi_library"].split(",")[0], "noise seen",
                   "transfer / 2d / 2 ranks"):
        check(needle in text, f"the page lacks {needle!r}")
    # Issue 44: every section has a table of its points with a verification
    # column, and the plugins (file, version, ABI) are a table of the page.
    for sec in root.iter("section"):
        title = "".join(sec.find("h2").itertext())
        heads = ["".join(th.itertext()) for th in sec.iter("th")]
        check("verified" in heads, f"section {title}: no table with a verified column")
        rows = [tr for tr in sec.iter("tr") if tr.find("td") is not None]
        check(len(rows) >= sum(1 for r in doc["records"]
                               if f"{r['suite']} / {r['payload']} / 2 ranks" == title),
              f"section {title}: fewer rows than points")
    plugins = [t for t in root.iter("table")
               if ["".join(th.itertext()) for th in t.iter("th")][:3] == ["file", "version", "ABI"]]
    check(len(plugins) == 1, "no table of the plugins")
    listed = {"".join(tr.find("td").itertext()) for tr in plugins[0].iter("tr")
              if tr.find("td") is not None}
    check(listed == {r["plugin"]["file"] for r in doc["records"]},
          f"the plugins table lists {sorted(listed)}")
    # The same document gives the same page.
    p2 = runner(a, ["report", FIXTURE, "--format", "html"])
    check(p2.returncode == 0 and p2.stdout == page, "the page differs from one run to the next")

    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        raise Skip("chromium is not installed (scripts/setup installs it): the page was "
                   "checked as XML only")
    browser_check(a, page, "report_checked.html", len(svgs))
    # Issue 44: long method labels ("name[opt=value,...]") were cut in the
    # legends ("chunked_pp[chunks=1] (mea."): each is shown whole, inside
    # its chart.
    long_doc = json.load(open(FIXTURE))
    labels = {"mpi_bytes": ("chunked_pp", {"chunks": "1", "mode": "PIPELINED_WIDE",
                                            "window": "64"}),
              "pingpong_isend": ("chunked_pp", {"chunks": "16"}),
              "put_fence": ("put_fence", {"target": "WIDE_REMOTE_WINDOW"})}
    for r in long_doc["records"]:
        if r["method"] in labels:
            r["method"], r["options"] = labels[r["method"]]
    long_json = write(a, "report_long_labels.json", long_doc)
    p = runner(a, ["report", long_json, "--format", "html"])
    check(p.returncode == 0, f"report of long labels exited {p.returncode}")
    _, long_svgs = charts_of(p.stdout)
    got = browser_check(a, p.stdout, "report_long_checked.html", len(long_svgs))
    shown = {t for c in got["charts"] for t in c["legends"]}
    for want in ("chunked_pp[chunks=1,mode=PIPELINED_WIDE,window=64]",
                 "chunked_pp[chunks=16]",
                 "put_fence[target=WIDE_REMOTE_WINDOW] (measured)",
                 "put_fence[target=WIDE_REMOTE_WINDOW] fit"):
        check(want in shown, f"no legend reads {want!r} whole: {sorted(shown)}")
    shot = out_path(a, "report.png")
    if os.path.exists(shot):
        os.remove(shot)
    with tempfile.TemporaryDirectory() as profile:
        p = chromium(a, ["--window-size=1400,2400", f"--screenshot={shot}", "file://" + html],
                     profile)
    check(os.path.exists(shot), f"no screenshot (exit {p.returncode}): {p.stderr[-1500:]}")
    with open(shot, "rb") as f:
        head = f.read(24)
    check(head[:8] == b"\x89PNG\r\n\x1a\n", "the screenshot is not a PNG")
    width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    check((width, height) == (1400, 2400), f"screenshot {width}x{height}")
    check(os.path.getsize(shot) > 50000, f"screenshot of {os.path.getsize(shot)} bytes: blank?")
    print(f"screenshot: {shot}")


# ---------------------------------------------------------------- ab-page


def test_ab_page(a):
    """Issue 44: the page of a runner ab file shows runner compare FILE's
    verdict per point and its exit code, the same as compare gives."""
    recs = []
    for build in ("base", "new"):
        new = build == "new"
        for method, base_s, new_s, options in (
                ("bcast", 10e-6, 15e-6, None), ("raw", 10e-6, 10e-6, None),
                ("pack", 10e-6, 7e-6, None),
                ("allreduce", 10e-6, 10e-6, {"algorithm": "ring"})):
            r = record(f"{method}@{build}", around(new_s if new else base_s, 15))
            r["plugin"]["build"] = build
            if options:
                r["options"] = options
            recs.append(r)
    path = write(a, "ab_page.json", document(recs))
    p = runner(a, ["compare", path, "--format", "json"])
    check(p.returncode == 1, f"compare of the ab file exited {p.returncode}, expected 1")
    judged = json.loads(p.stdout)
    want = {(q["suite"] + "/" + q["method"] + "/" + q["payload"]):
            q["verdict"].replace("noisy", "too noisy") for q in judged["points"]}
    check(len(want) == 4, f"compare judged {sorted(want)}")
    html = out_path(a, "ab_page.html")
    p = runner(a, ["report", path, "--format", "html", "-o", html])
    check(p.returncode == 0, f"report --format html of the ab file exited {p.returncode}")
    root, _ = charts_of(open(html, encoding="utf-8").read())
    body = root.find("body")
    kids = list(body)
    heads = [i for i, e in enumerate(kids) if e.tag == "h2" and e.get("id") == "ab"]
    check(len(heads) == 1, "no A/B judgement section")
    part = kids[heads[0]:next(i for i, e in enumerate(kids)
                              if e.tag == "h2" and e.get("id") == "context")]
    tables = [e for e in part if e.tag == "table"]
    check(len(tables) == 1, f"{len(tables)} verdict tables")
    header = ["".join(th.itertext()) for th in tables[0].iter("th")]
    for col in ("point", "base time", "new time", "time", "p (Holm)", "verdict"):
        check(col in header, f"the verdict table lacks {col!r}: {header}")
    got = {}
    for tr in tables[0].iter("tr"):
        cells = ["".join(td.itertext()) for td in tr.findall("td")]
        if cells:
            got[cells[0]] = cells[header.index("verdict")]
    check(got == want, f"the page's verdicts {got}, compare's {want}")
    text = "".join("".join(e.itertext()) for e in part)
    check(f"exit {judged['exit_code']}" in text, "the page does not give compare's exit code")
    check("1 regressed, 1 improved, 2 unchanged" in text, f"the counts: {text[-400:]}")


# ---------------------------------------------------------------- trend

POINTS = [("bcast", 11000), ("bcast", 1100000), ("pack", 11000), ("pack", 1100000)]


def run_doc(day, factors, **context):
    """A run on 2026-11-<day>: every point of POINTS around 10 us x its size
    class, times factors.get((method, size), 1), 1 per mille apart per day."""
    recs = []
    for method, size in POINTS:
        base = (10e-6 if size == 11000 else 400e-6) * (1 + 0.001 * day)
        recs.append(record(method, around(base * factors.get((method, size), 1.0), 5), size=size))
    ctx = {"start_time": f"2026-11-{day:02d}T02:00:00Z"}
    ctx.update(context)
    return document(recs, **ctx)


def trend_json(a, paths, extra=()):
    p = runner(a, ["trend"] + paths + ["--format", "json"] + list(extra))
    check(p.returncode == 0, f"trend exited {p.returncode}")
    return json.loads(p.stdout), p


def test_trend_step(a):
    step = ("pack", 1100000)
    paths = []
    for day in range(1, 7):
        f = {step: 1.5} if day >= 4 else {}
        paths.append(write(a, f"trend_day{day}.json", run_doc(day, f)))
    shuffled = [paths[i] for i in (3, 0, 5, 1, 4, 2)]
    t, _ = trend_json(a, shuffled)
    check([r["file"] for r in t["runs"]] == paths,
          f"runs not in time order: {[r['file'] for r in t['runs']]}")
    check(len(t["groups"]) == 1, f"one context, {len(t['groups'])} groups")
    g = t["groups"][0]
    check(g["flagged"] == 1, f"{g['flagged']} flags, expected the one step")
    flags = []
    for p in g["points"]:
        check(len(p["cells"]) == 6 and all(c["present"] for c in p["cells"]),
              f"{p['point']}: cells {p['cells']}")
        for c in p["cells"]:
            if c.get("flagged"):
                flags.append((p["point"], c["run"], c["verdict"], c["against_run"]))
    check(flags == [("transfer/pack/1d/1100000/np2", 4, "regressed", 3)],
          f"flags {flags}, expected pack 1100000 regressed at run 4 against run 3")
    cell = [p for p in g["points"] if p["point"] == "transfer/pack/1d/1100000/np2"][0]["cells"][3]
    check(abs(cell["change"] - 0.5) < 0.01 and cell["p"] < 0.05, f"the step's cell {cell}")
    # The table and the page say it too.
    p = runner(a, ["trend"] + shuffled)
    check(p.returncode == 0 and "REGRESSED" in p.stdout and "1 change flagged" in p.stdout,
          "the table flags the step")
    html = out_path(a, "trend.html")
    p = runner(a, ["trend"] + shuffled + ["--format", "html", "-o", html])
    check(p.returncode == 0, f"trend --format html exited {p.returncode}")
    root, svgs = charts_of(open(html, encoding="utf-8").read())
    check(len(svgs) == len(POINTS), f"{len(svgs)} trend charts for {len(POINTS)} points")
    rings = [e for s in svgs for e in s.iter() if "flag" in (e.get("class") or "").split()]
    check(len(rings) == 1 and "up" in rings[0].get("class"), f"rings {len(rings)}")
    # A change in a metric only (the time flat): flagged, naming the metric.
    docs = []
    for day in (1, 2):
        d = run_doc(day, {})
        for r in d["records"]:
            v = 40.0 if day == 1 else 10.0
            r["metrics"] = [{"name": "overlap", "unit": "%", "better": "higher",
                             "value": v, "samples": [v + 0.1 * i for i in range(5)]}]
        docs.append(write(a, f"trend_metric{day}.json", d))
    t, _ = trend_json(a, docs)
    cells = [p["cells"][1] for p in t["groups"][0]["points"]]
    check(all(c.get("flagged") and c["verdict"] == "regressed" and
              c.get("decided_by") == "metric:overlap" and abs(c["decided_change"] + 0.75) < 0.01
              and abs(c["change"]) < 0.01 for c in cells),
          f"a metric's change names the metric: {cells}")
    p = runner(a, ["trend"] + docs)
    check("REGRESSED by metric:overlap -75.0% (p " in p.stdout, "the table names the metric")
    # A step smaller than the threshold flags nothing.
    t, _ = trend_json(a, shuffled, ["--threshold", "60%"])
    check(t["groups"][0]["flagged"] == 0, "a 50% step under a 60% threshold is not flagged")


def test_trend_contexts(a):
    paths = [write(a, "ctx_a1.json", run_doc(1, {})),
             write(a, "ctx_b1.json", run_doc(2, {}, ranks=4, hosts=["node1", "node2"])),
             write(a, "ctx_a2.json", run_doc(3, {})),
             write(a, "ctx_c1.json", run_doc(4, {}, mpi_library="MPICH Version: 4.0.2")),
             write(a, "ctx_b2.json", run_doc(5, {}, ranks=4, hosts=["node2", "node1"]))]
    # By default another MPI library continues its group, with a boundary
    # at the run where it changes (and where it changes back).
    t, _ = trend_json(a, paths)
    groups = [[t["runs"][r - 1]["file"] for r in g["runs"]] for g in t["groups"]]
    check(groups == [[paths[0], paths[2], paths[3]], [paths[1], paths[4]]],
          f"groups across libraries {groups}")
    marks = [(t["runs"][b["run"] - 1]["file"], b["what"])
             for b in t["groups"][0]["boundaries"]]
    check(len(marks) == 1 and marks[0][0] == paths[3]
          and "-> MPICH Version: 4.0.2" in marks[0][1],
          f"the library's boundary: {marks}")
    check(t["groups"][1]["boundaries"] == [], "no boundary in group 2")
    t, p = trend_json(a, paths, ["--by-library"])
    groups = [[t["runs"][r - 1]["file"] for r in g["runs"]] for g in t["groups"]]
    check(groups == [[paths[0], paths[2]], [paths[1], paths[4]], [paths[3]]],
          f"groups {groups}")
    why = [g["why_apart"] for g in t["groups"]]
    check(why[0] == "", f"group 1 needs no reason: {why[0]}")
    check("ranks is '4', not '2'" in why[1] and "hosts" in why[1], f"group 2: {why[1]}")
    check("MPI library is 'MPICH Version: 4.0.2'" in why[2] and "ranks" not in why[2],
          f"group 3: {why[2]}")
    check(all(g["flagged"] == 0 for g in t["groups"]), "nothing changed within a group")
    text = runner(a, ["trend", "--by-library"] + paths).stdout
    check(text.count("grouped apart:") == 2, "a line per group set apart")


def test_trend_sync(a):
    """A barrier run and a window run time different things: trend never
    shows them as one series; window runs on different clocks neither."""
    def window_doc(day, clock):
        doc = run_doc(day, {}, command_line=["runner", "--sync", "window",
                                             "--clock-sync", clock])
        doc["records"] = [windowed(r, clock) for r in doc["records"]]
        return doc
    paths = [write(a, "sync_b1.json", run_doc(1, {})),
             write(a, "sync_w2.json", window_doc(2, "hca")),
             write(a, "sync_b3.json", run_doc(3, {})),
             write(a, "sync_w4.json", window_doc(4, "jk")),
             write(a, "sync_w5.json", window_doc(5, "hca"))]
    t, p = trend_json(a, paths)
    groups = [[t["runs"][r - 1]["file"] for r in g["runs"]] for g in t["groups"]]
    check(groups == [[paths[0], paths[2]], [paths[1], paths[4]], [paths[3]]],
          f"groups {groups}")
    why = [g["why_apart"] for g in t["groups"]]
    check("synchronization is 'window (clock hca, --sync-window calibrated)', "
          "not 'barrier'" in why[1], f"group 2: {why[1]}")
    check("clock jk" in why[2], f"group 3: {why[2]}")
    check(all("verdict" in c for g in t["groups"][:2] for pt in g["points"]
              for c in pt["cells"][1:]), "a run not compared with its group's previous")


def test_bad_input(a):
    good = write(a, "bad_good.json", run_doc(1, {}))
    broken = out_path(a, "bad_broken.json")
    with open(broken, "w") as f:
        f.write("{not json")
    cases = [
        (["trend"], ["'trend' needs at least one result file"]),
        (["trend", good, "--format", "csv"], ["--format 'csv'", "trend", "html"]),
        (["trend", good, broken], [broken]),
        (["trend", good, "--per-rank"], ["'--per-rank' is not an option of 'runner trend'",
                                        "a run, ab, report"]),
        (["report", good, "--format", "svg"], ["--format 'svg'", "html"]),
        (["report", good, "--format", "html", "-o", a.workdir], [a.workdir, "is a directory"]),
        (["report", good, "--format", "html", "-o", good], ["is the input file"]),
        (["trend", good, broken, "-o", broken], ["is the input file"]),
        (["compare", good, good, "--format", "html"], ["--format 'html'", "compare"]),
        (["-m", "bcast", "--format", "html"], ["--format html", "report FILE"]),
        (["trend", good, "--threshold", "abc"], ["--threshold 'abc'"]),
    ]
    for args, needles in cases:
        p = runner(a, args)
        check(p.returncode == 2, f"{args}: exit {p.returncode}, expected 2")
        errors = [l for l in p.stderr.splitlines() if "error" in l.lower()]
        check(len(errors) >= 1, f"{args}: no error line")
        for n in needles:
            check(n in p.stderr, f"{args}: {n!r} not in {p.stderr.strip()!r}")


def test_nightly(a):
    store = os.path.join(a.workdir, "nightly_store")
    cwd = os.path.join(a.workdir, "nightly_job")
    for d in (store, cwd):
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs(cwd)
    script = os.path.join(ROOT, "docs", "ci", "nightly.sh")
    opts = ["--plugin-dir", a.slow_plugins, "--methods", "sleepy,bcast", "--payloads", "1d",
            "--sizes", "small", "--min-time", "0.001", "--repetitions", "5"]
    base = {"MPIRUN": " ".join(launch(a, 2)), "RUNNER": a.runner,
            "COMPARE_OPTIONS": "--threshold 500%"}
    nights = []
    for night, delay in enumerate(("0", "0", "2000"), 1):
        p = subprocess.run([script, store] + opts, capture_output=True, text=True, cwd=cwd,
                           env=env(dict(base, MPIARENA_TEST_DELAY_US=delay)), timeout=240)
        show([script, store, f"(night {night}, delay {delay} us)"], p)
        runs = sorted(os.listdir(os.path.join(store, "runs")))
        nights.append((p.returncode, runs))
        with open(os.path.join(store, "baseline", "new_1.json")) as f:
            baseline_start = json.load(f)["context"]["start_time"]
        check(len(os.listdir(os.path.join(store, "baseline"))) == 3,
              f"night {night}: the baseline holds the 3 launches of a night")
        with open(os.path.join(store, "runs", runs[-1])) as f:
            newest_start = json.load(f)["context"]["start_time"]
        check(os.path.exists(os.path.join(cwd, "trend.html")), f"night {night}: no trend.html")
        check(os.path.exists(os.path.join(cwd, "compare.md")), f"night {night}: no compare.md")
        if night < 3:
            check(p.returncode == 0, f"night {night}: exit {p.returncode}, expected 0")
            check(baseline_start == newest_start, f"night {night} did not become the baseline")
        else:
            check(p.returncode == 1, f"night 3 (sleepy slowed): exit {p.returncode}, expected 1")
            check(baseline_start != newest_start, "a regressed night must not become the baseline")
            check("regressed" in open(os.path.join(cwd, "compare.md")).read(),
                  "compare.md says what regressed")
        check(len(runs) == night, f"night {night}: {len(runs)} runs kept")
        if night < 3:
            time.sleep(1.1)  # one file name per second (date +%Y%m%dT%H%M%SZ)
    root, svgs = charts_of(open(os.path.join(cwd, "trend.html"), encoding="utf-8").read())
    rings = [e for s in svgs for e in s.iter() if "flag" in (e.get("class") or "").split()]
    check(len(rings) >= 1 and all("up" in r.get("class") for r in rings),
          f"the trend page rings the slowed night: {len(rings)} rings")
    # The history: 9 launches kept as runs; the step of sleepy at night 3's
    # first launch is a change point (6 runs before, 3 after), in
    # changes.md's tonight section and squared on its chart.
    with sqlite3.connect(os.path.join(store, "history.sqlite")) as c:
        check(c.execute("SELECT count(*) FROM runs").fetchone()[0] == 9, "9 runs in the store")
    changes = open(os.path.join(cwd, "changes.md")).read()
    tonight = changes.split("## Every change point")[0]
    check("sleepy" in tonight and "slower" in tonight, f"changes.md: {changes[:2000]}")
    steps = [e for s in svgs for e in s.iter() if "step" in (e.get("class") or "").split()]
    check(len(steps) == 1 and "up" in steps[0].get("class"),
          f"the trend page squares the change point: {len(steps)} squares")
    # BASE_RUNNER: both builds' launches tonight, alternating (here the
    # same runner: an A/A night), judged across launches.
    store = os.path.join(a.workdir, "nightly_abab")
    shutil.rmtree(store, ignore_errors=True)
    p = subprocess.run([script, store] + opts, capture_output=True, text=True, cwd=cwd,
                       env=env(dict(base, BASE_RUNNER=a.runner, LAUNCHES="2")),
                       timeout=240)
    show([script, store, "(BASE_RUNNER, 2 launches a side)"], p)
    night_dir = os.path.join(store, "launches", os.listdir(os.path.join(store, "launches"))[0])
    check(p.returncode == 0, f"A/A night: exit {p.returncode}, expected 0")
    check(sorted(os.listdir(night_dir)) ==
          ["base_1.json", "base_2.json", "new_1.json", "new_2.json"], os.listdir(night_dir))
    written = sorted((os.stat(os.path.join(night_dir, f)).st_mtime_ns, f)
                     for f in os.listdir(night_dir))
    check([f for _, f in written] == ["base_1.json", "new_1.json", "base_2.json", "new_2.json"],
          f"launches alternate BASE NEW BASE NEW: {written}")
    check("2 launches of BASE against 2 of NEW" in open(os.path.join(cwd, "compare.md")).read(),
          "compare.md names the procedure")
    check(not os.path.exists(os.path.join(store, "baseline")),
          "with BASE_RUNNER no baseline is kept")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--slow-plugins", required=True)
    a = parse_args(ap)
    tests = {"html": test_html, "ab-page": test_ab_page, "trend-step": test_trend_step,
             "trend-contexts": test_trend_contexts, "trend-sync": test_trend_sync,
             "bad-input": test_bad_input,
             "nightly": test_nightly}
    return run_test(tests[a.test], a)

if __name__ == "__main__":
    sys.exit(main())
