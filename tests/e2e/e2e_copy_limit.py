#!/usr/bin/env python3
"""The machine's copy limit beside the transfer records (docs/methodology.md,
"The copy limit").

    e2e_copy_limit.py records --np N   -m shm,raw,cma_split,shm_split -p 1d
                                        at two
                                        sizes: every
                                        record carries copy_limit for its own
                                        payload byte count (rates > 0, the
                                        node's ranks), measured once per byte
                                        count (the log says so twice, not
                                        six times); shm declares 1 copy
                                        and its fraction is receivers x
                                        bandwidth / all_ranks_Bps, cma_split
                                        and shm_split (whose payloads are
                                        in shared memory) 1 against
                                        all_ranks_Bps; raw's
                                        copies follow Open MPI's single-copy
                                        mechanism (none: 2) and are 0 (no
                                        fraction) under MPICH; the file
                                        validates and the table has the
                                        copy-limit line.
    e2e_copy_limit.py off --np N       --copy-limit off: no record carries
                                        it, no line under the table.
    e2e_copy_limit.py memory --np N    --max-memory 8MB at large (1.1 MB):
                                        the limit's buffers (2 x 1.1 MB per
                                        rank) would fill more than half of
                                        it: not measured, the log says so,
                                        the points still run and validate.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, env, launch, show, suite_main  # noqa: E402


def run(a, out, args, extra_env=None, sizes="small,large"):
    if os.path.exists(out):
        os.remove(out)
    cmd = launch(a) + [a.runner, "-m", "shm,raw,cma_split,shm_split", "-p",
                       "1d",
                       "--sizes", sizes, "-i", "2", "-r", "3", "-o", out] + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=280,
                       env=env(extra_env))
    show(cmd, p)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    with open(out) as f:
        return p, json.load(f)


def validate(a, path):
    v = subprocess.run([a.runner, "validate", path], capture_output=True,
                       text=True, env=env())
    check(v.returncode == 0, f"validate: {v.stdout}{v.stderr}")


def test_records(a):
    out = os.path.join(a.workdir, f"copy_limit_np{a.np}.json")
    mpich = a.launcher == "mpich"
    extra = None if mpich else {
        "OMPI_MCA_btl_vader_single_copy_mechanism": "none"}
    p, doc = run(a, out, [], extra)
    validate(a, out)
    recs = doc["records"]
    check(len(recs) == 8, f"{len(recs)} records, expected 8")
    receivers = a.np - 1
    for r in recs:
        c = r.get("copy_limit")
        check(c is not None, f"{r['method']} {r['bytes']}: no copy_limit")
        check(c["bytes"] == r["payload_bytes"],
              f"copy_limit.bytes {c['bytes']} != {r['payload_bytes']}")
        check(c["one_core_Bps"] > 0 and c["all_ranks_Bps"] > 0,
              f"copy limit rates {c['one_core_Bps']}, {c['all_ranks_Bps']}")
        check(c["node_ranks"] == a.np, f"node_ranks {c['node_ranks']}")
        check(c["statistic"] == "best", f"statistic {c['statistic']}")
        if r["method"] == "shm":
            # Its ring stays in cache: one copy's traffic, on two cores.
            check(c["copies"] == 1, f"shm copies {c['copies']}")
            check(c["fraction_of"] == "all_ranks", c.get("fraction_of"))
            want = receivers * r["bandwidth_Bps"] / c["all_ranks_Bps"]
            check(abs(c["fraction"] - want) <= 1e-9 * want,
                  f"shm fraction {c['fraction']}, expected {want}")
        elif r["method"] in ("cma_split", "shm_split"):
            # One copy, made in parts by the cores at once: all ranks.
            m = r["method"]
            check(c["copies"] == 1 and c["fraction_of"] == "all_ranks",
                  f"{m}: {c}")
            want = receivers * r["bandwidth_Bps"] / c["all_ranks_Bps"]
            check(abs(c["fraction"] - want) <= 1e-9 * want,
                  f"{m} fraction {c['fraction']}, expected {want}")
            check(r["verification"]["status"] == "passed",
                  f"{m}: verification {r['verification']}")
        else:
            want = 0 if mpich else 2  # single_copy_mechanism none
            check(c["copies"] == want, f"raw copies {c['copies']} != {want}")
            check(("fraction" in c) == (want > 0), f"raw: {c}")
    sizes = {r["bytes"]: r["copy_limit"] for r in recs}
    for r in recs:
        check(r["copy_limit"]["one_core_Bps"] ==
              sizes[r["bytes"]]["one_core_Bps"],
              "two records of one size hold different limits")
    measured = (p.stdout + p.stderr).count("copy limit at ")
    # Twice in the log (once per byte count), once per size under tables.
    check(measured == 4, f"'copy limit at' {measured} times, expected 4")
    check("reached: " in p.stdout and "shm " in p.stdout,
          "the table has no copy-limit line")


def test_off(a):
    out = os.path.join(a.workdir, f"copy_limit_off_np{a.np}.json")
    p, doc = run(a, out, ["--copy-limit", "off"])
    validate(a, out)
    check(all("copy_limit" not in r for r in doc["records"]),
          "a record carries copy_limit under --copy-limit off")
    check("copy limit at" not in p.stdout + p.stderr,
          "copy limit measured or shown under --copy-limit off")


def test_memory(a):
    out = os.path.join(a.workdir, f"copy_limit_memory_np{a.np}.json")
    p, doc = run(a, out, ["--max-memory", "8MB"], sizes="large")
    validate(a, out)
    check(len(doc["records"]) == 4,
          f"{len(doc['records'])} records, expected 4 (the points run)")
    check(all("copy_limit" not in r for r in doc["records"]),
          "a record carries a copy limit its memory did not allow")
    check("copy limit at 1.10 MB not measured" in p.stdout + p.stderr,
          "the log does not say the limit was not measured")


if __name__ == "__main__":
    sys.exit(suite_main({"records": test_records, "off": test_off,
                         "memory": test_memory}))
