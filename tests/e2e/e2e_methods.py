#!/usr/bin/env python3
"""End-to-end tests of the measurements under mpirun: every method the
runner lists measured and verified (all-methods), a corrupting plugin
failing its run (corrupt), the ping-pong, fan-in and all-pairs methods.

Each subcommand is one ctest test (tests/e2e/CMakeLists.txt); the harness
is e2e.py's.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import (  # noqa: E402
    FANIN_METHODS, VERIFY, PINGPONG_METHODS, TRANSFER_METHODS, check, expected_methods,
    known_skip, listed_methods, mpirun, out_path, runner, validate, runner_main)


def test_all_methods(a):
    out = out_path(a, f"all_np{a.np}.json")
    listed = listed_methods(a)
    # Oversubscribed, a passive-target operation waits for its target to
    # be scheduled (milliseconds each under MPICH): the rma suite's 150
    # points run at 2 ranks here, at 3 and 4 in e2e_rma_np3/4 (e2e_p2p.py).
    if a.np > 2:
        listed = {m: v for m, v in listed.items() if v[0] != "rma"}
    methods = "all" if a.np == 2 else ",".join(sorted({v[0] for v in listed.values()}))
    p = mpirun(a, a.np, ["--methods", methods, "--sizes", "small,medium", "-o", out] + VERIFY)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = validate(a, out)
    check(doc["complete"] is True, "document not marked complete")
    check(doc["context"]["ranks"] == a.np, "context.ranks differs from -np")
    got = {(r["method"], r["payload"], r["size_label"]) for r in doc["records"]}
    for m in expected_methods(a, TRANSFER_METHODS):
        check(m in listed, f"--list lacks the seed method {m}")
    # The run used the MPI the build was configured with (MPIARENA_MPI).
    library = doc["context"]["mpi_library"]
    want = {"openmpi": "Open MPI", "mpich": "MPICH"}[a.launcher]
    check(want in library, f"mpi_library is {library!r}, expected {want}")
    # Open MPI 4's osc rdma crash (docs/methods.md#rma): skipped, the reason said.
    known = {(s["method"], s["payload"]) for s in doc["skipped"]
             if "open-mpi/ompi#11349" in s["reason"] and a.launcher == "openmpi"}
    # The skips the docs name (known_skip): the reason said.
    documented = {(s["method"], s["payload"]) for s in doc["skipped"]
                  if known_skip(a, s)}
    for m, (suite, payloads) in listed.items():
        # The rma atomics move one 8-byte element whatever --sizes says.
        fixed = suite == "rma" and m.split("_")[0] in ("fop", "cas")
        for payload in payloads:
            for size in ("8",) if fixed else ("small", "medium"):
                check((m, payload, size) in got or (m, payload) in known | documented,
                      f"no record for {m} {payload} {size}")
    check(all(m.startswith("cas_") and p == "allocate" for m, p in known),
          f"skips beyond the known Open MPI crash: {known}")
    doc["skipped"] = [s for s in doc["skipped"]
                      if (s["method"], s["payload"]) not in known | documented]
    for r in doc["records"]:
        check(r["verification"]["status"] == "passed",
              f"{r['method']} {r['payload']} {r['size_label']}: {r['verification']}")
        check(r["ranks"] == a.np, "record ranks differs from -np")
        check(len(r["samples_s"]["max"]) == 3, "3 repetitions asked")
        check(r["time_s"]["min"] <= r["time_s"]["median"] <= r["time_s"]["max"],
              "time statistics out of order")
        for lo, hi in zip(r["samples_s"]["min"], r["samples_s"]["max"]):
            check(lo <= hi, "min over ranks above max over ranks")
    check(doc["skipped"] == [], f"unexpected skips: {doc['skipped']}")
    # The table ranks methods per payload and size.
    check("transfer / 2d / medium" in p.stdout, "table lacks the 2d medium group")
    check(p.stdout.count("mpiarena ") == 1, "the table must be printed once (rank 0)")
    # The summary is in the document, and `runner report` reproduces the
    # tables printed at the end of the run from the saved file alone.
    check(len(doc["summary"]["best"]) > 0, "no summary in the document")
    check("Fastest method per size" in p.stdout, "no summary after the run")
    rep = runner(a, ["report", out])
    check(rep.returncode == 0, f"runner report exited {rep.returncode}")
    check(rep.stdout.strip() and rep.stdout in p.stdout,
          "runner report differs from the tables printed by the run")
    md = runner(a, ["report", out, "--format", "markdown"])
    check(md.returncode == 0 and "| 1 | " in md.stdout and "### 1d vs 2d" in md.stdout,
          "markdown report incomplete")


def test_corrupt(a):
    out = out_path(a, f"corrupt_np{a.np}.json")
    p = mpirun(a, a.np, ["--plugin-dir", a.test_plugins, "--methods", "corrupt,bcast",
                         "--sizes", "small", "-o", out] + VERIFY)
    check(p.returncode == 1, f"a corrupting plugin must fail the run with 1, got {p.returncode}")
    doc = validate(a, out)
    status = {(r["method"], r["payload"]): r["verification"]["status"] for r in doc["records"]}
    check(status.get(("corrupt", "1d")) == "failed", f"corrupt 1d not failed: {status}")
    check(status.get(("corrupt", "2d")) == "failed", f"corrupt 2d not failed: {status}")
    check(status.get(("bcast", "1d")) == "passed", "bcast must still pass beside it")
    check("FAILED" in p.stdout, "the table must show FAILED")


def test_pingpong(a):
    """Every ping-pong plugin at 0 B, on the NetPIPE ladder and at 64 KiB:
    verified one-way times, the pair (0, 1) only, and fits that hold (or
    the sizes they leave out) over every size of every method."""
    out = out_path(a, f"pingpong_np{a.np}.json")
    sizes = "0,netpipe:1000..1100,65536"
    p = mpirun(a, a.np, ["--methods", "pingpong", "--sizes", sizes, "-o", out] + VERIFY)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = validate(a, out)
    want_sizes = {0, 1021, 1024, 1027, 65536}
    got = {(r["method"], r["bytes"]) for r in doc["records"]}
    methods = expected_methods(a, PINGPONG_METHODS)
    for m in methods:
        for b in want_sizes:
            check((m, b) in got, f"no record for {m} at {b} B")
    for r in doc["records"]:
        check(r["suite"] == "pingpong" and r["payload"] == "bytes", "not a pingpong record")
        check(r["verification"]["status"] == "passed",
              f"{r['method']} {r['bytes']}: {r['verification']}")
        check(r["payload_bytes"] == r["bytes"], "the bytes payload holds exactly the size")
        check(r["time_scale"] == 0.5, "ping-pong records hold one-way times")
        check(r["pairs"] == 1, "one pair by default")
        check(r["ranks"] == a.np, "record ranks differs from -np")
    unexpected = [s for s in doc["skipped"] if not known_skip(a, s)]
    check(unexpected == [], f"unexpected skips: {unexpected}")
    # Every size is fitted (where L + n / B holds within 25%, L >= 0) or
    # listed as not fitted.
    summary = doc["summary"]
    for m in methods:
        fits = [f for f in summary["fits"] if f["method"] == m]
        unfitted = [u for u in summary["unfitted"] if u["method"] == m]
        check(fits or unfitted, f"no fitted model for {m}, nor its sizes left out")
        check(sum(f["points"] for f in fits + unfitted) == len(want_sizes),
              f"{m}: the fits and the sizes left out cover every size")
        for f in fits:
            check(f["latency_s"] >= 0 and f["max_error"] <= 0.25, f"{m}: fit {f}")
    check("L + n / B" in p.stdout, "no fit table after the run")
    # --wait auto: ranks sleep between samples exactly when the node has
    # more ranks than CPUs, and the header says so.
    cpus = len(os.sched_getaffinity(0))  # what mpirun may bind the ranks to
    over = a.np > cpus
    ctx = doc["context"]
    check(ctx["cpus_per_node"] == cpus, f"cpus_per_node {ctx['cpus_per_node']}, expected {cpus}")
    check(ctx["oversubscribed"] == over, f"oversubscribed {ctx['oversubscribed']}, np {a.np}")
    check(ctx["waiting"] == ("sleep" if over else "poll"), f"waiting {ctx['waiting']}")
    check(("oversubscribed:" in p.stdout) == over, "the header must say oversubscribed")
    for r in doc["records"]:
        per = r["per_rank_s"]
        check(len(per) == a.np, "per_rank_s has one time per rank")
        if a.np > 2:  # ranks outside the pair (0, 1) are idle
            check(max(per[2:]) < min(per[:2]), f"{r['method']}: an idle rank was busy")


def test_pairs_all(a):
    """--pairs all: every disjoint pair bounces at once; each pair's ranks are
    busy, an odd last rank idle; the aggregate bandwidth counts the pairs."""
    out = out_path(a, f"pairs_np{a.np}.json")
    p = mpirun(a, a.np, ["--methods", "pingpong", "--pairs", "all", "--sizes", "0,4096",
                         "--wait", "sleep", "-o", out] + VERIFY)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = validate(a, out)
    check(doc["context"]["waiting"] == "sleep", "--wait sleep is not recorded")
    check(doc["context"]["options"]["pairs"] == "all", "context lacks --pairs all")
    npairs = a.np // 2
    for r in doc["records"]:
        check(r["verification"]["status"] == "passed",
              f"{r['method']} {r['bytes']}: {r['verification']}")
        check(r["pairs"] == npairs, f"pairs {r['pairs']}, expected {npairs}")
        check(abs(r["aggregate_bandwidth_Bps"] - npairs * r["bandwidth_Bps"]) <=
              1e-6 * max(1.0, r["aggregate_bandwidth_Bps"]), "aggregate bandwidth")
        per = r["per_rank_s"]
        busy = per[:2 * npairs]
        if a.np % 2:
            check(per[-1] < min(busy), f"{r['method']}: the odd rank was busy")
    unexpected = [s for s in doc["skipped"] if not known_skip(a, s)]
    check(unexpected == [], f"unexpected skips: {unexpected}")


def test_fanin(a):
    """Every send mode fans in to rank 0: verified, with per-rank times."""
    out = out_path(a, f"fanin_np{a.np}.json")
    sizes = "0,8,65536,1MiB"
    p = mpirun(a, a.np, ["--methods", "fanin", "--sizes", sizes, "--wait", "poll",
                         "-o", out] + VERIFY)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = validate(a, out)
    check(doc["context"]["waiting"] == "poll", "--wait poll is not recorded")
    got = {(r["method"], r["bytes"]) for r in doc["records"]}
    for m in FANIN_METHODS:
        for b in (0, 8, 65536, 1 << 20):
            check((m, b) in got, f"no record for {m} at {b} B")
    for r in doc["records"]:
        check(r["suite"] == "fanin", "not a fan-in record")
        check(r["verification"]["status"] == "passed",
              f"{r['method']} {r['bytes']}: {r['verification']}")
        check("time_scale" not in r, "fan-in times are not scaled")
        per = r["per_rank_s"]
        check(len(per) == a.np and all(t > 0 for t in per), "one time per rank")
    check(doc["skipped"] == [], f"unexpected skips: {doc['skipped']}")
    # --per-rank prints each rank's time, a column per rank.
    p = runner(a, ["report", out, "--per-rank"])
    check(p.returncode == 0, f"report --per-rank exited {p.returncode}")
    check("Per-rank time" in p.stdout, "report --per-rank lacks its table")
    check(f"rank {a.np - 1}" in p.stdout and f"rank {a.np}" not in p.stdout,
          f"report --per-rank must have one column per rank (np {a.np})")
    rows = [l for l in p.stdout.splitlines() if l.split()[:1] == ["fanin"]]
    check(len(rows) >= len(FANIN_METHODS) * 4,
          f"report --per-rank: {len(rows)} fan-in rows")


if __name__ == "__main__":
    sys.exit(runner_main({
        "all-methods": test_all_methods,
        "corrupt": test_corrupt,
        "pingpong": test_pingpong,
        "fanin": test_fanin,
        "pairs-all": test_pairs_all,
    }))
