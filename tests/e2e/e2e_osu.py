#!/usr/bin/env python3
"""OSU 7.4's program names as methods, --profile osu and runner osu.

    e2e_osu.py names --np N     --list lists the OSU programs, each one's
                                method loaded; --help-method osu_NAME names
                                the method and its settings; a run of
                                osu_allgatherv, osu_mbw_mr and plain
                                allgatherv records the programs as 'alias'
                                beside the method, with OSU's settings
                                (counts=uniform, every pair at once) on the
                                programs' points only; the document
                                validates; osu_init exits 2 naming
                                mpiarena-startup.
    e2e_osu.py profile --np N   --profile osu: the collectives time one
                                operation per sample, 1000 samples after
                                100 warm-ups up to 8 KiB and 100 after 10
                                above; point-to-point keeps the calibrated
                                loop; no interleaving, no noise record;
                                -r given replaces OSU's count.
    e2e_osu.py front --np N     runner osu PROGRAM with OSU's flags: -m
                                MIN:MAX, -i, -x, -f -z; refusals (-d, -b
                                single, -T mpi_char, an unknown program,
                                osu_init) exit 2 with the reason, once.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import (check, expect_usage_error, mpirun, out_path,  # noqa: E402
                 runner, runner_main, validate)

# A few of each family: point-to-point, one-sided, collectives,
# non-blocking, threads, start-up.
SOME_PROGRAMS = ["osu_latency", "osu_bw", "osu_bibw", "osu_mbw_mr",
                 "osu_put_bibw", "osu_allreduce", "osu_ialltoallv",
                 "osu_latency_mt", "osu_neighbor_alltoallw", "osu_init"]


def osu_lines(stdout):
    """{program: rest of the line} of --list's OSU table."""
    part = stdout.split("\nOSU Micro-Benchmarks 7.4's programs", 1)
    check(len(part) == 2, "--list has no OSU programs' table")
    out = {}
    for line in part[1].splitlines()[1:]:
        if not line.startswith("  osu_"):
            break
        name, rest = line.split(None, 1)
        out[name] = rest
    return out


def test_names(a):
    p = runner(a, ["--list"])
    check(p.returncode == 0, f"--list: exit {p.returncode}")
    listed = osu_lines(p.stdout)
    for name in SOME_PROGRAMS:
        check(name in listed, f"--list lacks {name}")
    missing = [n for n, rest in listed.items() if "not loaded" in rest]
    check(not missing, f"OSU programs whose method is not loaded: {missing}")
    check(listed["osu_allgatherv"].startswith("allgatherv[counts=uniform]"),
          f"osu_allgatherv: {listed['osu_allgatherv']!r}")
    h = runner(a, ["--help-method", "osu_alltoallw"])
    check(h.returncode == 0 and "alltoallw[counts=uniform,types=int]"
          in h.stdout and "options (runner --set alltoallw" in h.stdout,
          "--help-method osu_alltoallw")

    out = out_path(a, f"osu_names_np{a.np}.json")
    p = mpirun(a, a.np, ["-m", "osu_allgatherv,osu_mbw_mr,allgatherv",
                         "-s", "4KiB", "-r", "3", "--min-time", "0.001",
                         "-q", "-o", out])
    check(p.returncode == 0, f"run: exit {p.returncode}")
    doc = validate(a, out)
    by = {}
    for r in doc["records"]:
        by[(r["method"], r.get("alias"))] = r
        check(r["verification"]["status"] == "passed",
              f"{r['method']}: {r['verification']}")
    ours = by.get(("allgatherv", "osu_allgatherv"))
    plain = by.get(("allgatherv", None))
    mbw = by.get(("isend_bw", "osu_mbw_mr"))
    check(ours and plain and mbw, f"records: {sorted(map(str, by))}")
    check(ours["options"] == {"counts": "uniform"},
          f"osu_allgatherv's options {ours['options']}")
    check(plain["options"] == {"counts": "varied"},
          f"plain allgatherv's options {plain['options']}")
    check(mbw["pairs"] == a.np // 2, f"osu_mbw_mr: {mbw['pairs']} pairs")
    check(len(doc["records"]) == 3, f"{len(doc['records'])} records")
    expect_usage_error(a, ["-m", "osu_init"],
                       ["osu_init is timed by another program",
                        "mpiarena-startup"])


def records_of(doc, alias):
    return {r["bytes"]: r for r in doc["records"] if r.get("alias") == alias}


def test_profile(a):
    out = out_path(a, f"osu_profile_np{a.np}.json")
    p = mpirun(a, a.np, ["--profile", "osu", "-m", "osu_allreduce,osu_latency",
                         "-s", "8B,16KiB", "--min-time", "0.001", "-q",
                         "-o", out])
    check(p.returncode == 0, f"run: exit {p.returncode}")
    doc = validate(a, out)
    coll = records_of(doc, "osu_allreduce")
    check(sorted(coll) == [8, 16384], f"osu_allreduce sizes {sorted(coll)}")
    for b, (reps, warm) in {8: (1000, 100), 16384: (100, 10)}.items():
        r = coll[b]
        check(r["inner_iterations"] == 1 and r["repetitions"] == reps
              and r["warmup"] == warm,
              f"osu_allreduce {b} B: {r['inner_iterations']} x "
              f"{r['repetitions']}, warm-up {r['warmup']}")
        check(len(r["samples_s"]["avg"]) == reps, "samples kept")
    lat = records_of(doc, "osu_latency")
    check(sorted(lat) == [8, 16384], f"osu_latency sizes {sorted(lat)}")
    check(all(r["inner_iterations"] > 1 for r in lat.values()),
          "osu_latency keeps the calibrated loop")
    ctx = doc["context"]
    check(not ctx["interleave"]["enabled"], "--profile osu interleaved")
    check(not ctx["noise"]["recorded"], "--profile osu recorded noise")
    check(ctx["options"].get("profile") == "osu", "context lacks the profile")
    # -r given replaces OSU's count.
    out2 = out_path(a, f"osu_profile_r_np{a.np}.json")
    p = mpirun(a, a.np, ["--profile", "osu", "-m", "osu_bcast", "-s", "8B",
                         "-r", "40", "-q", "-o", out2])
    check(p.returncode == 0, f"-r 40: exit {p.returncode}")
    r = records_of(validate(a, out2), "osu_bcast")[8]
    check(r["repetitions"] == 40 and r["inner_iterations"] == 1,
          f"-r 40: {r['inner_iterations']} x {r['repetitions']}")


def test_front(a):
    out = out_path(a, f"osu_front_np{a.np}.json")
    p = mpirun(a, a.np, ["osu", "osu_allreduce", "-m", "4:16", "-i", "50",
                         "-x", "5", "--output", out])
    check(p.returncode == 0, f"runner osu: exit {p.returncode}")
    doc = validate(a, out)
    recs = records_of(doc, "osu_allreduce")
    check(sorted(recs) == [4, 8, 16], f"-m 4:16 gave {sorted(recs)}")
    check(all(r["repetitions"] == 50 and r["warmup"] == 5
              and r["inner_iterations"] == 1 for r in recs.values()),
          "-i 50 -x 5: not 50 samples of one operation after 5 warm-ups")
    h = runner(a, ["osu", "--help"])
    check(h.returncode == 0 and "-m [MIN:]MAX" in h.stdout
          and "--min-time" not in h.stdout, "runner osu --help")
    for args, words in (
            (["osu", "osu_latency", "-d", "cuda"], ["GPU"]),
            (["osu", "osu_bw", "-b", "single"], ["-b multiple"]),
            (["osu", "osu_allreduce", "-T", "mpi_char"], ["MPI_INT"]),
            (["osu", "osu_latencyy"], ["not an OSU 7.4 program"]),
            (["osu", "osu_hello"], ["mpiarena-startup"]),
            (["osu", "osu_latency", "-m", "8:x"], ["MIN:MAX"])):
        expect_usage_error(a, args, words)


if __name__ == "__main__":
    sys.exit(runner_main({"names": test_names, "profile": test_profile,
                          "front": test_front}))
