#!/usr/bin/env python3
"""The stencil suite (seed 004, OPBench) end to end.

    e2e_stencil.py methods --np N   every stencil method verified on a ring
                                    of N ranks (odd N too), its four phases
                                    recorded; --exchanges and --stride work.
    e2e_stencil.py corrupt --np N   a wrong unpack (corrupt_unpack) fails.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Fail, check, run_np, suite_main  # noqa: E402

METHODS = ["opbench_mpi", "stencil_datatype", "stencil_persistent",
           "stencil_neighbor", "stencil_shm"]
PHASES = ["pack", "comm", "unpack", "app"]


def run(a, args, out):
    return run_np(a, args, out)


def test_methods(a):
    for extra, tag in (([], "default"), (["--exchanges", "2", "--stride", "24"], "strided")):
        out = os.path.join(a.workdir, f"stencil_{tag}_np{a.np}.json")
        p = run(a, ["-m", "stencil", "--sizes", "8,1000,65536"] + extra, out)
        check(p.returncode == 0, f"{tag}: runner exited {p.returncode}")
        with open(out) as f:
            doc = json.load(f)
        got = {(r["method"], r["bytes"]): r for r in doc["records"]}
        for m in METHODS:
            for size in (8, 1000, 65536):
                r = got.get((m, size))
                check(r is not None, f"{tag}: no record for {m} at {size} B")
                check(r["verification"]["status"] == "passed",
                      f"{tag}: {m} {size} B: {r['verification']}")
                check([ph["name"] for ph in r["phases_s"]] == PHASES,
                      f"{m}: phases {r.get('phases_s')}")
        check(doc["skipped"] == [], f"{tag}: unexpected skips: {doc['skipped']}")
        place = doc["context"]["placement"]
        check(len(place["ranks"]) == a.np and all(r["cpus"] for r in place["ranks"])
              and isinstance(place["ranks_0_1"]["share_l3"], bool),
              f"{tag}: placement {place}")
        opts = doc["context"]["options"]
        check(opts["exchanges"] == (2 if extra else 4) and opts["stride"] == (24 if extra else 8),
              f"{tag}: context options {opts}")
    # The seed's columns, per method: size, pack, comm, unpack, app.
    check("stencil/opbench_mpi / 1d" in p.stdout and "unpack" in p.stdout,
          "no phases table per method")
    # A size that is not whole elements is skipped with the reason; an
    # array that would not fit (a wide stride) by the memory guard.
    out = os.path.join(a.workdir, f"stencil_skips_np{a.np}.json")
    p = run(a, ["-m", "opbench_mpi", "--sizes", "12,4MiB", "--stride", "4096",
                "--max-memory", "1GiB"], out)
    check(p.returncode == 0, f"skips: runner exited {p.returncode}")
    with open(out) as f:
        reasons = [s["reason"] for s in json.load(f)["skipped"]]
    check(len(reasons) == 2 and "not a multiple of 8" in reasons[0]
          and "payload copies" in reasons[1], f"skips: {reasons}")
    for bad, says in ((["--exchanges", "3"], "--exchanges must be even"),
                      (["--stride", "12"], "--stride must be a multiple of 8")):
        p = run(a, ["-m", "stencil", "--sizes", "8"] + bad, os.path.join(a.workdir, "bad.json"))
        check(p.returncode == 2 and says in p.stderr, f"{bad}: exit {p.returncode}")


def test_corrupt(a):
    out = os.path.join(a.workdir, f"corrupt_unpack_np{a.np}.json")
    p = run(a, ["--plugin-dir", a.fault_plugins, "-m", "corrupt_unpack", "--sizes", "64"], out)
    check(p.returncode == 1, f"a wrong unpack exited {p.returncode}, expected 1")
    with open(out) as f:
        r = json.load(f)["records"][0]
    check(r["verification"]["status"] == "failed"
          and "element 7 is" in r["verification"]["message"]
          and "never written" in r["verification"]["message"],
          f"corrupt_unpack: {r['verification']}")


if __name__ == "__main__":
    sys.exit(suite_main({"methods": test_methods, "corrupt": test_corrupt}))
