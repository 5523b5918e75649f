#!/usr/bin/env python3
"""The hostile tester's defects (issue 27, D1-D10), each a test that failed
before its fix, and the weak points answered with code.

output-kinds:   report -o and trend -o refuse a device, a FIFO and a link
                to one, and leave it as it was; a dangling link is written
                through (the link stays); exit 2 naming what it is (D1).
huge-values:    a valid document with times and bandwidths near the largest
                and smallest doubles: the HTML page is made in seconds, is
                well-formed and has no NaN or infinity in it; the text
                report, compare and trend survive too (D2).
control-chars:  control characters, NUL, U+FFFE and U+FFFF and `|` in
                strings of a result file: the HTML page is well-formed XML,
                the text report carries no escape sequence, the markdown
                table keeps its columns (D3).
heap:           a plugin that corrupts the heap: one line, exit 3 (D4).
seed:           --seed outside 0..2^53-1 is refused up front, exit 2; the
                largest seed runs and its file validates; the schema
                refuses a larger one (D5).
abort0:         a plugin's MPI_Abort(MPI_COMM_WORLD, 0): exit 3, one line
                naming it, the file says complete: false (D6).
exit0:          a plugin's exit(0) inside a step: exit 3, one line (weak
                point).
metric-int:     a metric formula that throws 7: that point fails, exit 1,
                the other points of its group are kept (D7).
cluster-names:  scripts/cluster refuses a name that is a pattern, a path or
                has a space, exit 2, and removes nothing (D8-D10).
weak-input:     report of a FIFO ends at once (exit 2); --window abc names
                the accepted range; a document failing validation prints a
                few lines, not the schema trace.
Same harness as e2e.py; each is one ctest test.
"""
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, env, launch, out_path, show, suite_main  # noqa: E402
from e2e_compare import around, document, record  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def runner(a, args, timeout=120):
    p = subprocess.run([a.runner] + args, capture_output=True, timeout=timeout, env=env())
    p.stdout = p.stdout.decode("utf-8", "replace")
    p.stderr = p.stderr.decode("utf-8", "replace")
    return show(["runner"] + args, p)


def write(a, name, doc):
    path = out_path(a, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def good_doc(a, name="good.json"):
    return write(a, name, document([record("bcast", around(10e-6)),
                                    record("raw", around(12e-6))]))


# ------------------------------------------------------------------ D1

def test_output_kinds(a):
    good = good_doc(a)
    base = os.path.join(a.workdir, "kinds")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    fifo = os.path.join(base, "fifo")
    os.mkfifo(fifo)
    to_fifo = os.path.join(base, "to_fifo")
    os.symlink(fifo, to_fifo)
    refused = [(fifo, "named pipe"), (to_fifo, "named pipe")]
    device = os.path.join(base, "null")
    if os.getuid() == 0:
        # A device of our own, like /dev/null: the test never risks the real one.
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        refused.append((device, "character device"))
    for command in (["report", good, "--format", "html"], ["trend", good]):
        for target, kind in refused:
            before = os.lstat(target)
            p = runner(a, command + ["-o", target])
            check(p.returncode == 2, f"{command[0]} -o {target}: exit {p.returncode}, expected 2")
            check(kind in p.stderr and target in p.stderr,
                  f"{command[0]} -o {target}: the error does not say '{kind}': {p.stderr!r}")
            after = os.lstat(target)
            check(stat.S_IFMT(after.st_mode) == stat.S_IFMT(before.st_mode) and
                  after.st_ino == before.st_ino, f"{command[0]} replaced {target}")
        # A dangling link is written through: the link stays a link.
        dangling = os.path.join(base, f"dangling_{command[0]}")
        pointee = os.path.join(base, f"pointee_{command[0]}.html")
        os.symlink(pointee, dangling)
        p = runner(a, command + ["-o", dangling])
        check(p.returncode == 0, f"{command[0]} -o dangling link: exit {p.returncode}")
        check(os.path.islink(dangling), f"{command[0]} replaced the dangling link")
        check(os.path.isfile(pointee) and os.path.getsize(pointee) > 0,
              f"{command[0]} did not write where the link points")


# ------------------------------------------------------------------ D2

def huge_doc():
    recs = []
    # Each summary agrees with its samples (validate checks it: issue 44).
    big = record("bcast", [1e308] * 7)
    big["bandwidth_Bps"] = 1e308
    tiny = record("raw", [1e-300 * (1 + i) for i in range(7)])
    tiny["samples_s"]["min"] = [1e-300] * 7
    tiny["metrics"] = [{"name": "overlap", "unit": "%", "better": "higher",
                        "value": 1e308, "samples": [1e308, -1e308, 0, 1, 2, 3, 4]}]
    both = record("pack", [1e-300, 1e308, 1, 2, 3, 4, 5], size=110000)
    return document([big, tiny, both, record("bcast", around(4e-5), 110000)])


def test_huge_values(a):
    path = write(a, "huge.json", huge_doc())
    p = runner(a, ["validate", path])
    check(p.returncode == 0, f"the document must be valid: {p.stdout}{p.stderr}")
    t0 = time.monotonic()
    p = runner(a, ["report", path, "--format", "html"], timeout=60)
    took = time.monotonic() - t0
    check(p.returncode == 0, f"report --format html: exit {p.returncode}")
    check(took < 20, f"report --format html took {took:.1f} s")
    ET.fromstring(p.stdout)  # well-formed, or it raises
    bad = re.findall(r'="[^"]*(?:nan|inf)[^"]*"', p.stdout, re.I)
    check(not bad, f"attributes with NaN or infinity: {bad[:5]}")
    for args in (["report", path], ["report", path, "--format", "markdown"],
                 ["compare", path, path], ["trend", path, path]):
        p = runner(a, args, timeout=60)
        check(p.returncode == 0, f"{args[0]}: exit {p.returncode}")


# ------------------------------------------------------------------ D3

NASTY = "m\x1b[31mred\x00nul\ufffe\uffff|pipe\x07"


def test_control_chars(a):
    rec = record(NASTY, around(10e-6))
    rec["notes"] = ["a note\x1b]0;title\x07 with | and \x0c"]
    doc = document([rec, record("raw", around(12e-6))],
                   mpi_library="Open MPI\x1b[2J", hosts=["node\x001"])
    doc["context"]["notes"] = "run \x1b[1m|bold|"
    path = write(a, "nasty.json", doc)
    p = runner(a, ["validate", path])
    check(p.returncode == 0, f"the document must be valid: {p.stdout}{p.stderr}")
    html = runner(a, ["report", path, "--format", "html"])
    check(html.returncode == 0, f"report --format html: exit {html.returncode}")
    ET.fromstring(html.stdout)  # not well-formed XML raises
    check("\ufffe" not in html.stdout and "\uffff" not in html.stdout,
          "U+FFFE / U+FFFF reached the page")
    for fmt in ("table", "markdown", "csv"):
        p = runner(a, ["report", path, "--format", fmt])
        check(p.returncode == 0, f"report --format {fmt}: exit {p.returncode}")
        raw = [c for c in p.stdout if (ord(c) < 32 and c not in "\n") or ord(c) == 127
               or c in "\ufffe\uffff"]
        check(not raw, f"--format {fmt}: raw control characters reach the output: {raw[:5]}")
        check("\\x1B" in p.stdout, f"--format {fmt}: the escape is not spelt out")
    md = runner(a, ["report", path, "--format", "markdown"]).stdout
    for table in re.split(r"\n\s*\n", md):
        rows = [l for l in table.splitlines() if l.startswith("|")]
        widths = {len(re.findall(r"(?<!\\)\|", r)) for r in rows}
        check(len(widths) <= 1, f"a markdown table lost its columns: {rows[:4]}")
    p = runner(a, ["compare", path, path, "--format", "markdown"])
    check(not [c for c in p.stdout if ord(c) < 32 and c != "\n"],
          "compare: raw control characters reach the output")


# ------------------------------------------------------------------ D4, D6, exit0, D7

def fault_run(a, kind, step="execute", bytes_="4096"):
    out = out_path(a, f"hostile_{kind}.json")
    cmd = launch(a) + [a.runner, "--plugin-dir", a.fault_plugins, "-m", "fault",
                       "--sizes", "1KiB,2KiB,4KiB", "--point-timeout", "2",
                       "--min-time", "0.001", "-r", "3", "-o", out]
    e = env({"MPIARENA_FAULT_STEP": step, "MPIARENA_FAULT_KIND": kind,
             "MPIARENA_FAULT_RANK": str(a.np - 1), "MPIARENA_FAULT_BYTES": bytes_})
    print("$", " ".join(cmd), f"(MPIARENA_FAULT_KIND={kind})", flush=True)
    p = subprocess.run(cmd, capture_output=True, timeout=120, env=e)
    p.stdout = p.stdout.decode("utf-8", "replace")
    p.stderr = p.stderr.decode("utf-8", "replace")
    print(p.stdout[-2000:])
    print(p.stderr[-3000:], file=sys.stderr)
    errors = [l for l in p.stderr.splitlines() if l.startswith("runner: error:")]
    with open(out) as f:
        doc = json.load(f)
    return p, errors, doc


def stopped(a, kind, words):
    p, errors, doc = fault_run(a, kind)
    check(p.returncode == 3, f"{kind}: exit {p.returncode}, expected 3")
    check(len(errors) == 1, f"{kind}: {len(errors)} error lines, expected one: {errors}")
    for w in words:
        check(w in errors[0], f"{kind}: '{w}' not in {errors[0]!r}")
    check(f"rank {a.np - 1}" in errors[0], f"{kind}: the rank is not named: {errors[0]}")
    check("corrupted" not in p.stderr and "SIGALRM" not in p.stderr,
          f"{kind}: more than one story on stderr")
    check(not doc["complete"], f"{kind}: a stopped run is not complete")
    check({r["size_label"] for r in doc["records"]} >= {"1 KiB", "2 KiB"},
          f"{kind}: completed points lost")


def test_heap(a):
    stopped(a, "heap", ["fault", "4096"])


def test_abort0(a):
    stopped(a, "abort0", ["MPI_Abort", "error code 0", "fault", "4096"])


def test_exit0(a):
    stopped(a, "exit0", ["exit()", "fault", "4096"])


def test_metric_int(a):
    p, errors, doc = fault_run(a, "metric_int", step="none")
    check(p.returncode == 1, f"metric_int: exit {p.returncode}, expected 1")
    check(doc["complete"], "metric_int: the run must go on and complete")
    kept = {r["size_label"] for r in doc["records"]}
    check(kept == {"1 KiB", "2 KiB"}, f"metric_int: the other points are lost: {kept}")
    failed = [s for s in doc["skipped"] if s["bytes"] == 4096]
    check(failed and "not derived from std::exception" in failed[0]["reason"],
          f"metric_int: the failed point is not recorded: {doc['skipped']}")
    check("crashed" not in p.stderr, "metric_int: a rank crashed")


# ------------------------------------------------------------------ D5

def test_seed(a):
    for bad in ("-1", "9007199254740992", "18446744073709551616", "1e3", "abc", ""):
        p = subprocess.run(launch(a) + [a.runner, "-m", "bcast", "--sizes", "small",
                                        "--seed", bad], capture_output=True, text=True,
                           timeout=120, env=env())
        show(["runner", "--seed", repr(bad)], p)
        check(p.returncode == 2, f"--seed {bad!r}: exit {p.returncode}, expected 2")
        check("9007199254740991" in p.stderr, f"--seed {bad!r}: the range is not named")
        check(p.stderr.count("error") <= 2, f"--seed {bad!r}: one message expected")
    out = out_path(a, "seed_max.json")
    p = subprocess.run(launch(a) + [a.runner, "-m", "bcast", "--sizes", "small",
                                    "--seed", "9007199254740991", "--min-time", "0.001",
                                    "-r", "3", "-o", out],
                       capture_output=True, text=True, timeout=120, env=env())
    show(["runner", "--seed", "9007199254740991"], p)
    check(p.returncode == 0, f"--seed 2^53-1: exit {p.returncode}")
    with open(out) as f:
        doc = json.load(f)
    check(doc["context"]["interleave"]["seed"] == 9007199254740991, "the seed is recorded")
    doc["context"]["interleave"]["seed"] = 9007199254740992
    over = write(a, "seed_over.json", doc)
    v = runner(a, ["validate", over])
    check(v.returncode == 1, f"the schema accepted seed 2^53: exit {v.returncode}")


# ------------------------------------------------------------------ D8-D10

def test_cluster_names(a):
    script = os.path.join(ROOT, "scripts", "cluster")
    decoy = os.path.join(a.workdir, "decoy_state")
    os.makedirs(decoy, exist_ok=True)
    with open(os.path.join(decoy, "keep"), "w") as f:
        f.write("keep")
    # From /run/mpiarena-cluster/NAME up to / and down to the decoy.
    as_path = "../.." + decoy
    victim = None
    if os.getuid() == 0 and subprocess.run(["ip", "netns", "add", "hostile-switch"],
                                           capture_output=True).returncode == 0:
        victim = "hostile-switch"  # what 'hostil.' as a pattern would match
    try:
        for name, args in (("hostil.", ["down"]), ("e2e.*", ["down"]), (as_path, ["down"]),
                           ("..", ["down"]), ("bad name", ["up", "1"]),
                           ("a" * 33, ["down"]), ("x/y", ["down"])):
            p = subprocess.run([script] + args, capture_output=True, text=True, timeout=60,
                               env=dict(os.environ, MPIARENA_CLUSTER=name))
            show([f"MPIARENA_CLUSTER={name!r}", script] + args, p)
            check(p.returncode == 2, f"{name!r}: exit {p.returncode}, expected 2")
            check("MPIARENA_CLUSTER" in p.stderr and "letters and digits" in p.stderr,
                  f"{name!r}: the error does not say what is accepted")
        check(os.path.exists(os.path.join(decoy, "keep")), "a path as a name removed a directory")
        if victim:
            names = subprocess.run(["ip", "netns", "list"], capture_output=True,
                                   text=True).stdout
            check(victim in names, "a pattern as a name removed another cluster's namespace")
    finally:
        if victim:
            subprocess.run(["ip", "netns", "del", victim], capture_output=True)


# ------------------------------------------------------------------ weak points

def test_weak_input(a):
    fifo = os.path.join(a.workdir, "input_fifo")
    if os.path.exists(fifo):
        os.remove(fifo)
    os.mkfifo(fifo)
    for command in (["report", fifo], ["validate", fifo], ["compare", fifo, fifo],
                    ["trend", fifo]):
        t0 = time.monotonic()
        p = runner(a, command, timeout=30)
        check(p.returncode == 2, f"{command}: exit {p.returncode}, expected 2")
        check("named pipe" in p.stderr, f"{command}: the error does not say what it is")
        check(time.monotonic() - t0 < 10, f"{command}: blocked")
    p = subprocess.run(launch(a) + [a.runner, "-m", "bcast", "--window", "abc"],
                       capture_output=True, text=True, timeout=120, env=env())
    show(["runner", "--window", "abc"], p)
    check(p.returncode == 2 and "from 1 to 1024" in p.stderr,
          f"--window abc: exit {p.returncode}, range not named")
    doc = json.loads(open(good_doc(a)).read())
    doc["records"][0]["time_s"]["median"] = "fast"
    doc["records"][1]["ranks"] = -3
    bad = write(a, "invalid.json", doc)
    p = runner(a, ["validate", bad])
    check(p.returncode == 1, f"validate of an invalid document: exit {p.returncode}")
    lines = (p.stdout + p.stderr).strip().splitlines()
    check(len(lines) <= 6, f"validate printed {len(lines)} lines for two errors")
    check("[records][0][time_s][median]" in p.stdout + p.stderr,
          "validate does not name the first field")


def main():
    return suite_main({"output-kinds": test_output_kinds, "huge-values": test_huge_values,
                       "control-chars": test_control_chars, "heap": test_heap, "seed": test_seed,
                       "abort0": test_abort0, "exit0": test_exit0, "metric-int": test_metric_int,
                       "cluster-names": test_cluster_names, "weak-input": test_weak_input})


if __name__ == "__main__":
    sys.exit(main())
