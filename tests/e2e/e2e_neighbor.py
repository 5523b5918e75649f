#!/usr/bin/env python3
"""The neighbourhood collectives end to end (neighbor_suite.hpp).

    e2e_neighbor.py blocking --np N     the five MPI_Neighbor_* methods
                                        verified at N ranks on both
                                        topologies (OSU's graph, a Cartesian
                                        grid), in 1 and 2 dimensions, both
                                        count patterns.
    e2e_neighbor.py nonblocking --np N  the five MPI_Ineighbor_* methods with
                                        the overlap suite's parts, verified on
                                        both topologies.
    (Where a rank is a neighbour twice, a library that matches the repeated
    edges against MPI-4.1 may have a point skipped, the reason said; every
    method is verified on some topology at every rank count, and on both
    rings at 3 ranks.)
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


def repeated(np, topology, dim):
    """Whether a rank is a neighbour twice on this grid at np ranks: every
    grid of 2 ranks, cart with a dimension of 1 or 2 ranks (all but a ring
    of 3 or 4), OSU's graph in 2 dimensions (2x2 at 4 ranks)."""
    if np == 2:
        return True
    if topology == "cart":
        return dim != "1"
    return dim == "2"


def check_points(a, doc, methods, sizes, counts_of):
    """Every point verified, except (skipped, the reason said) OSU's graph
    in 2 dimensions below 4 ranks and, where a rank is a neighbour twice, an
    alltoall whose library matches the repeated edges against MPI-4.1 §8.6.
    Every method verified on at least one topology at every rank count, on
    both (rings) at 3 ranks, on OSU's ring at 4. Returns the records."""
    got = {key(r): r for r in doc["records"]}
    skipped = {key(s): s for s in doc["skipped"]}
    for m in methods:
        verified = set()
        for size in sizes:
            for topology, dim in grids(a.np):
                for counts in counts_of(m):
                    k = (m, size, topology, dim, counts)
                    what = f"{m} {size} B {topology} dim {dim} counts {counts}"
                    r = got.get(k)
                    if r is None:
                        s = skipped.get(k)
                        check(s is not None, f"no record or skip for {what}")
                        if topology == "osu" and dim == "2" and a.np < 4:
                            check("its own neighbour" in s["reason"], f"{what}: {s}")
                            continue
                        call = "MPI_" + ("I" + m[1:] if m[0] == "i" else m[0].upper() + m[1:])
                        check("alltoall" in m and repeated(a.np, topology, dim)
                              and "MPI-4.1 §8.6" in s["reason"]
                              and f") {call} matches the repeated edges" in s["reason"],
                              f"{what}: skipped: {s['reason']}")
                        continue
                    check(r["verification"]["status"] == "passed",
                          f"{what}: {r['verification']}")
                    check(r["options"]["radius"] == "1", f"{what}: options {r['options']}")
                    verified.add((topology, dim))
        check(verified, f"{m}: verified on no topology at {a.np} ranks")
        if a.np == 3:
            check({("osu", "1"), ("cart", "1")} <= verified,
                  f"{m}: the rings of 3 not both verified: {verified}")
        if a.np == 4:
            check(("osu", "1") in verified, f"{m}: OSU's ring of 4 not verified")
    return list(got.values())


def test_blocking(a):
    vw = [m for m in BLOCKING if m.split("_")[1] in VW]
    doc, p = run_grid(a, BLOCKING, SIZES, "blocking",
                      sets(vw, "counts", "varied,uniform"))
    check(p.returncode == 0, f"runner exited {p.returncode}")
    records = check_points(a, doc, BLOCKING, SIZES,
                           lambda m: ["varied", "uniform"] if m in vw else [None])
    for r in records:
        check(r["suite"] == "collective", f"{r['method']}: suite {r['suite']}")
    check("per rank" in p.stdout, "the collective tables' title")


def test_nonblocking(a):
    doc, p = run_grid(a, NONBLOCKING, ["4KiB"], "nonblocking")
    check(p.returncode == 0, f"runner exited {p.returncode}")
    records = check_points(a, doc, NONBLOCKING, ["4 KiB"],
                           lambda m: ["varied"] if m[1:].split("_")[1] in VW else [None])
    for r in records:
        what = f"{r['method']} {r['options']}"
        check(r["suite"] == "overlap" and r["headline_part"] == "both"
              and [x["name"] for x in r["parts"]] == ["comm", "compute", "both"],
              f"{what}: parts {r.get('parts')}")
        ms = {x["name"]: x["value"] for x in r.get("metrics", [])}
        for name in ("overlap", "overlap_osu"):
            check(name in ms and 0 <= ms[name] <= 100, f"{what}: {name} {ms.get(name)}")


def test_reversed(a):
    # At 2 ranks OSU's graph is the other rank twice (2 blocks): a library
    # that swaps repeated edges would swap them back; the cart grid (2x1, 4
    # blocks, two from the rank itself) fails whatever the library does.
    for topology in (("osu", "cart") if a.np > 2 else ("cart",)):
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
