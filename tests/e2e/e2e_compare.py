#!/usr/bin/env python3
"""End-to-end tests of `runner compare`, the csv and gbench formats and
tools/mpiarena-plot. Same harness as e2e.py (whose helpers it uses); each
subcommand is one ctest test. Exit 77 means skipped (a tool is missing).
"""
import argparse
import csv
import io
import json
import math
import os
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Skip, run_test, add_mpi_args, check, env, mpirun, out_path, parse_args, runner, validate  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))



# ---------------------------------------------------------------- synthetic


def record(method, samples, size=11000, payload="1d", moves_data=True, status="passed"):
    median = statistics.median(samples)
    # Scaled, so that samples near the largest double keep finite figures.
    n = len(samples)
    mean = sum(s / n for s in samples)
    scale = max(abs(s) for s in samples) or 1.0
    sd = (scale * math.sqrt(sum(((s - mean) / scale) ** 2 for s in samples) / (n - 1))
          if n > 1 else 0.0)
    pb = size // 4 * 4
    return {
        "suite": "transfer", "method": method, "payload": payload,
        "size_label": "small" if size == 11000 else str(size), "bytes": size,
        "payload_bytes": pb, "ranks": 2, "inner_iterations": 100,
        "repetitions": len(samples), "warmup": 1,
        "statistic": "max_over_ranks_per_repetition",
        "time_s": {"min": min(samples), "median": median, "mean": mean,
                   "max": max(samples), "stddev": sd, "cv": sd / mean if mean > 0 else 0.0},
        "samples_s": {"max": samples, "min": [s * 0.9 for s in samples],
                      "avg": [s * 0.95 for s in samples]},
        "bandwidth_Bps": pb / median if moves_data else None,
        "verification": {"status": status,
                         "message": "" if status != "failed" else "rank 1: element 3, expected 7"},
        "plugin": {"file": f"/x/mpiarena_{method}.so", "abi": 1},
    }


def document(records, **context):
    ctx = {"start_time": "2024-01-02T03:04:05Z", "hosts": ["node1"], "ranks": 2,
           "nodes": 1, "mpi_library": "Open MPI v4.1.4", "mpi_version": "3.1",
           "runner_version": "0.1.0", "plugin_abi": 1,
           "command_line": ["runner", "--sizes", "small"],
           "options": {"min_time_s": 0.005, "repetitions": 7, "sizes": ["small"]}}
    ctx.update(context)
    return {"schema_version": 1, "complete": True, "context": ctx,
            "records": records, "skipped": []}


def around(median, n=7):
    """n samples within +-2% of median, no ties."""
    return [median * (1 + 0.02 * (i - n // 2) / (n // 2) + 1e-6 * i) for i in range(n)]


def write(a, name, doc):
    path = out_path(a, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def compare(a, base, new, *extra):
    return runner(a, ["compare", base, new] + list(extra))


def compare_json(a, base, new, *extra):
    p = compare(a, base, new, "--format", "json", *extra)
    return p, (json.loads(p.stdout) if p.stdout.strip() else None)


def test_compare_synthetic(a):
    base = write(a, "syn_base.json", document([
        record("bcast", around(10e-6)), record("raw", around(10e-6)),
        record("pack", around(10e-6)), record("bcast", around(40e-6), 110000)]))
    validate(a, base)
    noisy = [1.1e-5, 0.65e-5, 1.45e-5, 0.8e-5, 1.35e-5, 0.75e-5, 1.6e-5]
    new = write(a, "syn_new.json", document([
        record("bcast", around(12e-6)),     # clear regression: +20%
        record("raw", around(8e-6)),        # improvement: -20%
        record("pack", noisy)],             # median +10% but noisy
        mpi_library="MPICH Version: 4.0.2"))
    validate(a, new)
    p, j = compare_json(a, base, new)
    check(p.returncode == 1, f"a regression must exit 1, got {p.returncode}")
    verdict = {x["method"]: x["verdict"] for x in j["points"]}
    check(verdict == {"bcast": "regressed", "raw": "improved", "pack": "noisy"}, verdict)
    check([x["name"] for x in j["only_in_base"]] == ["transfer/bcast/1d/110000/np2"],
          f"missing point not listed: {j['only_in_base']}")
    check(any("mpi_library" in w for w in j["warnings"]), "no context warning")
    check("context differs: mpi_library" in p.stderr, "warning not on stderr")
    table = compare(a, base, new)
    check(table.returncode == 1, "table format: exit 1")
    for needle in ("regressed", "improved", "too noisy", "Only in BASE", "context differs",
                   "lower is better", "higher is better", "exit 1"):
        check(needle in table.stdout, f"table lacks '{needle}'")
    md = compare(a, base, new, "--format", "markdown")
    check(md.returncode == 1 and "| transfer/bcast/1d |" in md.stdout, "markdown table")
    # Without the regression: exit 0 with the improvement, noise and missing point.
    new_ok = write(a, "syn_new_ok.json", document([
        record("raw", around(8e-6)), record("pack", noisy)]))
    p, j = compare_json(a, base, new_ok)
    check(p.returncode == 0, f"no regression must exit 0, got {p.returncode}")
    check(j["counts"]["only_in_base"] == 2 and j["counts"]["regressed"] == 0, j["counts"])
    # A looser threshold or a stricter alpha changes the verdict.
    p, j = compare_json(a, base, new, "--threshold", "30%")
    check(p.returncode == 0 and j["counts"]["unchanged"] == 3, f"--threshold 30%: {j}")
    # ... and a judgement no point could fail exits 2 unless allowed.
    p, j = compare_json(a, base, new, "--alpha", "0.0001")
    check(p.returncode == 2 and j["counts"]["noisy"] == 3 and "could not have failed" in p.stderr
          and "9 repetitions" in p.stderr, f"--alpha 0.0001: {j}")
    p, j = compare_json(a, base, new, "--alpha", "0.0001", "--allow-powerless")
    check(p.returncode == 0 and j["counts"]["noisy"] == 3, f"--alpha 0.0001 --allow-powerless: {j}")
    # A failed verification in NEW is a regression.
    failed = write(a, "syn_failed.json", document([record("bcast", around(10e-6), status="failed")]))
    p, j = compare_json(a, base, failed)
    check(p.returncode == 1 and j["points"][0]["verdict"] == "regressed", "failed verification")

    # Invalid input: exit 2, whichever side.
    invalid = write(a, "syn_invalid.json", {"schema_version": 1, "records": []})
    notjson = out_path(a, "syn_notjson.json")
    with open(notjson, "w") as f:
        f.write("{ not json")
    for args, needle in (([invalid, new], "invalid"), ([base, notjson], "not JSON"),
                         ([base, "/nonexistent.json"], "cannot read")):
        p = runner(a, ["compare"] + args)
        check(p.returncode == 2, f"compare {args}: exit {p.returncode}, expected 2")
        check(needle in p.stderr, f"compare {args}: stderr lacks '{needle}'")
    for args, needle in ((["compare", base], "not a runner ab document"),
                         (["compare", base, new, base], "takes two result files"),
                         (["compare", base, new, "--threshold", "abc"], "not a percentage"),
                         (["compare", base, new, "--alpha", "1.5"], "--alpha must be"),
                         (["compare", base, new, "--format", "csv"], "not supported by compare"),
                         (["--threshold", "5", "--list"],
                          "'--threshold' is not an option of 'runner --list'"),
                         (["--threshold", "5"], "it is an option of ab, compare, trend, tune, "
                                                "history changes"),
                         (["report", base, "-m", "bcast"],
                          "'-m' (--methods) is not an option of 'runner report'")):
        p = runner(a, args)
        check(p.returncode == 2 and needle in p.stderr, f"{args}: exit {p.returncode}")


def windowed(rec, clock="hca", window_s=20e-6):
    """rec as runner --sync window writes it: timed in windows on a clock."""
    rec = dict(rec)
    rec["definition"] = {"sync": "window"}
    n = len(rec["samples_s"]["max"])
    rec["sync"] = {"method": "window", "clock": clock, "window_s": window_s,
                   "windows": 50 * n, "invalid": 0, "invalid_fraction": 0.0,
                   "grew": 0, "residual_s": 1e-7}
    return rec


def test_compare_sync(a):
    """Runs timed differently: a barrier run never matches a window run, and
    compare says why; two window runs on different clocks (--clock-sync) or
    windows (--sync-window) are compared with a warning naming both."""
    recs = lambda clock, f=1.0: [windowed(record(m, around(10e-6 * f)), clock)
                                 for m in ("bcast", "raw")]
    barrier = write(a, "sync_barrier.json", document(
        [record(m, around(10e-6)) for m in ("bcast", "raw")]))
    # Written before the options were recorded: the command line says.
    old_hca = write(a, "sync_old_hca.json", document(
        recs("hca"), command_line=["runner", "--sync", "window"]))
    new_hca = write(a, "sync_new_hca.json", document(recs("hca"), options={
        "min_time_s": 0.005, "repetitions": 7, "sizes": ["small"],
        "sync": "window", "clock_sync": "hca", "sync_window_s": 0}))
    jk = write(a, "sync_jk.json", document(
        recs("jk"), command_line=["runner", "--sync", "window", "--clock-sync", "jk"]))
    fixed = write(a, "sync_w1ms.json", document(
        recs("hca"), command_line=["runner", "--sync", "window", "--sync-window=0.001"]))
    for path in (barrier, old_hca, new_hca, jk, fixed):
        validate(a, path)

    def sync_warnings(base, new):
        p, j = compare_json(a, base, new, "--allow-powerless")
        return p, j, [w for w in j["warnings"] if w.startswith("synchronization differs")]

    p, j, w = sync_warnings(barrier, old_hca)
    check(len(j["points"]) == 0 and j["counts"]["only_in_base"] == 2, f"matched: {j['counts']}")
    check(len(w) == 1 and "BASE barrier" in w[0]
          and "NEW window (clock hca, --sync-window calibrated)" in w[0], f"barrier/window: {w}")
    p, j, w = sync_warnings(old_hca, jk)
    check(len(j["points"]) == 2, f"two window runs: {j['counts']}")
    check(len(w) == 1 and "clock hca" in w[0] and "clock jk" in w[0] and "--clock-sync" in w[0],
          f"--clock-sync hca vs jk: {w}")
    check("synchronization differs" in p.stderr, "the warning is not on stderr")
    p, j, w = sync_warnings(new_hca, fixed)
    check(len(w) == 1 and "--sync-window calibrated" in w[0]
          and "--sync-window 0.001 s" in w[0] and "clock hca" in w[0], f"--sync-window: {w}")
    table = compare(a, fixed, jk, "--allow-powerless")
    check("--clock-sync and --sync-window" in table.stdout, "the table lacks the warning")
    # The same setting, one file from before the options were recorded: quiet.
    p, j, w = sync_warnings(old_hca, new_hca)
    check(w == [] and not any("options.sync" in x or "options.clock" in x for x in j["warnings"]),
          f"the same setting warned: {j['warnings']}")


def test_compare_verdicts(a):
    """Numbers a reader can believe: a point whose spread is wider than its
    median is named, not turned into a suggested threshold of 1e+09%; a
    'too noisy' verdict says what decided it."""
    # allreduce 8 B: a median of 4 ns among samples of microseconds (window
    # timing on a poor clock): its interquartile range is 1124x its median.
    wide = [1e-9, 5e-6, 2e-9, 6e-6, 3e-9, 4e-6, 4e-9]
    base = write(a, "verd_base.json", document([
        record("bcast", around(10e-6)), record("raw", around(10e-6)),
        record("allreduce", wide, size=8),
        record("pack", [10e-6])]))
    new = write(a, "verd_new.json", document([
        record("bcast", around(10e-6)), record("raw", around(10e-6)),
        record("allreduce", wide, size=8),
        record("pack", around(191.2e-6))]))
    for path in (base, new):
        validate(a, path)
    table = compare(a, base, new, "--allow-powerless")
    line = [l for l in table.stdout.splitlines() if "smallest threshold" in l]
    check(len(line) == 1, f"no suggestion line: {table.stdout}")
    check("e+" not in line[0] and "more than 1000%" in line[0]
          and "transfer/allreduce/1d/8/np2" in line[0] and "interquartile range" in line[0],
          f"suggestion: {line[0]}")
    p, j = compare_json(a, base, new, "--allow-powerless")
    s = j["suggested_threshold"]
    check(s["value"] <= 10 and s["beyond_largest_threshold"] == 1
          and s["widest"] == "transfer/allreduce/1d/8/np2", f"json suggestion: {s}")
    pack = [x for x in j["points"] if x["method"] == "pack"][0]
    check(pack["verdict"] == "noisy", f"one sample judged: {pack['verdict']}")
    check("BASE has 1 sample" in pack["note"] and "+1812%" in pack["note"]
          and "too few samples" in pack["note"], f"pack's note: {pack['note']}")
    row = [l for l in table.stdout.splitlines() if l.split()[:1] == ["transfer/pack/1d"]]
    check(len(row) == 1 and "too few samples" in row[0], f"pack's row: {row}")
    # Overlapping samples: the note gives the change and what the spread resolves.
    noisy = [1.1e-5, 0.65e-5, 1.45e-5, 0.8e-5, 1.35e-5, 0.75e-5, 1.6e-5]
    over = write(a, "verd_over.json", document([record("raw", noisy)]))
    p, j = compare_json(a, base, over)
    note = j["points"][0]["note"]
    check(j["points"][0]["verdict"] == "noisy" and "+10.0% change" in note
          and "samples overlap" in note and "resolves a change of" in note, f"note: {note}")


def test_compare_threshold_range(a):
    """--threshold takes 0 to 1000 percent, both ends included, as its
    message says; beyond them it is refused naming the range."""
    base = write(a, "thr_base.json", document([record("bcast", around(10e-6))]))
    for given in ("1000%", "1000", "0%", "999.9%"):
        p = compare(a, base, base, "--threshold", given)
        check(p.returncode == 0, f"--threshold {given}: exit {p.returncode}: {p.stderr}")
    for given in ("1000.1%", "-1%", "2000"):
        p = compare(a, base, base, "--threshold", given)
        check(p.returncode == 2 and "0 to 1000, both included" in p.stderr,
              f"--threshold {given}: exit {p.returncode}: {p.stderr}")


def with_noise(rec, steal=0.0, preempt_rate=2.0, mhz=2400.0, noisy=False):
    """rec with a noise record: `steal` of each sample's wall time stolen
    (one CPU), `preempt_rate` preemptions per second, the CPU at `mhz`."""
    walls = [s * rec["inner_iterations"] for s in rec["samples_s"]["max"]]
    rec["noise"] = {"steal_s": [steal * w for w in walls],
                    "preemptions": [round(preempt_rate * w) for w in walls],
                    "cpu_mhz": [mhz] * len(walls), "retries": 0,
                    "noisy_samples": 1 if noisy else 0, "noisy": noisy}
    if noisy:
        rec["noise"]["reason"] = "sample 1: steal 80 ms in a 1e+03 ms sample on 1 CPUs"
    rec["stopping"] = {"by": "repetitions", "rse": 0.01}
    return rec


def resolvable(base, new, alpha=0.05):
    """docs/ci.md's d, computed independently: statistics' 'inclusive'
    quartiles are the linear interpolation (type 7)."""
    def se(xs):
        q1, m, q3 = statistics.quantiles(xs, n=4, method="inclusive")
        iqr_of_normal = 2 * statistics.NormalDist().inv_cdf(0.75)  # 1.349
        return math.sqrt(math.pi / 2) * ((q3 - q1) / iqr_of_normal) / (m * math.sqrt(len(xs)))
    z = statistics.NormalDist().inv_cdf(1 - alpha / 2)
    return math.expm1(z * math.hypot(se(base), se(new)))


def test_compare_noise(a):
    def rec(method, median, spread, **noise):
        samples = [median * (1 + spread * (i - 3) / 3) for i in range(7)]
        r = record(method, samples)
        r["inner_iterations"] = 100000  # samples of about a second
        return with_noise(r, **noise)
    ctx = {"cpus_per_node": 1, "noise": {"recorded": True, "preemption_counts": True}}
    base = write(a, "noise_base.json", document([
        rec("bcast", 10e-6, 0.02, steal=0.08, noisy=True),
        rec("raw", 10e-6, 0.05, steal=0.08, noisy=True),
        rec("pack", 10e-6, 0.01)], **ctx))
    validate(a, base)
    new = write(a, "noise_new.json", document([
        rec("bcast", 12e-6, 0.02, noisy=True),   # +20% while noisy: still regressed
        rec("raw", 10e-6, 0.05), rec("pack", 10e-6, 0.01)], **ctx))
    validate(a, new)
    p, j = compare_json(a, base, new)
    check(p.returncode == 1, f"a regression while noisy must still exit 1, got {p.returncode}")
    w = j["noise"]["warning"]
    check(w is not None and w.startswith("BASE was measured in a noisier state than NEW"), w)
    check("BASE: 2 of 3 points noisy, steal 5.3% of sample time" in w
          and "NEW: 1 of 3 points noisy, steal 0.0%" in w, w)
    check(w in j["warnings"] and "noisier state" in p.stderr, "noise warning not listed")
    check({d["figure"] for d in j["noise"]["differences"]} == {"noisy_points", "steal"},
          j["noise"]["differences"])
    pts = {x["method"]: x for x in j["points"]}
    check(pts["bcast"]["verdict"] == "regressed" and pts["bcast"]["noise"]["new"]["noisy"]
          and "fails the gate" in pts["bcast"]["note"], pts["bcast"])
    # The suggested threshold, as docs/ci.md computes it.
    ds = sorted(resolvable(x["samples_s"]["max"], y["samples_s"]["max"])
                for x, y in zip(json.load(open(base))["records"], json.load(open(new))["records"]))
    want = ds[math.ceil(0.95 * len(ds)) - 1]
    got = j["suggested_threshold"]["value"]
    check(abs(got - want) < 1e-12 * want, f"suggested threshold {got}, expected {want}")
    check(j["suggested_threshold"]["threshold_below"] == (want > 0.05), j["suggested_threshold"])
    table = compare(a, base, new)
    for needle in ("noise: BASE 2 of 3 points noisy", "smallest threshold these files support: "
                   f"{math.ceil(want * 1000) / 10:.1f}%", "noisier state", "noisy in both files"):
        check(needle in table.stdout, f"table lacks '{needle}':\n{table.stdout}")
    rows = [line.split() for line in table.stdout.splitlines() if "transfer/bcast/1d" in line]
    check(rows and rows[0][-2:] == ["regressed", "both"], f"bcast row: {rows}")
    # Files without noise records: said, nothing compared, no warning.
    old = write(a, "noise_old.json", document([record("bcast", around(10e-6))]))
    p, j = compare_json(a, old, old)
    check(p.returncode == 0 and j["noise"]["base"]["recorded"] is False
          and j["noise"]["warning"] is None and j["points"][0]["noise"]["new"] is None, j["noise"])
    check("noise: not recorded in either file" in compare(a, old, old).stdout, "old files")
    p = compare(a, old, new)
    check("noise: BASE not recorded; NEW 1 of 1 points noisy" in p.stdout, p.stdout)
    # Equal files: no noise warning.
    p, j = compare_json(a, base, base)
    check(p.returncode == 0 and j["noise"]["warning"] is None
          and not j["noise"]["differences"], j["noise"])


# ---------------------------------------------------------------- real runs


def run_sleepy(a, name, sizes, delay_us, methods="sleepy"):
    out = out_path(a, name)
    p = mpirun(a, 2, ["--plugin-dir", a.slow_plugins, "--methods", methods,
                      "--payloads", "1d", "--sizes", sizes, "--repetitions", "7",
                      "--min-time", "0.001", "-q", "-o", out],
               extra_env={"MPIARENA_TEST_DELAY_US": str(delay_us)})
    check(p.returncode == 0, f"run {name}: exit {p.returncode}")
    validate(a, out)
    return out


def test_compare_runs(a):
    base = run_sleepy(a, "cmp_base.json", "64B,4KiB", 0)
    slow = run_sleepy(a, "cmp_slow.json", "64B,4KiB", 200)
    p = compare(a, base, slow)
    check(p.returncode == 1, f"a slowed method must exit 1, got {p.returncode}")
    check("regressed" in p.stdout and "2 regressed" in p.stdout, "regression not reported")
    p, j = compare_json(a, base, slow)
    check(p.returncode == 1 and all(x["verdict"] == "regressed" for x in j["points"]), j)
    check(all(x["test"] == "exact" and x["p"] < 0.001 for x in j["points"]),
          "7 vs 7 separated samples: exact p = 2/3432")
    # A file against itself: nothing changed.
    p, j = compare_json(a, base, base)
    check(p.returncode == 0 and j["counts"]["unchanged"] == 2, f"self compare: {j}")
    # Other sizes, other methods: the points are listed; nothing was
    # compared, which a gate must not pass: exit 2.
    sizes = run_sleepy(a, "cmp_sizes.json", "16KiB", 0)
    p = compare(a, base, sizes)
    check(p.returncode == 2, f"different sizes: exit {p.returncode}, expected 2")
    check("share no point" in p.stderr, f"different sizes: stderr {p.stderr!r}")
    check("Only in BASE" in p.stdout and "Only in NEW" in p.stdout, "only-in lists")
    check("16384" in p.stdout and "no point is in both files" in p.stdout, p.stdout)
    methods = run_sleepy(a, "cmp_methods.json", "64B", 0, methods="bcast")
    p, j = compare_json(a, base, methods)
    check(p.returncode == 2, f"different methods: exit {p.returncode}, expected 2")
    check(j["counts"]["only_in_base"] == 2 and j["counts"]["only_in_new"] == 1, j["counts"])


def test_formats(a):
    out = out_path(a, "formats.json")
    args = ["--methods", "bcast,null", "--sizes", "small,4KiB", "--repetitions", "3",
            "--min-time", "0.001", "-q", "-o", out]
    p = mpirun(a, 2, args + ["--format", "csv"])
    check(p.returncode == 0, f"--format csv: exit {p.returncode}")
    doc = validate(a, out)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    check(len(rows) == len(doc["records"]) == 6, f"{len(rows)} csv rows for {len(doc['records'])}")
    header = p.stdout.splitlines()[0].split(",")
    check(header[:4] == ["suite", "method", "payload", "size_label"] and "median_s" in header
          and "bandwidth_Bps" in header, f"header: {header}")
    for row, rec in zip(rows, doc["records"]):
        check(row["method"] == rec["method"] and int(row["bytes"]) == rec["bytes"], row)
        check(float(row["median_s"]) == rec["time_s"]["median"], "median differs")
        check(row["bandwidth_Bps"] == "" if rec["bandwidth_Bps"] is None
              else float(row["bandwidth_Bps"]) == rec["bandwidth_Bps"], "bandwidth differs")
    rep = runner(a, ["report", out, "--format", "csv"])
    check(rep.returncode == 0 and rep.stdout == p.stdout, "report --format csv differs")

    p = mpirun(a, 2, args + ["--format", "gbench"])
    check(p.returncode == 0, f"--format gbench: exit {p.returncode}")
    g = json.loads(p.stdout)
    doc = validate(a, out)
    check({"date", "host_name", "executable"} <= set(g["context"]), g["context"].keys())
    names = {b["run_name"] for b in g["benchmarks"]}
    check("transfer/bcast/2d/11000/np2" in names and "harness/null/1d/4096/np2" in names, names)
    iters = [b for b in g["benchmarks"] if b["run_type"] == "iteration"]
    aggs = [b for b in g["benchmarks"] if b["run_type"] == "aggregate"]
    check(len(iters) == 3 * len(doc["records"]) and len(aggs) == 4 * len(doc["records"]),
          "3 iteration rows and 4 aggregates per record")
    for b in g["benchmarks"]:
        for field in ("name", "real_time", "cpu_time", "time_unit", "run_type"):
            check(field in b, f"{b['name']} lacks {field}")
    rep = runner(a, ["report", out, "--format", "gbench"])
    check(rep.returncode == 0 and json.loads(rep.stdout) == g, "report --format gbench differs")


def find_compare_py():
    script = os.environ.get("MPIARENA_GBENCH_COMPARE", "/usr/share/benchmark/compare.py")
    if not os.path.exists(script):
        raise Skip(f"{script} not found (Debian: libbenchmark-tools)")
    pythons = [os.environ.get("MPIARENA_GBENCH_PYTHON"), sys.executable, "/usr/bin/python3"]
    for py in filter(None, pythons):
        if subprocess.run([py, "-c", "import scipy, numpy"], capture_output=True).returncode == 0:
            return py, script
    raise Skip("no Python with scipy and numpy for compare.py (set MPIARENA_GBENCH_PYTHON)")


def test_gbench_compare_py(a):
    py, script = find_compare_py()
    base = write(a, "gb_base.json", document([record("bcast", around(10e-6)),
                                              record("raw", around(5e-6), 4096)]))
    new = write(a, "gb_new.json", document([record("bcast", around(12e-6)),
                                            record("raw", around(5e-6), 4096)]))
    files = []
    for doc in (base, new):
        p = runner(a, ["report", doc, "--format", "gbench"])
        check(p.returncode == 0, "report --format gbench")
        path = doc.replace(".json", ".gbench.json")
        with open(path, "w") as f:
            f.write(p.stdout)
        files.append(path)
    p = subprocess.run([py, script, "--no-color", "benchmarks"] + files,
                       capture_output=True, text=True, timeout=120)
    print(p.stdout, p.stderr, sep="\n")
    check(p.returncode == 0, f"compare.py exited {p.returncode}")
    lines = {line.split()[0]: line.split() for line in p.stdout.splitlines() if line.strip()}
    bcast = lines.get("transfer/bcast/1d/11000/np2_median")
    check(bcast is not None and bcast[1] == "+0.2000", f"compare.py median change: {bcast}")
    check("transfer/raw/1d/4096/np2_pvalue" in lines, "compare.py ran no U test")


def test_plot(a):
    tool = os.path.join(ROOT, "tools", "mpiarena-plot")
    recs = []
    for payload in ("1d", "2d"):
        for size in (11000, 110000, 1100000):
            recs.append(record("bcast", around(size * 1e-9), size, payload))
            recs.append(record("raw", around(size * 2e-9), size, payload,
                               status="failed" if payload == "2d" else "passed"))
            recs.append(record("null", around(3e-9), size, payload, moves_data=False))
    results = write(a, "plot_results.json", document(recs))
    validate(a, results)
    outdir = os.path.join(a.workdir, "plots")
    shutil.rmtree(outdir, ignore_errors=True)
    p = subprocess.run([tool, results, "-o", outdir, "--suffix", "_np2"],
                       capture_output=True, text=True, timeout=120, env=env())
    print(p.stdout, p.stderr, sep="\n")
    if p.returncode == 2 and "python3-matplotlib" in p.stderr:
        raise Skip("matplotlib is not installed")
    check(p.returncode == 0, f"mpiarena-plot exited {p.returncode}")
    for payload in ("1d", "2d"):
        for ext, magic in (("png", b"\x89PNG\r\n\x1a\n"), ("svg", b"<?xml")):
            path = os.path.join(outdir, f"transfer_{payload}_np2.{ext}")
            check(os.path.exists(path), f"{path} not written")
            with open(path, "rb") as f:
                data = f.read()
            check(len(data) > 1000 and data.startswith(magic), f"{path} is not a {ext}")
    p = subprocess.run([tool, "/nonexistent.json", "-o", outdir], capture_output=True,
                       text=True, timeout=60, env=env())
    check(p.returncode == 2 and "cannot read" in p.stderr, "a missing file must exit 2")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    ap.add_argument("--np", type=int, default=2)
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--test-plugins", required=True)
    ap.add_argument("--slow-plugins", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    tests = {
        "compare-synthetic": test_compare_synthetic,
        "compare-noise": test_compare_noise,
        "compare-sync": test_compare_sync,
        "compare-verdicts": test_compare_verdicts,
        "compare-threshold-range": test_compare_threshold_range,
        "compare-runs": test_compare_runs,
        "formats": test_formats,
        "gbench-compare-py": test_gbench_compare_py,
        "plot": test_plot,
    }
    return run_test(tests[a.test], a)

if __name__ == "__main__":
    sys.exit(main())
