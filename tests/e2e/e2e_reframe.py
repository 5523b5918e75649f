#!/usr/bin/env python3
"""End-to-end tests of the ReFrame test library (integrations/reframe,
docs/reframe.md), run by ReFrame itself with the site configuration
integrations/reframe/config/local.py and the build's runner.

run:      `reframe -r` passes (exit 0, the test case passed); the JSON run
          report and the perflog hold every expected performance variable
          (<method>_<bytes>B in us, <method>_<bytes>B_bw in MB/s), each a
          positive number; the output directory keeps result.json, which
          `runner validate` accepts; a reference the run cannot meet (a
          reference file) fails it in the performance phase.
corrupt:  the test plugin `corrupt` (a wrong element in every transfer)
          fails the sanity check, which names the point not verified.

ReFrame is the venv scripts/install_reframe makes ($MPIARENA_REFRAME, else
--reframe). Without it the test is skipped, except under CI=true, where it
fails: CI installs it. The configuration's launcher is Open MPI's mpirun:
with MPICH's the test is skipped.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Fail, Skip, add_mpi_args, check, parse_args, run_test  # noqa: E402

METHODS = ["mpi_bytes", "allreduce"]
SIZES = [8, 1024]


def expected_variables():
    """{variable: unit} of the library's default run."""
    names = {}
    for m in METHODS:
        for b in SIZES:
            names[f"{m}_{b}B"] = "us"
            names[f"{m}_{b}B_bw"] = "MB/s"
    return names


def find_reframe(a):
    path = os.environ.get("MPIARENA_REFRAME") or a.reframe
    if path and os.access(path, os.X_OK):
        return os.path.abspath(path)
    why = (f"ReFrame is not installed ({path} is not executable): "
           "scripts/install_reframe installs it")
    if os.environ.get("CI") == "true":
        raise Fail(why + " (CI=true: it must be there)")
    raise Skip(why)


def reframe(a, name, settings=()):
    """Runs the library under ReFrame in <workdir>/<name> (removed first);
    returns (exit code, its one test case from the JSON run report,
    the run's directory)."""
    if a.launcher != "openmpi":
        raise Skip("the configuration's launcher is Open MPI's mpirun "
                   f"(this build's is {a.launcher})")
    where = os.path.join(a.workdir, name)
    shutil.rmtree(where, ignore_errors=True)
    os.makedirs(where)
    lib = os.path.join(a.source, "integrations", "reframe")
    report = os.path.join(where, "report.json")
    cmd = [find_reframe(a), "-C", os.path.join(lib, "config", "local.py"),
           "-c", os.path.join(lib, "mpiarena_checks.py"), "-r", "--nocolor",
           "--prefix", where, "--perflogdir", os.path.join(where, "perflogs"),
           "--report-file", report]
    for s in settings:
        cmd += ["-S", s]
    env = dict(os.environ, MPIARENA_RUNNER=os.path.abspath(a.runner))
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240,
                       cwd=where, env=env)
    print(p.stdout[-4000:])
    print(p.stderr[-3000:], file=sys.stderr)
    try:
        with open(report) as f:
            cases = json.load(f)["runs"][0]["testcases"]
    except (OSError, ValueError, KeyError, IndexError) as e:
        raise Fail(f"no JSON run report {report}: {e}")
    check(len(cases) == 1, f"{len(cases)} test cases in the report, not 1")
    return p.returncode, cases[0], where


def perflog_fields(where):
    """The perflog's header and last line, each split at '|'."""
    log = os.path.join(where, "perflogs", "local", "default",
                       "mpiarena_check.log")
    check(os.path.exists(log), f"no perflog {log}")
    with open(log) as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    check(len(lines) >= 2, f"the perflog holds {len(lines)} lines")
    return lines[0].split("|"), lines[-1].split("|")


def test_run(a):
    rc, case, where = reframe(a, "pass")
    check(rc == 0, f"reframe -r exited {rc}: {case.get('fail_reason')}")
    check(case["result"] == "pass", f"the test case: {case['result']}")
    want = expected_variables()
    got = {k.split(":")[-1]: v for k, v in case["perfvalues"].items()}
    check(set(got) == set(want),
          f"performance variables {sorted(got)}, expected {sorted(want)}")
    for name, unit in want.items():
        value, got_unit = got[name][0], got[name][4]
        check(got_unit == unit, f"{name}: unit {got_unit!r}, not {unit!r}")
        check(isinstance(value, float) and value > 0, f"{name} = {value!r}")
    kept = os.path.join(where, "output", "local", "default", "mpi",
                        "mpiarena_check", "result.json")
    p = subprocess.run([a.runner, "validate", kept], capture_output=True,
                       text=True, timeout=60)
    check(p.returncode == 0, f"the kept {kept}: validate exited "
          f"{p.returncode}: {p.stdout}{p.stderr}")
    header, last = perflog_fields(where)
    for name, unit in want.items():
        check(f"{name}_value" in header, f"the perflog has no {name}")
        i = header.index(f"{name}_value")
        check(float(last[i]) > 0 and last[i + 1] == unit,
              f"the perflog's {name}: {last[i:i + 2]}")
    # A reference no run can meet: the performance phase fails.
    refs = os.path.join(a.workdir, "unmet_references.json")
    with open(refs, "w") as f:
        json.dump({"*": {"mpi_bytes_8B": [1e-6, None, 0.1, "us"]}}, f)
    rc, case, _ = reframe(a, "unmet", [f"reference_file={refs}"])
    check(rc != 0 and case["result"] == "fail"
          and case["fail_phase"] == "performance",
          f"an unmet reference: exit {rc}, {case['result']} in "
          f"{case.get('fail_phase')}")
    check("mpi_bytes_8B" in (case.get("fail_reason") or ""),
          f"the reason does not name mpi_bytes_8B: {case.get('fail_reason')}")


def test_corrupt(a):
    rc, case, _ = reframe(a, "corrupt", [
        "methods=corrupt", "sizes=1KiB",
        f"extra_options=--plugin-dir {a.test_plugins} -p 1d"])
    reason = case.get("fail_reason") or ""
    check(rc != 0, "reframe -r passed a corrupt transfer")
    check(case["result"] == "fail" and case["fail_phase"] == "sanity",
          f"the corrupt run: {case['result']} in {case.get('fail_phase')}")
    check("not verified" in reason and "corrupt 1d 1024 B" in reason,
          f"the sanity failure does not name the point: {reason}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test", choices=["run", "corrupt"])
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--test-plugins", required=True)
    ap.add_argument("--reframe", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    tests = {"run": test_run, "corrupt": test_corrupt}
    return run_test(tests[a.test], a)


if __name__ == "__main__":
    sys.exit(main())
