#!/usr/bin/env python3
"""The collectives with per-rank counts and the scans end to end (issue 45,
docs/methods.md "Per-rank counts: the v- and w-collectives and the scans").

    e2e_vcoll.py blocking --np N    allgatherv, alltoallv, alltoallw,
                                    gatherv, scatterv, reduce_scatter (each
                                    with counts=varied and counts=uniform),
                                    scan and exscan verified at N ranks, at
                                    sizes of 1, 257 (odd) and 16384 ints;
                                    alltoallw and ialltoallw with types=int
                                    (OSU's MPI_INT to every peer) too;
                                    the options recorded; a bad counts
                                    value exits 2 naming what is accepted.
    e2e_vcoll.py overlap --np N     their non-blocking forms (iallgatherv,
                                    ialltoallv, ialltoallw, igatherv,
                                    iscatterv, ireduce_scatter) the same,
                                    with the overlap suite's parts.
    e2e_vcoll.py wrong --np N       wrong_gatherv (a root that receives at
                                    uniform displacements while the counts
                                    vary) fails verification naming the
                                    misplaced block (exit 1); with uniform
                                    counts the same plugin passes.
    e2e_vcoll.py algorithms --np N  --algorithms all over the new blocking
                                    collectives: every algorithm the library
                                    lists for each verified, or skipped with
                                    the library's refusal; one with none
                                    (alltoallw under Open MPI) or none it
                                    can switch after MPI_Init (Open MPI
                                    4.1.4's allgatherv) runs the library's
                                    choice only.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, env, launch, run_np, suite_main, validate  # noqa: E402

V_BLOCKING = ["allgatherv", "alltoallv", "alltoallw", "gatherv", "scatterv",
              "reduce_scatter"]
SCANS = ["scan", "exscan"]
V_OVERLAP = ["i" + m for m in V_BLOCKING]
SIZES = ["4", "1028", "65536"]  # 1, 257 and 16384 ints
COUNTS = ["varied", "uniform"]


def counts_axes(methods):
    out = []
    for m in methods:
        out += ["--set", f"{m}.counts={','.join(COUNTS)}"]
    return out


def records_by_point(doc):
    got = {}
    for r in doc["records"]:
        key = (r["method"], r["size_label"], r.get("options", {}).get("counts"))
        check(key not in got, f"two records for {key}")
        got[key] = r
    return got


def check_all_verified(doc, methods, with_counts, suite):
    got = records_by_point(doc)
    for m in methods:
        for size in SIZES:
            for counts in (COUNTS if m in with_counts else [None]):
                r = got.get((m, size, counts))
                check(r is not None, f"no record for {m} at {size} B, counts {counts}")
                check(r["verification"]["status"] == "passed",
                      f"{m} {size} B counts={counts}: {r['verification']}")
                check(r["suite"] == suite, f"{m}: suite {r['suite']}")
                check(r["ranks"] == doc["context"]["rank_counts"][0], f"{m}: ranks")
    check(doc["skipped"] == [], f"unexpected skips: {doc['skipped']}")
    check(len(doc["records"]) == sum(len(SIZES) * (2 if m in with_counts else 1)
                                     for m in methods),
          f"{len(doc['records'])} records: more points than asked for")
    return got


def test_blocking(a):
    methods = V_BLOCKING + SCANS
    out = os.path.join(a.workdir, "blocking.json")
    p = run_np(a, ["-m", ",".join(methods), "--sizes", ",".join(SIZES)]
               + counts_axes(V_BLOCKING), out)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = validate(a, out)
    got = check_all_verified(doc, methods, V_BLOCKING, "collective")
    # Each names its collective for --algorithms and the guideline view.
    for m in methods:
        r = got[(m, "1028", "varied" if m in V_BLOCKING else None)]
        check(r.get("params", {}).get("collective") == m,
              f"{m}: params {r.get('params')}")
    # types=int: OSU's osu_alltoallw (MPI_INT to every peer), checked alike.
    out = os.path.join(a.workdir, "types_int.json")
    w = ["alltoallw", "ialltoallw"]
    p = run_np(a, ["-m", ",".join(w), "--sizes", ",".join(SIZES)]
               + [x for m in w for x in ("--set", f"{m}.types=int")]
               + counts_axes(w), out)
    check(p.returncode == 0, f"types=int: runner exited {p.returncode}")
    recs = validate(a, out)["records"]
    check(len(recs) == len(w) * len(SIZES) * len(COUNTS), f"types=int: {len(recs)} records")
    for r in recs:
        check(r["verification"]["status"] == "passed" and
              r.get("options", {}).get("types") == "int",
              f"types=int {r['method']} {r['size_label']}: {r['verification']} "
              f"{r.get('options')}")
    # The help says what counts accepts; a bad value is refused before
    # anything runs, on every rank alike (one message).
    h = subprocess.run([a.runner, "--help-method", "alltoallw"], capture_output=True,
                       text=True, env=env(), timeout=60)
    check(h.returncode == 0 and "counts" in h.stdout and "uniform" in h.stdout
          and "types" in h.stdout,
          f"--help-method alltoallw: {h.stdout[-500:]}")
    bad = os.path.join(a.workdir, "bad.json")
    p = run_np(a, ["-m", "gatherv", "--sizes", "4", "--set", "gatherv.counts=random"],
               bad)
    check(p.returncode == 2, f"counts=random: exit {p.returncode}, expected 2")
    errors = [l for l in p.stderr.splitlines() if l.startswith("runner: error:")]
    check(len(errors) == 1 and "varied" in errors[0] and "uniform" in errors[0],
          f"counts=random: expected one error naming varied and uniform, got {errors}")
    check(not os.path.exists(bad), "a bad counts value wrote a result file")


def test_overlap(a):
    out = os.path.join(a.workdir, "overlap.json")
    p = run_np(a, ["-m", ",".join(V_OVERLAP), "--sizes", ",".join(SIZES)]
               + counts_axes(V_OVERLAP), out)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = validate(a, out)
    got = check_all_verified(doc, V_OVERLAP, V_OVERLAP, "overlap")
    for (m, size, counts), r in got.items():
        check([x["name"] for x in r["parts"]] == ["comm", "compute", "both"],
              f"{m}: parts {r.get('parts')}")
        names = {x["name"] for x in r.get("metrics", [])}
        check({"overlap", "overlap_osu"} <= names, f"{m} {size}: metrics {names}")


def test_wrong(a):
    out = os.path.join(a.workdir, "wrong.json")
    p = run_np(a, ["--plugin-dir", a.fault_plugins, "-m", "wrong_gatherv",
                   "--sizes", "1028"], out)
    check(p.returncode == 1, f"a misplaced block exited {p.returncode}, expected 1")
    with open(out) as f:
        rec = json.load(f)["records"][0]
    # 257 ints on average: rank 0 sends 129, so rank 1's block starts at
    # element 129, where the wrong root wrote nothing.
    msg = rec["verification"]["message"]
    check(rec["verification"]["status"] == "failed" and
          "gathered element 129 (block of rank 1)" in msg and "never written" in msg,
          f"wrong_gatherv: {rec['verification']}")
    # Uniform counts: the uniform displacements are right, and it passes.
    out = os.path.join(a.workdir, "right.json")
    p = run_np(a, ["--plugin-dir", a.fault_plugins, "-m", "wrong_gatherv",
                   "--sizes", "1028", "--set", "wrong_gatherv.counts=uniform"], out)
    check(p.returncode == 0, f"wrong_gatherv with uniform counts exited {p.returncode}")


def found_algorithms(a):
    cmd = launch(a, 1) + [a.runner, "algorithms", "-f", "json"]
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env())
    check(p.returncode == 0, f"runner algorithms: exit {p.returncode}")
    return {c["collective"]: c for c in json.loads(p.stdout)["collectives"]}


def test_algorithms(a):
    methods = V_BLOCKING + SCANS
    library = "Open MPI" if a.launcher == "openmpi" else "MPICH"
    lib = found_algorithms(a)
    sizes = ["1028", "65536"]
    out = os.path.join(a.workdir, "algorithms.json")
    p = run_np(a, ["-m", ",".join(methods), "--algorithms", "all",
                   "--sizes", ",".join(sizes)], out, reps="2")
    check(p.returncode == 0, f"--algorithms all: exit {p.returncode}")
    doc = validate(a, out)
    want = 0
    switchable = []
    for m in methods:
        c = lib.get(m, {})
        # A collective the library lists but cannot switch after MPI_Init
        # (Open MPI 4.1.4's allgatherv) runs the library's choice only, and
        # says why.
        if c.get("algorithms") and c.get("switchable"):
            switchable.append(m)
            want += len(sizes) * (len(c["algorithms"]) + 1)
        else:
            check(not c.get("algorithms") or c.get("why_fixed"),
                  f"{m}: listed algorithms, neither switchable nor why not: {c}")
            want += len(sizes)
    print(f"{library}: switchable algorithms of {switchable}")
    got = len(doc["records"]) + len(doc["skipped"])
    check(got == want, f"{got} points, expected {want} (every listed algorithm "
          "and the library's choice, per size)")
    # Open MPI 4.1.4 switches alltoallv, reduce_scatter, scan and exscan;
    # MPICH more.
    check(len(switchable) >= 4, f"algorithms for only {switchable}")
    ran = {}
    for r in doc["records"]:
        check(r["verification"]["status"] == "passed",
              f"{r['method']} {r['options']}: {r['verification']}")
        ran.setdefault(r["method"], set()).add(r["options"].get("algorithm", "library"))
    for s in doc["skipped"]:
        # MPICH's noncommutative reduce_scatter asserts instead of refusing:
        # the plugin skips it where it would abort the launch.
        aborts = (library == "MPICH" and s["method"] == "reduce_scatter"
                  and "aborts the launch instead of refusing" in s["reason"])
        check(s["reason"].startswith(library + " refused ") or aborts,
              f"{s['method']}: skipped for another reason: {s['reason'][:200]}")
    for m in methods:
        check("library" in ran.get(m, set()), f"{m}: the library's choice not measured")
        if m in switchable:
            check(len(ran[m]) >= 2, f"{m}: only {ran[m]} ran")


if __name__ == "__main__":
    sys.exit(suite_main({"blocking": test_blocking, "overlap": test_overlap,
                         "wrong": test_wrong, "algorithms": test_algorithms}))
