#!/usr/bin/env python3
"""The MPI settings of a run in its result file (the context's
mpi_settings, docs/formats.md "MPI settings"), and the run's columns of the
CSV rows.

  mpi-settings  two tiny runs, one plain, one with a transport setting
                (Open MPI: --mca btl tcp,self; MPICH: MPIR_CVAR_
                variables), both with secrets in the environment: the file
                records the setting, in the environment and as the library
                read it; no secret's value is in the file; runner compare
                names the difference in its header and its JSON; a rank
                launched with another setting is named in differing_ranks.
  csv-runs      two runs' CSV rows concatenated: the run's columns tell
                them apart; report FILE -f csv writes the same rows.
"""
import argparse
import csv
import io
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import add_mpi_args, check, env, launch, launch_prefix, out_path, parse_args, run_test, runner, validate  # noqa: E402

TINY = ["--methods", "null", "--sizes", "4KiB", "--repetitions", "3",
        "--min-time", "0.001", "-q"]
SECRETS = {"FI_MY_TOKEN": "s3cret-fi", "OMPI_MCA_fake_password_thing": "xyz-pw",
           "UCX_API_KEY": "k3y-ucx"}


def run(a, name, launcher_args=(), extra_env=None, args=()):
    out = out_path(a, name)
    cmd = launch(a, 2) + list(launcher_args) + [a.runner] + TINY + list(args) + ["-o", out]
    e = env(extra_env)
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=e)
    print(p.stdout[-3000:])
    print(p.stderr[-3000:], file=sys.stderr)
    check(p.returncode == 0, f"run {name}: exit {p.returncode}")
    validate(a, out)
    return out, p


def test_mpi_settings(a):
    openmpi = a.launcher == "openmpi"
    if openmpi:
        setting = (["--mca", "btl", "tcp,self"], {})
        variable, value, library = "OMPI_MCA_btl", "tcp,self", ("btl", "tcp,self")
    else:
        variable, value = "MPIR_CVAR_DEBUG_HOLD", "0"
        setting = ([], {variable: value})
        library = (variable, value)
    plain, _ = run(a, "plain.json", extra_env=dict(SECRETS))
    changed, _ = run(a, "changed.json", setting[0], dict(SECRETS, **setting[1]))
    docs = {}
    for path in (plain, changed):
        with open(path) as f:
            text = f.read()
        for secret in SECRETS.values():
            check(secret not in text, f"{path} holds the secret value {secret}")
        docs[path] = json.loads(text)
    s = docs[changed]["context"]["mpi_settings"]
    print("mpi_settings:", json.dumps(s, indent=1))
    check(s["environment"].get(variable) == value, f"{variable} not recorded: {s}")
    check(set(SECRETS) <= set(s["withheld"]), f"withheld: {s['withheld']}")
    check(all(k not in s["environment"] for k in SECRETS), "a secret's name has a value")
    check(s["library"].get(library[0]) == library[1],
          f"the library's {library[0]}: {s['library']}")
    check("differing_ranks" not in s, "the ranks share one environment")
    # Nothing the launcher sets by itself (job ids, URIs): the plain run's
    # environment holds only what this test set.
    p = docs[plain]["context"]["mpi_settings"]
    noise = [k for k in p["environment"] if k.startswith(("OMPI_MCA_orte", "OMPI_MCA_ess",
                                                          "PMIX_", "OMPI_MCA_pmix"))]
    check(not noise, f"launch noise recorded: {noise}")
    check(variable not in p["environment"], f"plain run records {variable}")
    c = runner(a, ["compare", plain, changed])
    check(c.returncode in (0, 1, 2), f"compare: exit {c.returncode}")  # 2: 3 samples
    line = f"MPI settings differ: {variable} (unset) -> {value}"
    check(line in c.stdout, f"compare's header lacks '{line}'")
    c = runner(a, ["compare", plain, changed, "--format", "json"])
    j = json.loads(c.stdout)["mpi_settings"]
    check(j["differ"] and {"name": variable, "base": None, "new": value} in j["changes"], j)
    c = runner(a, ["compare", plain, plain, "--format", "json"])
    check(not json.loads(c.stdout)["mpi_settings"]["differ"], "a file against itself differs")
    c = runner(a, ["compare", plain, plain])
    check("MPI settings differ" not in c.stdout, "a file against itself differs (text)")
    ranks_that_differ(a)


def ranks_that_differ(a):
    """Rank 1 launched with a setting rank 0 lacks: differing_ranks [1]."""
    out = out_path(a, "ranks.json")
    args = [a.runner] + TINY + ["-o", out]
    cmd = (launch_prefix(a) + ["-np", "1"] + args + [":", "-np", "1", "env", "UCX_TLS=tcp"]
           + args)
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env())
    print(p.stderr[-3000:], file=sys.stderr)
    check(p.returncode == 0, f"two programs: exit {p.returncode}")
    s = validate(a, out)["context"]["mpi_settings"]
    check(s.get("differing_ranks") == [1], f"differing_ranks: {s}")
    check("UCX_TLS" not in s["environment"], "rank 0's environment is recorded")


def test_csv_runs(a):
    first, p1 = run(a, "first.json", args=["-f", "csv", "--label", "first, run"])
    second, p2 = run(a, "second.json", args=["-f", "csv", "--label", "second"])
    header = p1.stdout.splitlines()[0].split(",")
    run_columns = ["start_time", "git_revision", "hosts", "mpi_library", "mpi_settings",
                   "label"]
    check(header[-len(run_columns):] == run_columns, f"header: {header}")
    check(header[:4] == ["suite", "method", "payload", "size_label"], f"header: {header}")
    # Two runs' rows concatenated (one header), told apart by their columns.
    text = p1.stdout + "".join(p2.stdout.splitlines(True)[1:])
    rows = list(csv.DictReader(io.StringIO(text)))
    check(len(rows) == 2, f"{len(rows)} rows")
    runs = {(r["start_time"], r["label"]) for r in rows}
    check(len(runs) == 2 and {r["label"] for r in rows} == {"first, run", "second"}, runs)
    for r, path in zip(rows, (first, second)):
        with open(path) as f:
            ctx = json.load(f)["context"]
        check(r["start_time"] == ctx["start_time"], f"start_time {r['start_time']}")
        check(r["hosts"] == ";".join(ctx["hosts"]), f"hosts {r['hosts']}")
        check(r["git_revision"] == ctx["build"]["git_revision"], r["git_revision"])
        library = " ".join(ctx["mpi_library"].split())
        check(r["mpi_library"] and library.startswith(r["mpi_library"]),
              f"mpi_library {r['mpi_library']!r}")
        recorded = any(ctx["mpi_settings"][k] for k in ("environment", "library", "withheld"))
        check(len(r["mpi_settings"]) == (16 if recorded else 0),
              f"mpi_settings {r['mpi_settings']!r} for {ctx['mpi_settings']}")
    rep = runner(a, ["report", first, "-f", "csv"])
    check(rep.returncode == 0 and rep.stdout == p1.stdout, "report -f csv differs")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    tests = {"mpi-settings": test_mpi_settings, "csv-runs": test_csv_runs}
    return run_test(tests[a.test], a)


if __name__ == "__main__":
    sys.exit(main())
