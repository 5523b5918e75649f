#!/usr/bin/env python3
"""The congestion suite (OSU 7.4 osu_bw_fan_in, osu_bw_fan_out) end to end.

    e2e_fan.py methods --np N   bw_fan_in and bw_fan_out verified at N ranks
                                (0 bytes, one that fits the receive slots,
                                one whose slots are reused in the window),
                                the window recorded, aggregate_bw OSU's figure.
    e2e_fan.py corrupt --np N   a fan-in whose last rank corrupts the first
                                message of each window fails (exit 1), the
                                message and the rank named.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, run_np, suite_main  # noqa: E402

METHODS = {"bw_fan_in": "fan_in", "bw_fan_out": "fan_out"}
# 2 MiB x window 8 x (ranks - 1) is over the 8 MiB of receive slots
# (stream.hpp): fewer slots than messages, each reused in the window.
SIZES = ["0", "1024", "2097152"]
WINDOW = 8


def test_methods(a):
    out = os.path.join(a.workdir, f"fan_np{a.np}.json")
    p = run_np(a, ["-m", "congestion", "--sizes", ",".join(SIZES), "--window",
                   str(WINDOW)], out)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    with open(out) as f:
        doc = json.load(f)
    check(doc["skipped"] == [], f"unexpected skips: {doc['skipped']}")
    got = {(r["method"], r["size_label"]): r for r in doc["records"]}
    check({m for m, _ in got} == set(METHODS), f"methods {sorted(got)}")
    for m, direction in METHODS.items():
        for size in SIZES:
            r = got.get((m, size))
            check(r is not None, f"no record for {m} at {size}")
            check(r["suite"] == "congestion", f"{m}: suite {r['suite']}")
            check(r["verification"]["status"] == "passed", f"{m} {size}: {r['verification']}")
            check(r.get("window") == WINDOW, f"{m}: window {r.get('window')}")
            check(r.get("params", {}).get("direction") == direction,
                  f"{m}: params {r.get('params')}")
            t = r["time_s"]["median"]
            bw = {x["name"]: x["value"] for x in r["metrics"]}.get("aggregate_bw")
            want = int(size) * (a.np - 1) / t / 1e6
            check(bw is not None and abs(bw - want) <= 1e-6 * max(want, 1),
                  f"{m} {size}: aggregate_bw {bw}, expected bytes x (ranks-1) / t = {want}")
            if int(size) > 0:
                check(abs(r["bandwidth_Bps"] * (a.np - 1) / 1e6 - want) <= 1e-6 * want,
                      f"{m} {size}: the bandwidth column is not one stream's")
    check("congestion/bw_fan_in / bytes" in p.stdout and "aggregate_bw (MB/s)" in p.stdout,
          "no congestion table with aggregate_bw")


def test_corrupt(a):
    out = os.path.join(a.workdir, f"corrupt_fan_in_np{a.np}.json")
    p = run_np(a, ["--plugin-dir", a.fault_plugins, "-m", "corrupt_fan_in",
                   "--sizes", "1024,2097152", "--window", str(WINDOW)], out)
    check(p.returncode == 1, f"a corrupt fan-in exited {p.returncode}, expected 1")
    with open(out) as f:
        recs = json.load(f)["records"]
    check(len(recs) >= 1, "no record")
    for r in recs:
        v = r["verification"]
        want = f"message 0 of the window from rank {a.np - 1}: byte 3 is"
        check(v["status"] == "failed" and want in v.get("message", ""),
              f"corrupt_fan_in {r['size_label']}: {v}, expected '{want}'")


if __name__ == "__main__":
    sys.exit(suite_main({"methods": test_methods, "corrupt": test_corrupt}))
