#!/usr/bin/env python3
"""The neighbourhood collectives end to end (neighbor_suite.hpp).

    e2e_neighbor.py blocking --np N     the five MPI_Neighbor_* methods
                                        verified at N ranks on both
                                        topologies (OSU's graph, a Cartesian
                                        grid), in 1 and 2 dimensions, both
                                        count patterns.
    e2e_neighbor.py nonblocking --np N  the five MPI_Ineighbor_* methods with
                                        the overlap suite's parts, verified on
                                        both topologies (or skipped naming a
                                        library that misplaces the blocks of
                                        a short periodic dimension; never
                                        under MPICH, never on a grid of 3).
    e2e_neighbor.py reversed --np N     blocks put in reversed neighbour
                                        order (neighbor_reversed) fail,
                                        naming the neighbour.
    e2e_neighbor.py bad --np N          bad option values exit 2, one
                                        message; combinations that cannot
                                        be built are skipped with the reason.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, run_np, suite_main  # noqa: E402

BLOCKING = ["neighbor_allgather", "neighbor_allgatherv", "neighbor_alltoall",
            "neighbor_alltoallv", "neighbor_alltoallw"]
NONBLOCKING = ["i" + m for m in BLOCKING]
VW = {"allgatherv", "alltoallv", "alltoallw"}
# 1 int, 257 ints (odd: the varied counts differ), 16385 ints.
SIZES = ["4", "1028", "65540"]


def sets(methods, option, values):
    out = []
    for m in methods:
        out += ["--set", f"{m}.{option}={values}"]
    return out


def load(path):
    with open(path) as f:
        return json.load(f)


def key(r):
    o = r.get("options", {})
    return (r["method"], r["size_label"], o.get("topology"), o.get("dim"),
            o.get("counts"))


def grids(np):
    """(topology, dim) pairs that build at np ranks: both topologies in one
    dimension (a ring; at 2 ranks both neighbours are the other rank) and in
    two (cart: 2x1, 3x1, 2x2; OSU's graph in 2 dimensions needs no dimension
    of 1: at 4 ranks only, 2x2 with repeated neighbours)."""
    out = [("osu", "0"), ("osu", "1"), ("cart", "0"), ("cart", "1")]
    return out + ([("osu", "2")] if np == 4 else [])


def run_grid(a, methods, sizes, name, extra=()):
    """Every method at every size and grid; returns the document and the
    runner's output."""
    out = os.path.join(a.workdir, f"{name}_np{a.np}.json")
    dims = sorted({d for _, d in grids(a.np)})
    args = ["-m", ",".join(methods), "--sizes", ",".join(sizes)]
    args += sets(methods, "topology", "osu,cart") + sets(methods, "dim", ",".join(dims))
    args += list(extra)
    p = run_np(a, args, out)
    check(os.path.exists(out), f"no result file ({p.returncode})")
    return load(out), p


def test_blocking(a):
    vw = [m for m in BLOCKING if m.split("_")[1] in VW]
    doc, p = run_grid(a, BLOCKING, SIZES, "blocking",
                      sets(vw, "counts", "varied,uniform"))
    check(p.returncode == 0, f"runner exited {p.returncode}")
    got = {key(r): r for r in doc["records"]}
    for m in BLOCKING:
        for size in SIZES:
            for topology, dim in grids(a.np):
                for counts in (["varied", "uniform"] if m in vw else [None]):
                    r = got.get((m, size, topology, dim, counts))
                    what = f"{m} {size} B {topology} dim {dim} counts {counts}"
                    check(r is not None, f"no record for {what}")
                    check(r["verification"]["status"] == "passed",
                          f"{what}: {r['verification']}")
                    check(r["suite"] == "collective", f"{m}: suite {r['suite']}")
                    check(r["options"]["radius"] == "1", f"{what}: options {r['options']}")
    # Blocking neighbourhood alltoalls pair the blocks as MPI-4.1 says in
    # both libraries: nothing skipped but OSU's graph in 2 dimensions below
    # 4 ranks.
    for s in doc["skipped"]:
        check(s["options"]["topology"] == "osu" and s["options"]["dim"] == "2"
              and a.np < 4 and "its own neighbour" in s["reason"],
              f"unexpected skip: {s}")
    check("per rank" in p.stdout, "the collective tables' title")


def test_nonblocking(a):
    doc, p = run_grid(a, NONBLOCKING, ["4KiB"], "nonblocking")
    check(p.returncode == 0, f"runner exited {p.returncode}")
    got = {key(r): r for r in doc["records"]}
    skipped = {key(s): s for s in doc["skipped"]}
    for m in NONBLOCKING:
        for topology, dim in grids(a.np):
            k = (m, "4096", topology, dim, "varied" if m[1:].split("_")[1] in VW else None)
            what = f"{m} {topology} dim {dim}"
            r = got.get(k)
            if r is None:
                s = skipped.get(k)
                check(s is not None, f"no record or skip for {what}")
                if topology == "osu" and dim == "2":
                    check(a.np < 4 and "its own neighbour" in s["reason"], f"{what}: {s}")
                    continue
                # Only a library that pairs a short periodic dimension's two
                # blocks in list order (Open MPI 4.1's libnbc), only on a
                # Cartesian grid with such a dimension, only the alltoalls.
                check(a.launcher == "openmpi" and topology == "cart"
                      and "alltoall" in m and not (a.np == 3 and dim == "1")
                      and "MPI-4.1" in s["reason"] and "s^1" in s["reason"]
                      and f"MPI_I{m[1:]} " in s["reason"], f"{what}: skipped: {s['reason']}")
                continue
            check(r["verification"]["status"] == "passed", f"{what}: {r['verification']}")
            check(r["suite"] == "overlap" and r["headline_part"] == "both"
                  and [x["name"] for x in r["parts"]] == ["comm", "compute", "both"],
                  f"{what}: parts {r.get('parts')}")
            ms = {x["name"]: x["value"] for x in r.get("metrics", [])}
            for name in ("overlap", "overlap_osu"):
                check(name in ms and 0 <= ms[name] <= 100, f"{what}: {name} {ms.get(name)}")
    # A ring of 3 has no short dimension: every method verified there, in
    # either library.
    if a.np == 3:
        for m in NONBLOCKING:
            counts = "varied" if m[1:].split("_")[1] in VW else None
            check((m, "4096", "cart", "1", counts) in got, f"{m} cart ring of 3 not verified")


def test_reversed(a):
    for topology in ("osu", "cart"):
        out = os.path.join(a.workdir, f"reversed_{topology}_np{a.np}.json")
        p = run_np(a, ["--plugin-dir", a.fault_plugins, "-m", "neighbor_reversed",
                       "--sizes", "1028", "--set", f"neighbor_reversed.topology={topology}"],
                   out)
        check(p.returncode == 1, f"{topology}: reversed blocks exited {p.returncode}, expected 1")
        rec = load(out)["records"][0]
        v = rec["verification"]
        check(v["status"] == "failed" and "from neighbour rank" in v["message"]
              and "'s block" in v["message"], f"{topology}: {v}")


def test_bad(a):
    for setting, says in (("topology=ring", "osu, cart"), ("radius=0", "radius"),
                          ("dim=7", "dim"), ("counts=odd", "varied, uniform")):
        m = "neighbor_alltoallv"
        out = os.path.join(a.workdir, "bad.json")
        p = run_np(a, ["-m", m, "--sizes", "4", "--set", f"{m}.{setting}"], out)
        check(p.returncode == 2, f"{setting}: exit {p.returncode}, expected 2")
        errors = [l for l in p.stderr.splitlines() if l.startswith("runner: error:")]
        check(len(errors) == 1 and says in errors[0],
              f"{setting}: expected one error naming '{says}', got {errors}")
        check(not os.path.exists(out), f"{setting}: wrote a result file")
    # Combinations that cannot be built: skipped, the reason said.
    out = os.path.join(a.workdir, f"unbuildable_np{a.np}.json")
    p = run_np(a, ["-m", "neighbor_allgather,ineighbor_alltoall", "--sizes", "4",
                   "--set", "neighbor_allgather.topology=cart",
                   "--set", "neighbor_allgather.radius=2",
                   "--set", f"ineighbor_alltoall.radius={a.np}"], out)
    check(p.returncode == 0, f"unbuildable: exit {p.returncode}")
    reasons = {s["method"]: s["reason"] for s in load(out)["skipped"]}
    check("radius 2 applies to topology osu only" in reasons.get("neighbor_allgather", ""),
          f"cart radius 2: {reasons}")
    check("its own neighbour" in reasons.get("ineighbor_alltoall", ""),
          f"osu radius {a.np}: {reasons}")


if __name__ == "__main__":
    sys.exit(suite_main({"blocking": test_blocking, "nonblocking": test_nonblocking,
                         "reversed": test_reversed, "bad": test_bad}))
