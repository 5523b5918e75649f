#!/usr/bin/env python3
"""Threads and processes (osu_latency_mt, osu_latency_mp) end to end.

    e2e_threads.py mt --np N      latency_mt under --thread-level multiple,
                                  sender:receiver threads 1:2 (OSU's
                                  default), 1:3, 2:2 and 2:3, verified; the
                                  context records the level; at 3 ranks the
                                  third rank is idle, as in every ping-pong.
    e2e_threads.py level --np N   without --thread-level (MPI_Init) and with
                                  --thread-level serialized the method is
                                  skipped with the reason; a wrong level or
                                  thread count exits 2 naming what is
                                  accepted.
    e2e_threads.py mp --np N      latency_mp with its default children (2:0)
                                  and 1:2, verified, no child left behind.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, launch, env, run_np, suite_main  # noqa: E402

SIZES = ["--sizes", "0,4,1KiB,64KiB"]
LABELS = {"0", "4", "1 KiB", "64 KiB"}  # labelled in the units given


def load(out):
    with open(out) as f:
        return json.load(f)


def check_records(doc, method, combos):
    got = {}
    for r in doc["records"]:
        if r["method"] != method:
            continue
        key = tuple(sorted(r.get("options", {}).items()))
        got.setdefault(key, set()).add(r["size_label"])
        check(r["verification"]["status"] == "passed",
              f"{method} {r.get('options')} {r['size_label']}: {r['verification']}")
    for combo in combos:
        key = tuple(sorted(combo.items()))
        check(got.get(key) == LABELS,
              f"{method} {combo}: sizes {sorted(got.get(key, []))}, expected {sorted(LABELS)}")
    check(doc["skipped"] == [], f"unexpected skips: {doc['skipped']}")


def test_mt(a):
    out = os.path.join(a.workdir, "mt.json")
    p = run_np(a, ["--thread-level", "multiple", "-m", "latency_mt", *SIZES,
                   "--set", "latency_mt.sender_threads=1,2",
                   "--set", "latency_mt.receiver_threads=2,3"], out)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = load(out)
    level = doc["context"].get("mpi_thread_level")
    check(level == {"requested": "multiple", "provided": "multiple"},
          f"context mpi_thread_level {level}")
    check_records(doc, "latency_mt",
                  [{"sender_threads": s, "receiver_threads": r}
                   for s in ("1", "2") for r in ("2", "3")])


def skip_reasons(doc, method):
    return [s.get("reason", "") for s in doc["skipped"] if s.get("method") == method]


def test_level(a):
    # MPI_Init: the library gives MPI_THREAD_SINGLE (or says what it gives).
    out = os.path.join(a.workdir, "single.json")
    p = run_np(a, ["-m", "latency_mt,mpi_bytes", "--sizes", "4"], out)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = load(out)
    level = doc["context"]["mpi_thread_level"]
    check(level["requested"] == "none (MPI_Init)", f"context {level}")
    reasons = skip_reasons(doc, "latency_mt")
    if level["provided"] != "multiple":
        check(reasons and all(
            "needs MPI_THREAD_MULTIPLE" in r and
            f"provides MPI_THREAD_{level['provided'].upper()}" in r and
            "--thread-level multiple" in r for r in reasons),
            f"latency_mt not skipped with the reason: {doc['skipped']}")
    check([r["method"] for r in doc["records"]] == ["mpi_bytes"],
          f"records {[r['method'] for r in doc['records']]}")
    # Asked for less than the method needs.
    out = os.path.join(a.workdir, "serialized.json")
    p = run_np(a, ["--thread-level", "serialized", "-m", "latency_mt", "--sizes",
                   "4"], out)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    doc = load(out)
    level = doc["context"]["mpi_thread_level"]
    check(level["requested"] == "serialized", f"context {level}")
    if level["provided"] != "multiple":
        reasons = skip_reasons(doc, "latency_mt")
        check(reasons and all(
            f"provides MPI_THREAD_{level['provided'].upper()}" in r for r in reasons),
            f"latency_mt not skipped with the reason: {doc['skipped']}")
        check(doc["records"] == [], "latency_mt ran below MPI_THREAD_MULTIPLE")
    # Bad input: exit 2, one message naming what is accepted.
    for args, words in (
            (["--thread-level", "many"], "accepted: single, funneled, serialized, multiple"),
            (["--thread-level", "multiple", "--set", "latency_mt.sender_threads=0"],
             "sender_threads"),
            (["--thread-level", "multiple", "--set", "latency_mt.receiver_threads=128"],
             "receiver_threads")):
        cmd = launch(a) + [a.runner, "-m", "latency_mt", "--sizes", "4", *args]
        print("$", " ".join(cmd), flush=True)
        q = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env())
        check(q.returncode == 2 and words in q.stderr,
              f"{args}: exit {q.returncode}, stderr {q.stderr[-500:]}")


def leftovers(out):
    """Processes whose command line names `out`: the runner's forked
    children carry their parent's, -o included."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline") as f:
                words = f.read().split("\0")
        except OSError:
            continue
        if out in words and any(w.endswith("runner") for w in words[:1]):
            found.append(int(pid))
    return found


def test_mp(a):
    out = os.path.join(a.workdir, "mp.json")
    p = run_np(a, ["-m", "latency_mp", *SIZES,
                   "--set", "latency_mp.sender_processes=2,1",
                   "--set", "latency_mp.receiver_processes=0,2"], out)
    check(p.returncode == 0, f"runner exited {p.returncode}")
    check_records(load(out), "latency_mp",
                  [{"sender_processes": s, "receiver_processes": r}
                   for s in ("1", "2") for r in ("0", "2")])
    check(leftovers(out) == [], f"forked children outlived the run: {leftovers(out)}")


if __name__ == "__main__":
    sys.exit(suite_main({"mt": test_mt, "level": test_level, "mp": test_mp}))
