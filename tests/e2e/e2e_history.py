#!/usr/bin/env python3
"""End-to-end tests of `runner history` (the results store) and trend --db.

add:         runs added, each with its context, points and raw samples,
             readable with Python's sqlite3; mpiarena-files adds too.
duplicate:   the same run again (the same file, re-indented, gzip-compressed)
             and a file that does not validate: exit 2, one message, the
             store's bytes unchanged; with a good file beside a bad one
             nothing is added.
step-flat:   a synthetic history with a 25% step in one series: the change
             is found at the run of the step, in that series only, with the
             medians before and after; a flat history reports none.
exit-codes:  history changes exits 1 for a change after --since (a run, a
             revision, a date), 0 when none is, 2 on bad input (one message).
concurrent:  two processes adding to one store at once: every run kept.
killed:      an add killed (SIGKILL) mid-write: the store opens, passes
             SQLite's integrity check, and keeps every run committed before
             the kill, each whole.
pandas:      the pandas example of docs/formats.md runs against a store.
trend:       trend --db marks the change on its series (JSON and the page).
read-only:   a store of mode 0444 (or in a read-only directory) is read by
             list, changes and trend --db; add says it is read-only; no
             message advises removing a store.
as-held:     the store keeps a document's strings as the file held them (a
             library string of several lines, an escape character), a
             document spelling the same escape out is another run, and
             list's library column never cuts an escape.
concurrent-duplicate: two adds that share a file, held back until both
             passed their checks: the run is kept once, and the add that
             lost names the file, and what it added.
since:       an ambiguous revision prefix exits 2 naming the revisions; an
             upper-case prefix matches; impossible dates and --since ''
             are refused.
zero-step:   a step to a time of exactly 0 s is a change (-100%) for
             history changes and trend --db alike.
no-writes:   a read never writes: an empty file stays empty; a refused first
             add makes no file.
store-errors: only a missing store is answered with "history add makes
             one"; --db DIR speaks of the store, not of an output file.
schema-upgrade: a store of schema 1 is read as it is and brought to 3 by
             an add, its runs marked kept printable and still known.
schema-label: a store of schema 2 (no label column) whose runs' contexts
             hold labels is read as it is (no label shown, the file
             unchanged) and brought to 3 by an add, the labels taken from
             the contexts it kept.
label:       a run given --label nightly-42 keeps it in its context (with
             the plugins it loaded and their versions); history list,
             trend's runs and compare's header show it; a label that is
             not printable, or too long, is refused (exit 2, one message).
add-unfit:   an interrupted run (unless --allow-incomplete), a run of no
             record and a start time that is not a date are refused.
Same harness as e2e.py; each is one ctest test.
"""
import argparse
import datetime
import gzip
import hashlib
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import (Fail, Skip, run_test, add_mpi_args, check, env, launch, out_path,  # noqa: E402
                 parse_args, show)
from e2e_compare import document, record  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def runner(a, args, program=None):
    p = subprocess.run([program or a.runner] + args, capture_output=True, text=True,
                       env=env(), timeout=240)
    show([os.path.basename(program or a.runner)] + args, p)
    return p


def errors_of(p):
    return [l for l in p.stderr.splitlines() if ": error:" in l]


def samples(median, rng, n=7, spread=0.01):
    return [median * (1 + rng.uniform(-spread, spread)) for _ in range(n)]


def revision_of(night):
    return hashlib.sha1(f"night {night}".encode()).hexdigest()


def night_doc(night, points, rng, revision=None):
    """One run: `points` maps (method, size) to its median that night."""
    recs = [record(m, samples(med, rng), size, moves_data=med > 0)
            for (m, size), med in sorted(points.items())]
    start = datetime.datetime(2026, 1, 1) + datetime.timedelta(hours=night)
    return document(recs, start_time=start.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    build={"git_revision": revision or revision_of(night),
                           "build_type": "Release", "compiler": "GCC"})


def history(a, nights=30, step_at=None, factor=1.25, seed=1, prefix="n", revisions=None):
    """Night documents: bcast (flat) and pack (a step of `factor` at night
    `step_at`, none when None), each night's level drawn with 2% noise.
    `revisions` maps a night to its git revision (default: revision_of)."""
    rng = random.Random(seed)
    paths = []
    for i in range(nights):
        f = factor if step_at is not None and i >= step_at else 1.0
        pts = {("bcast", 11000): 10e-6 * (1 + rng.gauss(0, 0.02)),
               ("pack", 110000): 40e-6 * f * (1 + rng.gauss(0, 0.02))}
        path = out_path(a, f"{prefix}{i:03d}.json")
        with open(path, "w") as fh:
            json.dump(night_doc(i, pts, rng, (revisions or {}).get(i)), fh)
        paths.append(path)
    return paths


def store_path(a, name):
    path = out_path(a, name)
    for extra in ("-journal", "-wal", "-shm"):
        if os.path.exists(path + extra):
            os.remove(path + extra)
    return path


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def runs_in(db):
    with sqlite3.connect(db, timeout=60) as c:
        return c.execute("SELECT count(*) FROM runs").fetchone()[0]


def changes_json(a, db, *extra):
    p = runner(a, ["history", "changes", "--db", db, "--format", "json"] + list(extra))
    check(p.returncode in (0, 1), f"history changes exited {p.returncode}")
    return p, json.loads(p.stdout)


# ---------------------------------------------------------------- tests

def test_add(a):
    db = store_path(a, "add.sqlite")
    paths = history(a, nights=3)
    p = runner(a, ["history", "add"] + paths + ["--db", db])
    check(p.returncode == 0, f"add exited {p.returncode}")
    check(p.stderr.count("added as run #") == 3, "one line per added run")
    with sqlite3.connect(db) as c:
        check(c.execute("PRAGMA user_version").fetchone()[0] == 4, "schema version 4")
        runs = c.execute("SELECT id, started, revision, library, machine, ranks, file "
                         "FROM runs ORDER BY started").fetchall()
        check(len(runs) == 3, f"{len(runs)} runs")
        check(runs[0][1] == "2026-01-01T00:00:00Z" and len(runs[0][2]) == 40
              and runs[0][3] == "Open MPI v4.1.4" and runs[0][4] == "node1"
              and runs[0][5] == 2 and runs[0][6] == paths[0], f"first run {runs[0]}")
        series = [r[0] for r in c.execute("SELECT point FROM series ORDER BY point")]
        check(series == ["transfer/bcast/1d/11000/np2", "transfer/pack/1d/110000/np2"],
              f"series {series}")
        n = c.execute("SELECT count(*) FROM samples").fetchone()[0]
        check(n == 3 * 2 * 7, f"{n} samples, expected 42")
        # Each point's median and raw samples are the file's.
        with open(paths[1]) as f:
            doc = json.load(f)
        rec = doc["records"][0]
        got = [r[0] for r in c.execute(
            "SELECT s.seconds FROM samples s JOIN series x ON x.id = s.series "
            "JOIN runs r ON r.id = s.run WHERE r.file = ? AND x.method = ? ORDER BY s.i",
            (paths[1], rec["method"]))]
        check(got == rec["samples_s"]["max"], f"samples {got}")
        med = c.execute("SELECT p.median_s FROM points p JOIN series x ON x.id = p.series "
                        "JOIN runs r ON r.id = p.run WHERE r.file = ? AND x.method = ?",
                        (paths[1], rec["method"])).fetchone()[0]
        check(med == rec["time_s"]["median"], f"median {med}")
    p = runner(a, ["history", "list", "--db", db, "--format", "json"])
    listed = json.loads(p.stdout)
    check(p.returncode == 0 and [r["file"] for r in listed] == paths
          and all(r["points"] == 2 for r in listed), f"list {listed}")
    # mpiarena-files (no MPI) adds to the same store.
    files = os.path.join(os.path.dirname(a.runner), "mpiarena-files")
    more = history(a, nights=4, prefix="m")[3:]
    p = runner(a, ["history", "add"] + more + ["--db", db], program=files)
    check(p.returncode == 0 and runs_in(db) == 4, f"mpiarena-files add: exit {p.returncode}")
    # A point recorded twice in one file: its first record is kept, whole.
    with open(paths[0]) as f:
        doc = json.load(f)
    doc["context"]["start_time"] = "2026-02-01T00:00:00Z"
    first = doc["records"][0]
    doc["records"].append(record(first["method"],
                                 [s * 2 for s in first["samples_s"]["max"]] + [1e-3],
                                 first["bytes"]))
    path = out_path(a, "twice.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    p = runner(a, ["history", "add", path, "--db", db])
    check(p.returncode == 0, f"a point recorded twice: exit {p.returncode}")
    with sqlite3.connect(db) as c:
        got = [r[0] for r in c.execute(
            "SELECT s.seconds FROM samples s JOIN runs r ON r.id = s.run JOIN series x "
            "ON x.id = s.series WHERE r.file = ? AND x.method = ? ORDER BY s.i",
            (path, first["method"]))]
    check(got == first["samples_s"]["max"], f"a point recorded twice: samples {got}")


def test_duplicate(a):
    db = store_path(a, "dup.sqlite")
    paths = history(a, nights=2)
    check(runner(a, ["history", "add", paths[0], "--db", db]).returncode == 0, "first add")
    before = digest(db)
    with open(paths[0]) as f:
        doc = json.load(f)
    pretty = out_path(a, "pretty.json")
    with open(pretty, "w") as f:
        json.dump(doc, f, indent=4)
    gz = out_path(a, "again.json.gz")
    with gzip.open(gz, "wt") as f:
        json.dump(doc, f)
    for again in (paths[0], pretty, gz):
        p = runner(a, ["history", "add", again, "--db", db])
        e = errors_of(p)
        check(p.returncode == 2 and len(e) == 1 and "already holds this run (run #1)" in e[0],
              f"{again}: exit {p.returncode}, errors {e}")
        check(digest(db) == before, f"{again}: the store changed")
    bad = out_path(a, "bad.json")
    doc["records"][0]["bytes"] = "eleven thousand"
    with open(bad, "w") as f:
        json.dump(doc, f)
    p = runner(a, ["history", "add", bad, "--db", db])
    e = errors_of(p)
    check(p.returncode == 2 and len(e) == 1 and "bad.json" in e[0] and "bytes" in p.stderr,
          f"bad file: exit {p.returncode}, errors {e}")
    check(digest(db) == before, "bad file: the store changed")
    p = runner(a, ["history", "add", paths[1], bad, "--db", db])
    check(p.returncode == 2 and "nothing added" in p.stderr and digest(db) == before,
          f"good and bad together: exit {p.returncode}, store unchanged?")
    # A file that is not a store, and a store that does not exist.
    notdb = out_path(a, "not_a_store.sqlite")
    with open(notdb, "w") as f:
        f.write("hello\n" * 200)
    p = runner(a, ["history", "add", paths[1], "--db", notdb])
    e = errors_of(p)
    check(p.returncode == 2 and len(e) == 1 and "not_a_store.sqlite" in e[0], f"not a store: {e}")
    # Never a device, a FIFO or a directory (SQLite would write or block
    # there); a link to the store is followed.
    fifo = out_path(a, "fifo.sqlite")
    os.mkfifo(fifo)
    for where in ("/dev/null", fifo, a.workdir):
        for action in (["add", paths[1]], ["changes"], ["list"]):
            p = runner(a, ["history"] + action + ["--db", where])
            e = errors_of(p)
            check(p.returncode == 2 and len(e) == 1 and "--db" in e[0],
                  f"--db {where}, {action[0]}: exit {p.returncode}, errors {e}")
    link = out_path(a, "link.sqlite")
    os.symlink(db, link)
    p = runner(a, ["history", "list", "--db", link, "--format", "json"])
    check(p.returncode == 0 and len(json.loads(p.stdout)) == 1, "a link to the store")
    p = runner(a, ["trend", "--db", db, "--format", "html", "-o", link])
    check(p.returncode == 2 and "would replace the store" in p.stderr and digest(db) == before,
          f"trend -o onto the store: exit {p.returncode}")
    p = runner(a, ["history", "changes", "--db", out_path(a, "missing.sqlite")])
    e = errors_of(p)
    check(p.returncode == 2 and len(e) == 1 and "history add" in e[0], f"missing store: {e}")
    check(not os.path.exists(out_path(a, "missing.sqlite")), "changes made a store")


def test_step_flat(a):
    db = store_path(a, "step.sqlite")
    check(runner(a, ["history", "add"] + history(a, nights=30, step_at=12) + ["--db", db])
          .returncode == 0, "add")
    p, h = changes_json(a, db)
    check(p.returncode == 1, f"a change: exit {p.returncode}, expected 1")
    check(h["runs"] == 30 and h["series"] == 2, f"runs {h['runs']} series {h['series']}")
    check(len(h["changes"]) == 1, f"changes {h['changes']}")
    c = h["changes"][0]
    check(c["point"] == "transfer/pack/1d/110000/np2" and c["index"] == 12
          and c["runs_before"] == 12 and c["runs_after"] == 18, f"change {c}")
    check(abs(c["factor"] - 1.25) < 0.03 and c["p"] <= c["level"] and c["split_p"] <= c["level"]
          and abs(c["median_before_s"] - 40e-6) < 2e-6, f"change {c}")
    check(c["started"] == "2026-01-01T12:00:00Z"
          and c["revision"] == hashlib.sha1(b"night 12").hexdigest(), f"change {c}")
    p = runner(a, ["history", "changes", "--db", db])
    check("transfer/pack/1d/110000/np2" in p.stdout and re.search(r"\+2\d\.\d%", p.stdout)
          and "slower" in p.stdout,
          "the table names the series, the change and the verdict")
    # The same in reverse: faster.
    db2 = store_path(a, "faster.sqlite")
    runner(a, ["history", "add"] + history(a, 30, 18, 0.8, prefix="f") + ["--db", db2])
    p, h = changes_json(a, db2)
    check(p.returncode == 1 and len(h["changes"]) == 1 and h["changes"][0]["index"] == 18
          and h["changes"][0]["factor"] < 0.85, f"faster: {h['changes']}")
    # Flat: nothing, in several seeds.
    for seed in range(1, 6):
        db3 = store_path(a, f"flat{seed}.sqlite")
        runner(a, ["history", "add"] + history(a, 30, seed=seed, prefix=f"s{seed}_")
               + ["--db", db3])
        p, h = changes_json(a, db3)
        check(p.returncode == 0 and h["changes"] == [], f"flat seed {seed}: {h['changes']}")
    # A step under the threshold is not reported.
    db4 = store_path(a, "small.sqlite")
    runner(a, ["history", "add"] + history(a, 30, 12, 1.25, prefix="t") + ["--db", db4])
    p, h = changes_json(a, db4, "--threshold", "30%")
    check(p.returncode == 0 and h["changes"] == [] and h["unconfirmed"] >= 1,
          f"25% step at --threshold 30%: {h}")


def test_exit_codes(a):
    db = store_path(a, "codes.sqlite")
    runner(a, ["history", "add"] + history(a, nights=30, step_at=12) + ["--db", db])
    rev11 = hashlib.sha1(b"night 11").hexdigest()
    rev12 = hashlib.sha1(b"night 12").hexdigest()
    cases = [([], 1), (["--since", "#11"], 1), (["--since", "11"], 1), (["--since", "#12"], 1),
             (["--since", "#13"], 0), (["--since", "#30"], 0),
             (["--since", rev11[:10]], 1), (["--since", rev12], 0),
             (["--since", "2026-01-01T12:00:00Z"], 1), (["--since", "2026-01-01T12:01"], 0),
             (["--since", "2026-01-01"], 1), (["--since", "2026-01-02"], 0)]
    for extra, code in cases:
        p = runner(a, ["history", "changes", "--db", db] + extra)
        check(p.returncode == code, f"{extra}: exit {p.returncode}, expected {code}")
    bad = [(["history", "changes", "--db", db, "--since", "yesterday"], "accepted: a run id"),
           (["history", "changes", "--db", db, "--since", "#99"], "no run 99"),
           (["history", "changes", "--db", db, "--since", "abcdef0123"], "no run of the store"),
           (["history", "changes", "--db", db, "--format", "html"], "accepted: table, markdown"),
           (["history", "changes"], "--db STORE"),
           (["history", "changes", "--db", db, "extra.json"], "takes no file"),
           (["history"], "needs an action"),
           (["history", "frob", "--db", db], "add, changes, list"),
           (["history", "add", "--db", db], "at least one result file"),
           (["history", "add", "x.json", "--db", db, "--since", "#1"], "--since"),
           (["history", "list", "--db", db, "--alpha", "0.1"], "--alpha"),
           (["compare", "a.json", "b.json", "--db", db],
            "'--db' is not an option of 'runner compare'; it is an option of trend, history")]
    for args, needle in bad:
        p = runner(a, args)
        e = errors_of(p)
        check(p.returncode == 2 and len(e) == 1 and needle in e[0],
              f"{args}: exit {p.returncode}, errors {e}, expected one naming '{needle}'")


def test_concurrent(a):
    db = store_path(a, "concurrent.sqlite")
    left = history(a, nights=40, seed=3, prefix="l")[:20]
    right = history(a, nights=40, seed=3, prefix="r")[20:]
    procs = [subprocess.Popen([a.runner, "history", "add"] + side + ["--db", db],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env())
             for side in (left, right)]
    outs = [p.communicate(timeout=240) for p in procs]
    for p, (out, err) in zip(procs, outs):
        print(err[-2000:], file=sys.stderr)
        check(p.returncode == 0, f"an add exited {p.returncode}: {err[-500:]}")
    check(runs_in(db) == 40, f"{runs_in(db)} runs, expected 40")
    with sqlite3.connect(db) as c:
        per_run = c.execute("SELECT count(*) FROM points GROUP BY run").fetchall()
    check(len(per_run) == 40 and all(n == (2,) for n in per_run), f"points per run {per_run}")


def test_killed(a):
    db = store_path(a, "killed.sqlite")
    first = history(a, nights=3, seed=5, prefix="k")
    check(runner(a, ["history", "add"] + first + ["--db", db]).returncode == 0, "first adds")
    # Many runs of many points: each commit waits for the disk, so the add
    # takes long enough to be killed in the middle.
    rng = random.Random(9)
    paths = []
    for i in range(3, 803):
        pts = {("bcast", 8 * (k + 1)): 10e-6 for k in range(40)}
        path = out_path(a, f"kill{i:04d}.json")
        with open(path, "w") as f:
            json.dump(night_doc(i, pts, rng), f)
        paths.append(path)
    p = subprocess.Popen([a.runner, "history", "add"] + paths + ["--db", db],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env())
    seen = 3
    deadline = time.time() + 200
    while time.time() < deadline and p.poll() is None:
        try:
            seen = runs_in(db)
        except sqlite3.OperationalError:
            pass
        if seen >= 20:
            break
        time.sleep(0.02)
    check(p.poll() is None, f"the add ended (exit {p.returncode}) before it could be killed "
                            f"with {seen} runs")
    p.send_signal(signal.SIGKILL)
    p.wait()
    print(f"killed after {seen} runs were seen committed", flush=True)
    # A kill between two transactions leaves no journal, one before the
    # journal held anything an empty one (harmless: the next add removes
    # it), one inside a transaction a hot journal: a writer is killed
    # inside one to be sure. A reader that cannot write the store says why
    # it cannot read; one that can rolls it back, and it is gone.
    cold = os.path.exists(db + "-journal")
    print(f"a journal after the kill: {cold}", flush=True)
    q = runner(a, ["history", "list", "--db", db, "--format", "json"])
    check(q.returncode == 0, f"list after the kill exited {q.returncode}")
    w = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, sys, time\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('PRAGMA cache_size = 1')\n"
        "c.execute('BEGIN IMMEDIATE')\n"
        "c.execute('DELETE FROM samples')\n"
        "print('ready', flush=True)\n"
        "time.sleep(600)\n"), db], stdout=subprocess.PIPE, text=True)
    check(w.stdout.readline().strip() == "ready", "the writer to kill")
    w.kill()
    w.wait()
    check(os.path.exists(db + "-journal"), "a journal after the writer's kill")
    os.chmod(db, 0o444)
    try:
        q = runner(a, ["history", "list", "--db", db])
        e = errors_of(q)
        check(q.returncode == 2 and len(e) == 1 and "journal" in e[0]
              and "history add" not in e[0],
              f"list of a read-only store with a journal: {e}")
    finally:
        os.chmod(db, 0o644)
    q = runner(a, ["history", "list", "--db", db, "--format", "json"])
    check(q.returncode == 0, f"list after the kill exited {q.returncode}")
    check(not os.path.exists(db + "-journal"), "the journal is left after a read")
    listed = json.loads(q.stdout)
    check(seen <= len(listed) < 803, f"{len(listed)} runs after the kill, {seen} seen before")
    check([r["file"] for r in listed[:3]] == first, "the first runs are kept")
    check(all(r["points"] == (2 if i < 3 else 40) for i, r in enumerate(listed)),
          "every kept run is whole")
    with sqlite3.connect(db) as c:
        check(c.execute("PRAGMA integrity_check").fetchone()[0] == "ok", "integrity check")
    # The rest can still be added (the runs kept are refused as duplicates).
    rest = paths[len(listed) - 3:]
    q = runner(a, ["history", "add"] + rest + ["--db", db])
    check(q.returncode == 0 and runs_in(db) == 803, f"adding the rest: exit {q.returncode}")
    check(not os.path.exists(db + "-journal"), "a journal is left after an add")


def python_with_pandas():
    """This Python, or Debian's (scripts/setup installs python3-pandas
    there), whichever imports pandas; None when neither does."""
    for python in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(python) and subprocess.run(
                [python, "-c", "import pandas"], capture_output=True).returncode == 0:
            return python
    return None


def test_pandas(a):
    python = python_with_pandas()
    if not python:
        raise Skip("pandas is not installed (scripts/setup installs python3-pandas)")
    text = open(os.path.join(ROOT, "docs", "formats.md"), encoding="utf-8").read()
    m = re.search(r"<!-- pandas example -->\s*```python\n(.*?)```", text, re.S)
    check(m, "docs/formats.md has the pandas example")
    db = store_path(a, "pandas.sqlite")
    runner(a, ["history", "add"] + history(a, nights=8, step_at=4) + ["--db", db])
    script = out_path(a, "example.py")
    with open(script, "w") as f:
        f.write(m.group(1))
    p = subprocess.run([python, script, db], capture_output=True, text=True, timeout=120)
    show([python, script, db], p)
    check(p.returncode == 0, f"the example exited {p.returncode}")
    check("transfer/pack/1d/110000/np2" in p.stdout and "transfer/bcast/1d/11000/np2" in p.stdout,
          "the example prints each series")


def test_trend(a):
    db = store_path(a, "trend.sqlite")
    runner(a, ["history", "add"] + history(a, nights=12, step_at=6, factor=1.5) + ["--db", db])
    p = runner(a, ["trend", "--db", db, "--format", "json"])
    check(p.returncode == 0, f"trend --db exited {p.returncode}")
    t = json.loads(p.stdout)
    marks = [(pt["point"], i) for g in t["groups"] for pt in g["points"]
             for i, c in enumerate(pt["cells"]) if c.get("change_point")]
    check(marks == [("transfer/pack/1d/110000/np2", 6)], f"change points marked {marks}")
    page = out_path(a, "trend.html")
    p = runner(a, ["trend", "--db", db, "--format", "html", "-o", page])
    html = open(page, encoding="utf-8").read()
    check(p.returncode == 0 and html.count('class="mark step up"') == 1,
          "the page marks the step once")
    p = runner(a, ["trend", "x.json", "--db", db])
    check(p.returncode == 2 and "not both" in p.stderr, "trend FILE --db: exit 2")


def no_removal_advice(p, what):
    check("remove" not in p.stderr and "output file" not in p.stderr,
          f"{what}: a message speaks of removing or of an output file: {p.stderr}")


def test_read_only(a):
    db = store_path(a, "ro.sqlite")
    check(runner(a, ["history", "add"] + history(a, nights=12, step_at=6, factor=1.5, prefix="ro")
                 + ["--db", db]).returncode == 0, "add")
    more = history(a, nights=13, prefix="ro2")[12:]
    os.chmod(db, 0o444)
    try:
        before = digest(db)
        for args, code in ((["history", "list", "--db", db], 0),
                           (["history", "changes", "--db", db], 1),
                           (["trend", "--db", db, "--format", "json"], 0)):
            p = runner(a, args)
            check(p.returncode == code and not errors_of(p),
                  f"{args[:2]} on a store of mode 0444: exit {p.returncode}, errors {errors_of(p)}")
            no_removal_advice(p, args[1])
        p = runner(a, ["history", "add"] + more + ["--db", db])
        e = errors_of(p)
        check(p.returncode == 2 and len(e) == 1 and "read-only" in e[0], f"add to 0444: {e}")
        no_removal_advice(p, "add to 0444")
        check(digest(db) == before and os.stat(db).st_mode & 0o777 == 0o444, "the store changed")
    finally:
        os.chmod(db, 0o644)
    # A store in a directory the process cannot write (a write bit off
    # everywhere: root is refused as its owner would be).
    d = os.path.join(a.workdir, "ro_dir")
    os.makedirs(d, exist_ok=True)
    db2 = os.path.join(d, "store.sqlite")
    if os.path.exists(db2):
        os.remove(db2)
    check(runner(a, ["history", "add", more[0], "--db", db2]).returncode == 0, "add in ro_dir")
    os.chmod(d, 0o555)
    try:
        p = runner(a, ["history", "list", "--db", db2, "--format", "json"])
        check(p.returncode == 0 and len(json.loads(p.stdout)) == 1, "list in a read-only directory")
        p = runner(a, ["history", "add"] + history(a, nights=14, prefix="ro3")[13:] + ["--db", db2])
        e = errors_of(p)
        check(p.returncode == 2 and len(e) == 1 and "read-only" in e[0] and "ro_dir" in e[0],
              f"add in a read-only directory: {e}")
        no_removal_advice(p, "add in a read-only directory")
    finally:
        os.chmod(d, 0o755)


def blob_document(blob):
    """A stored document (docs/formats.md): one gzip member."""
    return json.loads(gzip.decompress(blob).decode("utf-8"))


def test_as_held(a):
    db = store_path(a, "held.sqlite")
    rng = random.Random(4)
    library = "MPICH Version:  4.1.2\nMPICH Release date: Wed Jun  7 15:22:45 CDT 2023"
    doc = night_doc(0, {("bcast", 11000): 10e-6}, rng)
    doc["context"]["mpi_library"] = library
    doc["context"]["hosts"] = ["node\x1b1"]
    held = out_path(a, "held.json")
    with open(held, "w") as f:
        json.dump(doc, f)
    # The same document with the escape spelt out: another run.
    doc2 = json.loads(json.dumps(doc))
    doc2["context"]["hosts"] = ["node\\x1B1"]
    spelt = out_path(a, "spelt.json")
    with open(spelt, "w") as f:
        json.dump(doc2, f)
    p = runner(a, ["history", "add", held, "--db", db])
    check(p.returncode == 0, f"add: exit {p.returncode}")
    p = runner(a, ["history", "add", spelt, "--db", db])
    check(p.returncode == 0 and runs_in(db) == 2,
          f"a document spelling the escape out was refused: exit {p.returncode}, {errors_of(p)}")
    with sqlite3.connect(db) as c:
        lib, machine, blob = c.execute(
            "SELECT library, machine, document FROM runs WHERE file = ?", (held,)).fetchone()
    check(lib == library and machine == "node\x1b1", f"kept {lib!r}, {machine!r}")
    check(blob_document(blob) == doc, "the stored document is not the file's")
    # Shown escaped, the library's first line, no escape cut.
    p = runner(a, ["history", "list", "--db", db])
    check(p.returncode == 0 and "\x1b" not in p.stdout and "node\\x1B1" in p.stdout,
          "list shows the escape spelt out")
    check(not re.search(r"\\(x[0-9A-F]?|u[0-9A-F]{0,3})(?![0-9A-F])", p.stdout),
          f"list cuts an escape:\n{p.stdout}")
    check("MPICH Version:  4.1.2" in p.stdout, "the library's first line")
    p = runner(a, ["history", "list", "--db", db, "--format", "json"])
    listed = json.loads(p.stdout)
    check(listed[0]["library"] == library.replace("\n", "\\x0A"), f"json {listed[0]}")
    # Added again: the same run, the store unchanged.
    p = runner(a, ["history", "add", held, "--db", db])
    check(p.returncode == 2 and "already holds this run (run #1)" in p.stderr, "held again")
    p = runner(a, ["trend", "--db", db, "--format", "json"])
    check(p.returncode == 0 and "\x1b" not in p.stdout, f"trend --db: exit {p.returncode}")


def test_concurrent_duplicate(a):
    db = store_path(a, "cdup.sqlite")
    paths = history(a, nights=3, seed=7, prefix="cd")
    check(runner(a, ["history", "add", paths[0], "--db", db]).returncode == 0, "first add")
    shared = paths[2]
    # The store's write lock held until both adds have checked their files
    # against it: each then finds the shared run only inside its own
    # transaction, after the other added it.
    hold = sqlite3.connect(db, isolation_level=None, timeout=60)
    hold.execute("BEGIN IMMEDIATE")
    procs = [subprocess.Popen([a.runner, "history", "add"] + side + ["--db", db],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env())
             for side in ([paths[1], shared], [shared])]
    # Each has the store open (then checks its files at once, the lock
    # letting readers in), and a second more.
    real = os.path.realpath(db)

    def has_open(pid):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            return False
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == real:
                    return True
            except OSError:
                pass
        return False
    deadline = time.time() + 60
    while time.time() < deadline and not all(has_open(p.pid) for p in procs):
        time.sleep(0.05)
    time.sleep(1)
    hold.execute("ROLLBACK")
    hold.close()
    outs = [p.communicate(timeout=240) for p in procs]
    for p, (out, err) in zip(procs, outs):
        print(f"exit {p.returncode}:\n{err}", file=sys.stderr)
    check(runs_in(db) == 3, f"{runs_in(db)} runs, expected 3")
    codes = sorted(p.returncode for p in procs)
    check(codes == [0, 2], f"exit codes {codes}, expected one add to lose the shared run")
    lost = [err for p, (out, err) in zip(procs, outs) if p.returncode == 2][0]
    e = [l for l in lost.splitlines() if ": error:" in l]
    check(e and os.path.basename(shared) in e[0] and "another process" in e[0],
          f"the first error names the shared file: {e}")
    check(lost.count("added as run") == (1 if procs[0].returncode == 2 else 0)
          and (procs[0].returncode != 2 or " 1 of 2 files added" in lost),
          f"what the losing add added: {lost}")


def test_since(a):
    db = store_path(a, "since.sqlite")
    revs = {11: "abcdef10" + "0" * 32, 20: "abcdef11" + "0" * 32}
    runner(a, ["history", "add"] + history(a, nights=30, step_at=12, prefix="sv", revisions=revs)
           + ["--db", db])
    p = runner(a, ["history", "changes", "--db", db, "--since", "abcdef1"])
    e = errors_of(p)
    check(p.returncode == 2 and len(e) == 1 and "ambiguous" in e[0]
          and revs[11] in e[0] and revs[20] in e[0], f"ambiguous prefix: exit {p.returncode}, {e}")
    for since, code in (("abcdef10", 1), ("ABCDEF10", 1), ("ABCDEF11", 0), ("2026-01-01", 1),
                        ("2024-02-29", 1)):
        p = runner(a, ["history", "changes", "--db", db, "--since", since])
        check(p.returncode == code, f"--since {since}: exit {p.returncode}, expected {code}")
    for since in ("2026-02-30", "9999-99-99", "2026-13-01", "2025-02-29", "2026-01-01T24:00",
                  "2026-01-01T12:60:00Z", ""):
        p = runner(a, ["history", "changes", "--db", db, "--since", since])
        e = errors_of(p)
        check(p.returncode == 2 and len(e) == 1 and "--since" in e[0],
              f"--since '{since}': exit {p.returncode}, errors {e}")


def test_zero_step(a):
    db = store_path(a, "zero.sqlite")
    runner(a, ["history", "add"] + history(a, nights=30, step_at=15, factor=0.0, prefix="z")
           + ["--db", db])
    check(runs_in(db) == 30, "every run added")
    p, h = changes_json(a, db)
    check(p.returncode == 1 and len(h["changes"]) == 1, f"a step to 0 s: {h['changes']}")
    c = h["changes"][0]
    check(c["point"] == "transfer/pack/1d/110000/np2" and c["index"] == 15
          and c["factor"] == 0 and c["median_after_s"] == 0, f"change {c}")
    p = runner(a, ["history", "changes", "--db", db])
    check("-100.0%" in p.stdout and "faster" in p.stdout, "the table says -100.0%")
    p = runner(a, ["trend", "--db", db, "--format", "json"])
    t = json.loads(p.stdout)
    marks = [(pt["point"], i) for g in t["groups"] for pt in g["points"]
             for i, c in enumerate(pt["cells"]) if c.get("change_point")]
    check(marks == [("transfer/pack/1d/110000/np2", 15)], f"trend --db marks {marks}")


def test_no_writes(a):
    empty = store_path(a, "empty.sqlite")
    open(empty, "w").close()
    for args in (["history", "list"], ["history", "changes"], ["trend", "--format", "json"]):
        p = runner(a, args + ["--db", empty])
        e = errors_of(p)
        check(p.returncode == 2 and len(e) == 1 and "not a results store" in e[0],
              f"{args} on an empty file: exit {p.returncode}, {e}")
        check(os.path.getsize(empty) == 0, f"{args} wrote the empty file")
    # An empty file is a store once added to.
    paths = history(a, nights=2, prefix="nw")
    p = runner(a, ["history", "add", paths[0], "--db", empty])
    check(p.returncode == 0 and runs_in(empty) == 1, "add to an empty file")
    # A refused first add leaves no file.
    missing = store_path(a, "never.sqlite")
    if os.path.exists(missing):
        os.remove(missing)
    bad = out_path(a, "nw_bad.json")
    with open(bad, "w") as f:
        f.write("{}")
    for files in ([bad], [paths[1], bad]):
        p = runner(a, ["history", "add"] + files + ["--db", missing])
        check(p.returncode == 2 and len(errors_of(p)) == len(files), f"refused: {errors_of(p)}")
        check(not os.path.exists(missing) and not os.path.exists(missing + "-journal"),
              "a refused first add left a file")


def test_store_errors(a):
    paths = history(a, nights=1, prefix="se")
    notdb = out_path(a, "se_not_a_store.sqlite")
    with open(notdb, "w") as f:
        f.write("hello\n" * 200)
    newer = store_path(a, "se_newer.sqlite")
    runner(a, ["history", "add", paths[0], "--db", newer])
    with sqlite3.connect(newer) as c:
        c.execute("PRAGMA user_version = 99")
    for db, needle in ((notdb, "not a database"), (newer, "newer")):
        for args in (["history", "list"], ["history", "changes"], ["history", "add", paths[0]]):
            p = runner(a, args + ["--db", db])
            e = errors_of(p)
            check(p.returncode == 2 and len(e) == 1 and needle in e[0]
                  and "makes one" not in e[0], f"{args} --db {db}: {e}")
    p = runner(a, ["history", "list", "--db", out_path(a, "se_missing.sqlite")])
    e = errors_of(p)
    check(p.returncode == 2 and len(e) == 1 and "makes one" in e[0], f"missing: {e}")
    for action in (["list"], ["changes"], ["add", paths[0]]):
        p = runner(a, ["history"] + action + ["--db", a.workdir])
        e = errors_of(p)
        check(p.returncode == 2 and len(e) == 1 and "directory" in e[0]
              and "output file" not in e[0], f"--db DIR, {action[0]}: {e}")


def test_add_unfit(a):
    db = store_path(a, "unfit.sqlite")
    rng = random.Random(6)
    good = night_doc(0, {("bcast", 11000): 10e-6}, rng)
    check(runner(a, ["history", "add", out_write(a, "uf_good.json", good), "--db", db])
          .returncode == 0, "a good run")
    before = digest(db)
    cut = night_doc(1, {("bcast", 11000): 10e-6}, rng)
    cut["complete"] = False
    none = night_doc(2, {("bcast", 11000): 10e-6}, rng)
    none["records"] = []
    undated = night_doc(3, {("bcast", 11000): 10e-6}, rng)
    undated["context"]["start_time"] = "yesterday evening"
    written = {}
    for name, doc, needle in (("uf_cut.json", cut, "--allow-incomplete"),
                              ("uf_none.json", none, "no record"),
                              ("uf_undated.json", undated, "not a date")):
        path = written[name] = out_write(a, name, doc)
        p = runner(a, ["history", "add", path, "--db", db])
        e = errors_of(p)
        check(p.returncode == 2 and len(e) == 1 and name in e[0] and needle in e[0],
              f"{name}: exit {p.returncode}, {e}")
        check(digest(db) == before, f"{name}: the store changed")
    p = runner(a, ["history", "add", written["uf_cut.json"], "--db", db,
                   "--allow-incomplete"])
    check(p.returncode == 0 and "incomplete" in p.stderr and runs_in(db) == 2,
          f"--allow-incomplete: exit {p.returncode}")
    p = runner(a, ["history", "list", "--db", db, "--allow-incomplete"])
    check(p.returncode == 2 and "--allow-incomplete" in p.stderr, "list --allow-incomplete")


def as_before_schema_4(c):
    """A store made now as schemas 1 to 3 kept it: no runs.settings, and a
    series per point, MPI library and machine."""
    c.execute("ALTER TABLE runs DROP COLUMN settings")
    c.execute("ALTER TABLE series ADD COLUMN library TEXT NOT NULL DEFAULT ''")
    c.execute("UPDATE series SET library = (SELECT library FROM runs LIMIT 1)")
    c.execute("UPDATE series SET name = point || ' | ' || library || ' | ' "
              "|| machine")


def test_schema_upgrade(a):
    db = store_path(a, "v1.sqlite")
    paths = history(a, nights=3, prefix="v1")
    check(runner(a, ["history", "add"] + paths[:2] + ["--db", db]).returncode == 0, "add")
    # Schema 1 had no kept_as (nor label, which schema 3 added), and kept a
    # series per library (schema 4 keeps settings instead).
    with sqlite3.connect(db) as c:
        c.execute("ALTER TABLE runs DROP COLUMN kept_as")
        c.execute("ALTER TABLE runs DROP COLUMN label")
        as_before_schema_4(c)
        c.execute("PRAGMA user_version = 1")
    before = digest(db)
    p = runner(a, ["history", "list", "--db", db, "--format", "json"])
    check(p.returncode == 0 and len(json.loads(p.stdout)) == 2 and digest(db) == before,
          f"list of a schema 1 store: exit {p.returncode}")
    p = runner(a, ["history", "add", paths[0], "--db", db])
    check(p.returncode == 2 and "already holds this run (run #1)" in p.stderr,
          f"a run of a schema 1 store added again: exit {p.returncode}")
    p = runner(a, ["history", "add", paths[2], "--db", db])
    check(p.returncode == 0, f"add to a schema 1 store: exit {p.returncode}")
    with sqlite3.connect(db) as c:
        check(c.execute("PRAGMA user_version").fetchone()[0] == 4, "schema 4 after the add")
        kept = c.execute("SELECT id, kept_as FROM runs ORDER BY id").fetchall()
    check(kept == [(1, "printable"), (2, "printable"), (3, "file")], f"kept_as {kept}")


def test_schema_label(a):
    db = store_path(a, "v2.sqlite")
    paths = []
    for i, path in enumerate(history(a, nights=3, prefix="v2")):
        with open(path) as f:
            doc = json.load(f)
        doc["context"]["label"] = f"night-{i}"
        paths.append(out_write(a, f"v2l{i:03d}.json", doc))
    check(runner(a, ["history", "add"] + paths[:2] + ["--db", db]).returncode == 0, "add")
    # Schema 2 had no label column.
    with sqlite3.connect(db) as c:
        c.execute("ALTER TABLE runs DROP COLUMN label")
        as_before_schema_4(c)
        c.execute("PRAGMA user_version = 2")
    before = digest(db)
    p = runner(a, ["history", "list", "--db", db, "--format", "json"])
    listed = json.loads(p.stdout) if p.returncode == 0 else []
    check(len(listed) == 2 and [r["label"] for r in listed] == ["", ""]
          and digest(db) == before, f"list of a schema 2 store: exit {p.returncode}")
    p = runner(a, ["history", "add", paths[2], "--db", db])
    check(p.returncode == 0, f"add to a schema 2 store: exit {p.returncode}")
    with sqlite3.connect(db) as c:
        check(c.execute("PRAGMA user_version").fetchone()[0] == 4, "schema 4 after the add")
        labels = c.execute("SELECT label FROM runs ORDER BY id").fetchall()
    check(labels == [("night-0",), ("night-1",), ("night-2",)], f"labels {labels}")
    p = runner(a, ["history", "list", "--db", db])
    check(p.returncode == 0 and all(f"night-{i}" in p.stdout for i in range(3)),
          "history list shows the labels")


def test_label(a):
    base = out_path(a, "label_base.json")
    cmd = launch(a, 2) + [a.runner, "-m", "bcast", "-s", "small", "--iterations", "2",
                          "-r", "3", "--retry-noisy", "0", "--label", "nightly-42",
                          "-o", base]
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env())
    show(cmd, p)
    check(p.returncode == 0, f"the labelled run exited {p.returncode}")
    with open(base) as f:
        doc = json.load(f)
    ctx = doc["context"]
    check(ctx.get("label") == "nightly-42", f"context label {ctx.get('label')!r}")
    plugins = ctx.get("plugins") or []
    check(len(plugins) >= 1 and all({"file", "version", "abi"} <= set(x) for x in plugins)
          and any("bcast" in x["file"] for x in plugins), f"context plugins {plugins}")
    # The next night: the same samples under another label.
    doc["context"]["label"] = "nightly-43"
    doc["context"]["start_time"] = doc["context"]["start_time"][:4] + "-12-31T23:59:59Z"
    new = out_write(a, "label_new.json", doc)
    db = store_path(a, "label.sqlite")
    check(runner(a, ["history", "add", base, new, "--db", db]).returncode == 0, "add")
    p = runner(a, ["history", "list", "--db", db])
    check(p.returncode == 0 and "nightly-42" in p.stdout and "nightly-43" in p.stdout
          and "label" in p.stdout.splitlines()[0], "history list shows the labels")
    p = runner(a, ["history", "list", "--db", db, "--format", "json"])
    check([r["label"] for r in json.loads(p.stdout)] == ["nightly-42", "nightly-43"],
          "history list's JSON holds the labels")
    p = runner(a, ["compare", base, new, "--allow-powerless"])
    header = p.stdout.splitlines()[0] if p.stdout else ""
    check(header == f"runner compare: BASE {base} (label nightly-42) vs NEW {new} "
          "(label nightly-43)", f"compare's header: {header!r}")
    p = runner(a, ["trend", base, new])
    lines = p.stdout.splitlines()
    check(p.returncode == 0
          and any("#1" in l and "nightly-42" in l for l in lines)
          and any("#2" in l and "nightly-43" in l for l in lines),
          "trend's runs table shows the labels")
    for bad, why in (("bad\tlabel", "a tab"), ("x" * 65, "65 characters")):
        cmd = launch(a, 2) + [a.runner, "-m", "bcast", "-s", "small", "--label", bad]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env())
        show(cmd, p)
        errors = [l for l in p.stderr.splitlines() if "error:" in l]
        check(p.returncode == 2 and len(errors) == 1 and "--label" in errors[0]
              and "printable characters" in errors[0],
              f"a label with {why}: exit {p.returncode}, errors {errors}")


def out_write(a, name, doc):
    path = out_path(a, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    tests = {"add": test_add, "duplicate": test_duplicate, "step-flat": test_step_flat,
             "exit-codes": test_exit_codes, "concurrent": test_concurrent,
             "killed": test_killed, "pandas": test_pandas, "trend": test_trend,
             "read-only": test_read_only, "as-held": test_as_held,
             "concurrent-duplicate": test_concurrent_duplicate, "since": test_since,
             "zero-step": test_zero_step, "no-writes": test_no_writes,
             "store-errors": test_store_errors, "add-unfit": test_add_unfit,
             "schema-upgrade": test_schema_upgrade, "schema-label": test_schema_label,
             "label": test_label}
    return run_test(tests[a.test], a)


if __name__ == "__main__":
    sys.exit(main())
