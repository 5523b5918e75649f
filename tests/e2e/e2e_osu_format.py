#!/usr/bin/env python3
"""-f osu: OSU 7.4's tables, read as the sites' parsers read OSU's.

    e2e_osu_format.py run --np 2   osu_latency, osu_bw, osu_allreduce and
                                   osu_iallreduce under --profile osu at 8 B
                                   and 1 KiB, -f osu: stdout holds '#'
                                   lines, empty lines and rows only; one
                                   table per program with OSU's header; ONE
                                   regular expression per benchmark, of the
                                   kind sites use, reads every row of ours
                                   and of OSU 7.4's own output (the fixtures
                                   tests/data/osu74_*.txt, captured from OSU
                                   7.4 built with Open MPI); the values are
                                   positive and those of the -o file;
                                   `report FILE -f osu` prints the same, and
                                   --osu-columns full,validation,p50 adds
                                   OSU's columns (ReFrame's ^{size}.*Pass).
                                   With MPIARENA_OSU_DIR (OSU 7.4's c/mpi
                                   build directory) the same regexes read
                                   OSU's programs run there too.
    e2e_osu_format.py fail --np 2  a corrupting method: its rows still
                                   print, with Fail in the validation
                                   column, and the run exits 1.
"""
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, env, launch, mpirun, runner, suite_main  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
# One regular expression per benchmark, as a site's parser writes it.
ONE_VALUE = re.compile(r"^(\d+)\s+(\d+\.\d+)\s*$")
NBC = re.compile(r"^(\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+"
                 r"(\d+\.\d+)\s*$")
PROGRAMS = {  # program: (its regex, OSU 7.4's column header, fixture)
    "osu_latency": (ONE_VALUE, "# Size       Avg Latency(us)",
                    "osu74_latency.txt"),
    "osu_bw": (ONE_VALUE, "# Size      Bandwidth (MB/s)", "osu74_bw.txt"),
    "osu_allreduce": (ONE_VALUE, "# Size       Avg Latency(us)",
                      "osu74_allreduce.txt"),
    "osu_iallreduce": (NBC, "# Size           Overall(us)       Compute(us)"
                       "    Pure Comm.(us)        Overlap(%)",
                       "osu74_iallreduce.txt"),
}
SIZES = [8, 1024]


def tables(text):
    """{program: [lines after its title]} of -f osu's output, in order."""
    out, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^# mpiarena \S+: (\S+) as ", line)
        if m:
            current = out.setdefault(m.group(1), [])
        elif current is not None:
            current.append(line)
    return out


def rows(lines, regex):
    """{size: [values]} of the lines `regex` reads."""
    got = {}
    for line in lines:
        m = regex.match(line)
        if m:
            got[int(m.group(1))] = [float(x) for x in m.groups()[1:]]
    return got


def expected(rec):
    """The record's figures as -f osu prints them (us, MB/s, %)."""
    avg = statistics.fmean(rec["samples_s"]["avg"])
    if rec["alias"] == "osu_bw":
        return [rec["bytes"] / avg / 1e6]
    if rec["alias"] == "osu_iallreduce":
        part = {p["name"]: statistics.fmean(p["samples_s"]["avg"]) * 1e6
                for p in rec["parts"]}
        overlap = next(m["value"] for m in rec["metrics"]
                       if m["name"] == "overlap_osu")
        return [part["both"], part["compute"], part["comm"], overlap]
    return [avg * 1e6]


def check_text(text, doc, where):
    for line in text.splitlines():
        check(line == "" or line.startswith("#") or
              any(r.match(line) for r, _, _ in PROGRAMS.values()),
              f"{where}: a line that is no '#' line, empty line or row: "
              f"{line!r}")
    t = tables(text)
    check(list(t) == list(PROGRAMS), f"{where}: tables {list(t)}, expected "
          f"{list(PROGRAMS)} in the run's order")
    for program, (regex, header, _) in PROGRAMS.items():
        check(header in t[program], f"{where}: {program} lacks OSU's header "
              f"{header!r}: {t[program]}")
        got = rows(t[program], regex)
        check(sorted(got) == SIZES, f"{where}: {program} rows {sorted(got)}")
        for rec in doc["records"]:
            if rec.get("alias") != program:
                continue
            want = expected(rec)
            for g, w in zip(got[rec["bytes"]], want):
                check(g >= 0 and abs(g - w) <= 0.0051 + 1e-9 * abs(w),
                      f"{where}: {program} {rec['bytes']} B printed {g}, "
                      f"the file gives {w}")
            check(got[rec["bytes"]][0] > 0, f"{where}: {program} not > 0")


def check_fixtures():
    """OSU 7.4's own output: the same regex reads every row of it."""
    for program, (regex, header, fixture) in PROGRAMS.items():
        with open(os.path.join(DATA, fixture)) as f:
            lines = f.read().splitlines()
        check(header in lines, f"{fixture}: no {header!r}")
        data = [l for l in lines if l and not l.startswith("#")]
        got = rows(lines, regex)
        check(len(got) == len(data) > 0 and all(v[0] > 0 for v in
                                                 got.values()),
              f"{fixture}: the regex of {program} reads {len(got)} of "
              f"{len(data)} rows")


OSU_PATHS = {"osu_latency": "pt2pt/standard/osu_latency",
             "osu_bw": "pt2pt/standard/osu_bw",
             "osu_allreduce": "collective/blocking/osu_allreduce",
             "osu_iallreduce": "collective/non_blocking/osu_iallreduce"}


def check_real_osu(a):
    """MPIARENA_OSU_DIR: OSU 7.4 run here, read by the same regexes."""
    osu = os.environ.get("MPIARENA_OSU_DIR")
    if not osu:
        return
    for program, (regex, header, _) in PROGRAMS.items():
        exe = os.path.join(osu, OSU_PATHS[program])
        p = subprocess.run(launch(a) + [exe, "-m", "8:1024"], env=env(),
                           capture_output=True, text=True, timeout=240)
        print("$", exe, "-m 8:1024 ->", p.returncode, flush=True)
        print(p.stdout[-1500:])
        check(p.returncode == 0, f"{exe} exited {p.returncode}")
        got = rows(p.stdout.splitlines(), regex)
        check(header in p.stdout.splitlines() and 8 in got and 1024 in got,
              f"{program}: OSU's own output not read: {p.stdout[-500:]}")


def test_run(a):
    check_fixtures()
    check_real_osu(a)
    out = os.path.join(a.workdir, "osu.json")
    p = mpirun(a, a.np, ["-m", ",".join(PROGRAMS), "--profile", "osu",
                         "-s", "8B,1KiB", "-f", "osu", "-q",
                         "--min-time", "0.001", "-r", "3", "-o", out])
    check(p.returncode == 0, f"runner exited {p.returncode}")
    with open(out) as f:
        doc = json.load(f)
    check_text(p.stdout, doc, "the run")
    r = runner(a, ["report", out, "-f", "osu"])
    check(r.returncode == 0 and r.stdout == p.stdout,
          "report FILE -f osu differs from the run's -f osu")
    r = runner(a, ["report", out, "-f", "osu", "--osu-columns",
                   "full,validation,p50"])
    check(r.returncode == 0, f"report --osu-columns exited {r.returncode}")
    t = tables(r.stdout)
    check("   Min Latency(us)   Max Latency(us)  Iterations        "
          "Validation  P50 Tail Lat(us)" in t["osu_allreduce"][0],
          f"osu_allreduce's columns with full,validation,p50: "
          f"{t['osu_allreduce'][0]!r}")
    for size in SIZES:
        check(re.search(rf"^{size}\s.*Pass", "\n".join(t["osu_allreduce"]),
                        re.M), f"no ^{size}.*Pass row (ReFrame's sanity)")


def test_fail(a):
    p = mpirun(a, a.np, ["--plugin-dir", a.test_plugins, "-m", "corrupt",
                         "-p", "1d", "-s", "1KiB", "-f", "osu",
                         "--osu-columns", "validation", "-q", "-i", "2",
                         "-r", "3"])
    check(p.returncode == 1, f"a corrupt point: exit {p.returncode}, not 1")
    rows_ = [l for l in p.stdout.splitlines() if re.match(r"^1024\s", l)]
    check(len(rows_) == 1 and rows_[0].split()[-1] == "Fail",
          f"the corrupt point's row: {rows_}")
    check("runner:" not in p.stdout, "a message on stdout beside the table")


if __name__ == "__main__":
    sys.exit(suite_main({"run": test_run, "fail": test_fail},
                        extra=("--test-plugins",)))
