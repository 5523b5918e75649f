#!/usr/bin/env python3
"""Point-to-point completeness (issue 17) end to end: the stream suite
(osu_bw, osu_bibw, osu_mbw_mr) and the rma suite (one-sided matrix).

    e2e_p2p.py stream --np N      every stream method verified on every
                                  pair (--pairs all), the window recorded,
                                  times per message, msg_rate metric.
    e2e_p2p.py rma --np N         every rma method x window kind verified on
                                  every pair; fixed 8-byte atomics; the
                                  matrix view; bad --window exits 2.
    e2e_p2p.py wrong-disp --np N  a put at a wrong displacement fails.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, listed_methods, run_np, suite_main, validate  # noqa: E402

STREAM = ["isend_bw", "isend_bibw", "persistent_bw", "persistent_bibw"]
OPS = {"put": "put", "get": "get", "acc": "accumulate", "get_acc": "get_accumulate",
       "fop": "fetch_and_op", "cas": "compare_and_swap"}
SYNCS = ["fence", "lock", "flush", "flush_local", "pscw"]
WINDOWS = ["allocate", "create", "dynamic"]


def load(a, out):
    return validate(a, out)


def test_stream(a):
    out = os.path.join(a.workdir, f"stream_np{a.np}.json")
    # 4 MiB x 8 passes the 8 MiB of receive slots: 2 slots, reused.
    p = run_np(a, ["-m", "stream", "--pairs", "all", "--sizes", "0,1KiB,1MiB,4MiB",
                   "--window", "8"], out, reps="2")
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = load(a, out)
    got = {(r["method"], r["bytes"]): r for r in doc["records"]}
    for m in STREAM:
        for size in (0, 1024, 1048576, 4194304):
            r = got.get((m, size))
            check(r is not None, f"no record for {m} at {size} B")
            check(r["verification"]["status"] == "passed", f"{m} {size}: {r['verification']}")
            check(r["window"] == 8, f"{m}: window {r.get('window')}")
            scale = (0.5 if m.endswith("bibw") else 1.0) / 8
            check(abs(r["time_scale"] - scale) < 1e-12, f"{m}: time_scale {r['time_scale']}")
            check(r["pairs"] == a.np // 2, f"{m}: pairs {r['pairs']}")
            rate = {x["name"]: x for x in r["metrics"]}["msg_rate"]
            want = r["pairs"] / r["time_s"]["median"]
            check(rate["unit"] == "msg/s" and abs(rate["value"] - want) <= 1e-6 * want,
                  f"{m}: msg_rate {rate['value']} != pairs / time per message {want}")
    check(doc["skipped"] == [], f"unexpected skips: {doc['skipped']}")
    check(doc["context"]["options"]["window"] == 8, "context lacks --window")


def test_rma(a):
    out = os.path.join(a.workdir, f"rma_np{a.np}.json")
    p = run_np(a, ["-m", "rma", "--pairs", "all", "--sizes", "64,4KiB", "--window", "2",
                   "--warmup", "0"], out, reps="1", min_time="0.0001")
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = load(a, out)
    listed = {m for m, (suite, _) in listed_methods(a).items() if suite == "rma"}
    want = set()
    for short, op in OPS.items():
        for sync in SYNCS:
            want.add(f"{short}_{sync}")
            if short not in ("fop", "cas"):
                want.add(f"{short}_{sync}_bw")
    want |= {"put_fence_bibw", "put_pscw_bibw"}  # osu_put_bibw
    check(listed == want, f"rma methods listed {sorted(listed ^ want)} differ")
    got = {(r["method"], r["payload"], r["bytes"]): r for r in doc["records"]}
    skipped = {(s["method"], s["payload"], s["bytes"]): s["reason"] for s in doc["skipped"]}
    for m in sorted(want):
        sizes = (8,) if m.split("_")[0] in ("fop", "cas") else (64, 4096)
        for w in WINDOWS:
            for size in sizes:
                key = (m, w, size)
                if key in skipped:
                    # Open MPI 4's osc rdma crash (open-mpi/ompi#11349).
                    check(m.startswith("cas_") and w == "allocate"
                          and "11349" in skipped[key], f"{key} skipped: {skipped[key]}")
                    continue
                r = got.get(key)
                check(r is not None, f"no record for {key}")
                check(r["verification"]["status"] == "passed", f"{key}: {r['verification']}")
                check(r["pairs"] == a.np // 2, f"{key}: pairs {r['pairs']}")
                mode = ("bidirectional" if m.endswith("_bibw") else
                        "bandwidth" if m.endswith("_bw") else "latency")
                short = m.rsplit("_", 1)[0] if mode != "latency" else m
                op = OPS[next(s for s in sorted(OPS, key=len, reverse=True)
                              if short.startswith(s + "_"))]
                check(r["params"]["op"] == op and r["params"]["sync"] in SYNCS
                      and r["params"]["mode"] == mode, f"{key}: params {r['params']}")
                check(r["matrix"] == {"row": "op", "column": "sync"}, f"{key}: {r.get('matrix')}")
                check((r.get("window") == 2) == (mode != "latency"),
                      f"{key}: window {r.get('window')}")
    check("op x sync" in p.stdout and "fastest of its row" in p.stdout,
          "no op x sync matrix in the report")
    # Sizes an op cannot take are skipped with the reason.
    out = os.path.join(a.workdir, f"rma_skip_np{a.np}.json")
    p = run_np(a, ["-m", "acc_flush", "-p", "allocate", "--sizes", "12"], out, reps="1")
    check(p.returncode == 0, f"acc at 12 B: runner exited {p.returncode}")
    reasons = [s["reason"] for s in load(a, out)["skipped"]]
    check(len(reasons) == 1 and "multiple of 8" in reasons[0], f"acc at 12 B: {reasons}")
    bad = os.path.join(a.workdir, "bad.json")
    p = run_np(a, ["-m", "put_flush", "--sizes", "64", "--window", "0"], bad)
    check(p.returncode == 2 and "--window must be between 1 and 1024" in p.stderr,
          f"--window 0: exit {p.returncode}")


def test_wrong_disp(a):
    out = os.path.join(a.workdir, f"wrong_disp_np{a.np}.json")
    p = run_np(a, ["--plugin-dir", a.fault_plugins, "-m", "put_wrong_disp", "-p", "create",
                   "--sizes", "64", "--window", "4"], out, reps="1")
    check(p.returncode == 1, f"a wrong displacement exited {p.returncode}, expected 1")
    with open(out) as f:
        r = json.load(f)["records"][0]
    v = r["verification"]
    check(v["status"] == "failed" and "the target's slot 0" in v["message"],
          f"put_wrong_disp: {v}")
    # Both ways (osu_put_bibw): only the odd rank puts wrong, so the failure
    # is the even rank's window, a target in this mode only.
    p = run_np(a, ["--plugin-dir", a.fault_plugins, "-m", "put_wrong_disp_bibw",
                   "-p", "allocate", "--sizes", "64", "--window", "4"], out, reps="1")
    check(p.returncode == 1, f"a wrong bidirectional put exited {p.returncode}, expected 1")
    with open(out) as f:
        v = json.load(f)["records"][0]["verification"]
    check(v["status"] == "failed" and "the target's slot 0" in v["message"]
          and "rank 0" in json.dumps(v), f"put_wrong_disp_bibw: {v}")


if __name__ == "__main__":
    sys.exit(suite_main({"stream": test_stream, "rma": test_rma,
                         "wrong-disp": test_wrong_disp}))
