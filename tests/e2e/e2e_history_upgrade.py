#!/usr/bin/env python3
"""End-to-end tests of the store across an MPI upgrade (runner history
changes, trend --db): a series spans the library's versions, and a change
that falls where the library changes is named so.

old-store:   a store written by the runner of b407901 (schema 1,
             tests/data/store_b407901.sqlite.gz: 10 runs of 5 points, runs
             7-10 relabelled Open MPI v4.1.6 and 1.5x slower), which then
             reported "No change found": read as it is, its series of one
             point span the upgrade, the change is found at run #7 and named
             "Open MPI v4.1.4 -> v4.1.6", the file unchanged; --by-library
             judges nothing and says so; an add brings it to schema 4 with
             one series row per point, every point kept, the same answer.
upgrade:     synthetic nights with an upgrade at night 8: a 30% step there
             is found at its run and named; without a step the boundary
             alarms nothing; --since the upgrade's own run lists its change,
             --since the run after does not.
honest:      a store of 4 runs says that nothing was judged (not "No change
             found"), in text and JSON (judged_series 0).
settings:    nights whose recorded MPI settings change at night 8 (mpirun
             --mca btl tcp,self): a 30% step there is named by the setting
             that changed, in history changes and in trend's boundary; a
             run that recorded no settings (an older runner) is no
             boundary.
trend:       trend --db of the upgraded store: one group across the upgrade,
             the boundary at run 7 with its text, the store's file names in
             the runs, the store's point names, and the page shows the
             boundary.
Same harness as e2e.py; each is one ctest test.
"""
import argparse
import gzip
import json
import os
import shutil
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import add_mpi_args, check, out_path, parse_args, run_test  # noqa: E402
from e2e_history import (ROOT, digest, history, runner,  # noqa: E402
                         store_path)

OLD_STORE = os.path.join(ROOT, "tests", "data", "store_b407901.sqlite.gz")
STEP = "Open MPI v4.1.4 -> v4.1.6"


def old_store(a, name):
    db = store_path(a, name)
    with gzip.open(OLD_STORE) as src, open(db, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return db


def changes(a, db, *extra):
    p = runner(a, ["history", "changes", "--db", db, "--format", "json"] +
               list(extra))
    check(p.returncode in (0, 1), f"history changes exited {p.returncode}")
    return json.loads(p.stdout), p.returncode


def schema_of(db):
    with sqlite3.connect(db) as c:
        return (c.execute("PRAGMA user_version").fetchone()[0],
                c.execute("SELECT count(*) FROM series").fetchone()[0],
                c.execute("SELECT count(*) FROM points").fetchone()[0],
                c.execute("SELECT count(*) FROM samples").fetchone()[0])


def check_old_answer(h, code, what):
    check(code == 1 and h["runs"] >= 10 and h["series"] == 5,
          f"{what}: exit {code}, {h['runs']} runs, {h['series']} series")
    at7 = [c for c in h["changes"] if c["run"] == 7]
    check(len(at7) >= 3 and all(c["boundary"] == STEP and c["factor"] > 1.3
                                for c in at7),
          f"{what}: changes at run #7 {[(c['point'], c['boundary']) for c in at7]}")
    check(all(c["run"] == 7 for c in h["changes"]),
          f"{what}: a change elsewhere {[c['run'] for c in h['changes']]}")
    b = h["boundaries"]
    check(len(b) == 1 and b[0]["run"] == 7 and b[0]["what"] == STEP
          and b[0]["series"] == len(at7), f"{what}: boundaries {b}")


def test_old_store(a):
    db = old_store(a, "b407901.sqlite")
    before = digest(db)
    v, series, points, samples = schema_of(db)
    check(v == 1 and series == 10 and points == 50, f"the old store: {v}, {series}, {points}")
    h, code = changes(a, db)
    check_old_answer(h, code, "read as it is")
    text = runner(a, ["history", "changes", "--db", db]).stdout
    check(f"at run #7 (2026-03-07T02:00:00Z), {STEP}: " in text, "the text names the upgrade")
    check(digest(db) == before, "a read left the old store unchanged")
    h, code = changes(a, db, "--by-library")
    check(code == 0 and h["series"] == 10 and h["judged_series"] == 5
          and h["changes"] == [], f"--by-library: exit {code}, {h['series']} series")
    text = runner(a, ["history", "changes", "--db", db, "--by-library"]).stdout
    check("Not judged yet: 5 series have fewer than 6 runs." in text
          and "No change found in the 5 series judged." in text, "--by-library's words")
    # An add brings it to schema 4: a series row per point, nothing lost.
    again = out_path(a, "night_10.json")
    with open(again, "w") as f:
        json.dump(last_document_again(db), f)
    p = runner(a, ["history", "add", again, "--db", db])
    check(p.returncode == 0, f"add to the old store: exit {p.returncode}")
    v, series, points2, samples2 = schema_of(db)
    check(v == 4 and series == 5 and points2 == points + 5
          and samples2 > samples, f"upgraded: {v}, {series}, {points2}")
    with sqlite3.connect(db) as c:
        names = [r[0] for r in c.execute("SELECT name FROM series")]
    check(all(n.endswith(" | vm") and n.count(" | ") == 1 for n in names),
          f"series names {names}")
    h, code = changes(a, db)
    check_old_answer(h, code, "upgraded")


def last_document_again(db):
    """Run #10's document, a day later: a new run of the same library."""
    with sqlite3.connect(db) as c:
        blob = c.execute("SELECT document FROM runs WHERE id = 10").fetchone()[0]
    doc = json.loads(gzip.decompress(blob) if blob[:2] == b"\x1f\x8b"
                     else zlib_text(blob))
    doc["context"]["start_time"] = "2026-03-11T02:00:00Z"
    return doc


def zlib_text(blob):
    import zlib
    return zlib.decompress(blob[8:])


def upgraded_nights(a, prefix, factor, nights=14, at=8):
    paths = history(a, nights=nights, step_at=at, factor=factor, prefix=prefix)
    for i, path in enumerate(paths):
        with open(path) as f:
            doc = json.load(f)
        if i >= at:
            doc["context"]["mpi_library"] = "Open MPI v4.1.6"
        with open(path, "w") as f:
            json.dump(doc, f)
    return paths


def test_upgrade(a):
    db = store_path(a, "upgrade.sqlite")
    paths = upgraded_nights(a, "up", 1.3)
    check(runner(a, ["history", "add"] + paths + ["--db", db]).returncode == 0, "add")
    h, code = changes(a, db)
    found = [c for c in h["changes"] if c["run"] == 9]
    check(code == 1 and len(h["changes"]) == 1 and len(found) == 1
          and "/pack/" in found[0]["point"] and found[0]["boundary"] == STEP,
          f"the step at the upgrade: {[(c['point'], c['run'], c['boundary']) for c in h['changes']]}")
    h, code = changes(a, db, "--since", "#9")
    check(code == 1 and len(h["changes"]) == 1,
          f"--since the upgrade's run lists its change: exit {code}")
    h, code = changes(a, db, "--since", "#10")
    check(code == 0 and h["changes"] == [], f"--since the run after: exit {code}")
    flat = store_path(a, "upgrade_flat.sqlite")
    paths = upgraded_nights(a, "uf", 1.0)
    check(runner(a, ["history", "add"] + paths + ["--db", flat]).returncode == 0, "add flat")
    h, code = changes(a, flat)
    check(code == 0 and h["changes"] == [] and h["judged_series"] == 2,
          f"a flat upgrade alarms nothing: exit {code}, {h['changes']}")
    text = runner(a, ["history", "changes", "--db", flat]).stdout
    check("No change found in the 2 series judged." in text, "the flat store's words")


BTL_BEFORE = {"environment": {}, "library": {"btl": "^uct,openib,ofi"},
              "withheld": []}
BTL_AFTER = {"environment": {"OMPI_MCA_btl": "tcp,self"},
             "library": {"btl": "tcp,self"}, "withheld": []}


def test_settings(a):
    db = store_path(a, "settings.sqlite")
    paths = history(a, nights=14, step_at=8, factor=1.3, prefix="set")
    for i, path in enumerate(paths):
        with open(path) as f:
            doc = json.load(f)
        # Night 0 as an older runner wrote it: no settings recorded.
        if i > 0:
            doc["context"]["mpi_settings"] = BTL_AFTER if i >= 8 else BTL_BEFORE
        with open(path, "w") as f:
            json.dump(doc, f)
    check(runner(a, ["history", "add"] + paths + ["--db", db]).returncode == 0, "add")
    with sqlite3.connect(db) as c:
        keys = [r[0] for r in c.execute("SELECT settings FROM runs ORDER BY id")]
    check(keys[0] == "" and len(set(keys[1:8])) == 1 and len(set(keys[8:])) == 1
          and keys[1] != keys[8] and keys[1] != "", f"runs.settings {keys}")
    h, code = changes(a, db)
    named = [c["boundary"] for c in h["changes"] if c["run"] == 9]
    check(code == 1 and len(h["changes"]) == 1 and len(named) == 1
          and named[0] == "MPI settings: OMPI_MCA_btl (unset) -> tcp,self; "
          "library.btl ^uct,openib,ofi -> tcp,self",
          f"the step named by its setting: {[(c['run'], c['boundary']) for c in h['changes']]}")
    p = runner(a, ["trend", "--db", db, "--format", "json"])
    t = json.loads(p.stdout)
    b = t["groups"][0]["boundaries"] if p.returncode == 0 else None
    check(len(t["groups"]) == 1 and b is not None and len(b) == 1
          and b[0]["run"] == 9 and "OMPI_MCA_btl (unset) -> tcp,self" in b[0]["what"],
          f"trend's boundary: {b}")


def test_honest(a):
    db = store_path(a, "short.sqlite")
    paths = history(a, nights=4, prefix="short")
    check(runner(a, ["history", "add"] + paths + ["--db", db]).returncode == 0, "add")
    p = runner(a, ["history", "changes", "--db", db])
    check(p.returncode == 0 and "No change found" not in p.stdout
          and "Not judged yet: 2 series have fewer than 6 runs." in p.stdout
          and "Nothing judged: no series has 6 runs yet." in p.stdout,
          f"a store of 4 runs: exit {p.returncode}")
    h, code = changes(a, db)
    check(code == 0 and h["judged_series"] == 0 and h["short_series"] == 2,
          f"JSON: {h['judged_series']} judged")


def test_trend(a):
    db = old_store(a, "trend.sqlite")
    p = runner(a, ["trend", "--db", db, "--format", "json"])
    check(p.returncode == 0, f"trend --db exited {p.returncode}")
    t = json.loads(p.stdout)
    check(len(t["groups"]) == 1, f"one group across the upgrade: {len(t['groups'])}")
    b = t["groups"][0]["boundaries"]
    check(len(b) == 1 and b[0]["run"] == 7 and b[0]["what"] == STEP, f"boundaries {b}")
    files = [r["file"] for r in t["runs"]]
    check(files[0] == "#1 night_0.json" and files[6] == "#7 night_6.json",
          f"the store's file names: {files[:7]}")
    page = out_path(a, "trend.html")
    p = runner(a, ["trend", "--db", db, "--format", "html", "-o", page])
    with open(page) as f:
        html = f.read()
    check(p.returncode == 0 and STEP.replace(">", "&gt;") in html,
          "the page names the upgrade")
    check("collective/allreduce/1d/8/np2" in html, "the page has the store's point names")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    tests = {"old-store": test_old_store, "upgrade": test_upgrade,
             "honest": test_honest, "trend": test_trend,
             "settings": test_settings}
    return run_test(tests[a.test], a)


if __name__ == "__main__":
    sys.exit(main())
