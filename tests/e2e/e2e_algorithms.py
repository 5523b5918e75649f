#!/usr/bin/env python3
"""runner --algorithms end to end (issue 30, docs/tuning.md): the MPI
library's own algorithms of the collectives, found through MPI_T, as points.

    discovery      the names and values found are the library's: each name,
                   given to the library in the launch's environment (which
                   the library itself parses), reads back as the value
                   discovery gave it; under Open MPI, the same set as
                   `ompi_info --param coll tuned --level 9 --parsable`
    effect         a forced algorithm really runs: the test plugins
                   fingerprint (allreduce) and fingerprint_rsb
                   (reduce_scatter_block) count the calls of their
                   user-defined sum, which differ between algorithms; the
                   library's own choice within --algorithms leaves the same
                   fingerprint as a run without it (the default restored)
    every          every algorithm of the 9 collectives and the 9 guideline
                   mock-ups at 8 B and 64 KiB: verified, or (an algorithm)
                   skipped with the library's refusal
    wrong          a wrong reduction fails verification under every
                   algorithm (exit 1), never taken for a refusal; a wrong
                   reduction on the last rank only fails exactly the
                   algorithms in which that rank's operation ran, naming
                   a rank, and the run ends (exit 1, no hang)
    bad-input      a bad --algorithms: exit 2, one message naming what is
                   accepted
    tune           the loop closed: runner tune's file (Open MPI's dynamic
                   rules, MPICH's selection JSON), loaded by the library in
                   a launch without --algorithms, makes the point run the
                   declared winner (its fingerprint, not the default's);
                   the winner is made certain by scaling its samples in a
                   copy of a real --algorithms run; tune refuses a file
                   without algorithms (exit 2)
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import add_mpi_args, check, env, launch, parse_args, run_test, validate, VERIFY  # noqa: E402

COLLECTIVES = "allreduce,coll_bcast,reduce,allgather,alltoall,gather,scatter,barrier,reduce_scatter_block"
MOCKUPS = ("allreduce_as_reduce_bcast,allreduce_as_rsb_allgather,allgather_as_gather_bcast,"
           "allgather_as_alltoall,bcast_as_scatter_allgather,reduce_as_rsb_gather,"
           "scatter_as_bcast,gather_as_allgather,barrier_as_allreduce")
FAST = VERIFY + ["-q"]


def run(a, args, extra_env=None, np=None):
    cmd = launch(a, np) + [a.runner, "--plugin-dir", a.plugins,
                           "--plugin-dir", a.fingerprint_plugins] + args
    e = env(extra_env)
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=280, env=e)
    print(p.stdout[-3000:])
    print(p.stderr[-3000:], file=sys.stderr)
    return p


def library_of(a):
    return "Open MPI" if a.launcher == "openmpi" else "MPICH"


def found(a, extra_env=None, np=None):
    """What `runner algorithms -f json` lists (no collective is called: a
    forced algorithm that cannot run at this rank count does not matter)."""
    cmd = launch(a, np) + [a.runner, "algorithms", "-f", "json"]
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                       env=env(extra_env))
    print(p.stderr[-3000:], file=sys.stderr)
    check(p.returncode == 0, f"exit {p.returncode}")
    return json.loads(p.stdout)


def forced_env(a, collective, name):
    if a.launcher == "openmpi":
        return {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
                f"OMPI_MCA_coll_tuned_{collective}_algorithm": name}
    return {f"MPIR_CVAR_{collective.upper()}_INTRA_ALGORITHM": name}


def test_discovery(a):
    lib = found(a)
    check(lib["library"] == library_of(a), lib["library"])
    # A run's context holds the same.
    p = run(a, ["-m", "barrier", "--algorithms", "library", "--sizes", "8B",
                "-f", "json"] + FAST)
    check(p.returncode == 0, f"exit {p.returncode}")
    check(json.loads(p.stdout)["context"]["library_algorithms"] == lib,
          "the run's context lists what runner algorithms does")
    colls = {c["collective"]: c for c in lib["collectives"]}
    nine = COLLECTIVES.replace("coll_bcast", "bcast").split(",")
    # mpiarena's nine first, then every other the library names (issue 44).
    check(sorted(list(colls)[:len(nine)]) == sorted(nine), list(colls))
    for c in colls.values():
        # The nine switch; another may be fixed or unreadable, and says why.
        if c["collective"] in nine:
            check(len(c["algorithms"]) >= 2 and c["switchable"],
                  f"{c['collective']}: algorithms and switchable: {c}")
        else:
            check((len(c["algorithms"]) >= 1 and (c["switchable"] or c.get("why_fixed")))
                  or (not c["algorithms"] and c.get("why_none")),
                  f"{c['collective']}: its algorithms, or why not: {c}")
    colls = {name: c for name, c in colls.items() if c["algorithms"]}
    if a.launcher == "openmpi":
        out = subprocess.run(["ompi_info", "--param", "coll", "tuned", "--level", "9",
                              "--parsable"], capture_output=True, text=True).stdout
        exposed = set(re.findall(r":coll_tuned_([a-z_]+)_algorithm:enumerator:", out))
        check(set(colls) == exposed, f"ompi_info names {sorted(exposed)}, "
              f"discovery {sorted(colls)}")
        for name, c in colls.items():
            key = f":coll_tuned_{name}_algorithm:enumerator:value:"
            listed = {(int(l.split(key)[1].split(":")[0]), l.split(key)[1].split(":", 1)[1])
                      for l in out.splitlines() if key in l}
            listed = {x for x in listed if x[0] != 0}
            ours = {(x["value"], x["name"]) for x in c["algorithms"]}
            check(ours == listed, f"{name}: ompi_info lists {sorted(listed)}, "
                  f"discovery {sorted(ours)}")
    # Each name, given to the library by the launch's environment, reads back
    # as its value: k-th algorithm of every collective at once, per launch.
    rounds = max(len(c["algorithms"]) for c in colls.values())
    for k in range(rounds):
        extra, want = {}, {}
        for name, c in colls.items():
            algo = c["algorithms"][k % len(c["algorithms"])]
            extra.update(forced_env(a, name, algo["name"]))
            want[name] = algo
        got = {c["collective"]: c["launch"] for c in found(a, extra, 1)["collectives"]}
        for name, algo in want.items():
            check(got[name] == {"value": algo["value"], "name": algo["name"]},
                  f"{name}={algo['name']} in the environment reads back as "
                  f"{got[name]}, discovery said {algo}")


def fingerprints(a, path, args, extra_env=None):
    if os.path.exists(path):
        os.remove(path)
    e = {"MPIARENA_FINGERPRINT_FILE": path}
    e.update(extra_env or {})
    p = run(a, ["--sizes", "16KiB"] + FAST + args, e)
    by = {}
    if os.path.exists(path):
        for line in open(path):
            algorithm, rank, calls, elements = line.split()
            by.setdefault(algorithm, {})[int(rank)] = (int(calls), int(elements))
    return p, by


def test_effect(a):
    # The two methods write to one file; run them apart.
    distinct_best = 0
    for method in ("fingerprint", "fingerprint_rsb"):
        path = os.path.join(a.workdir, f"{method}.txt")
        plain_path = os.path.join(a.workdir, f"{method}_plain.txt")
        p, by = fingerprints(a, path, ["-m", method, "--algorithms", "all",
                                       "-o", os.path.join(a.workdir, f"{method}.json")])
        check(p.returncode == 0, f"{method} --algorithms all: exit {p.returncode}")
        p, plain = fingerprints(a, plain_path, ["-m", method])
        check(p.returncode == 0 and "-" in plain, f"{method} plain: {plain}")
        check("library" in by and by["library"] == plain["-"],
              f"{method}: the library's choice under --algorithms {by.get('library')} "
              f"is not the default's {plain['-']}")
        distinct = {tuple(sorted(v.items())) for v in by.values()}
        print(f"{method}: {len(distinct)} distinct fingerprints over {len(by)} algorithms: {by}")
        distinct_best = max(distinct_best, len(distinct))
        doc = validate(a, os.path.join(a.workdir, f"{method}.json"))
        for r in doc["records"]:
            alg = r["algorithm"]
            want = r["options"]["algorithm"]
            check(alg["library"] == library_of(a) and
                  (alg["name"] == want or (want == "library" and alg["value"] == 0)),
                  f"{r['method']}: recorded algorithm {alg}")
    # Open MPI's allreduce algorithms differ at 3 ranks on a user-defined
    # sum; MPICH refuses most of them that operation, but its
    # reduce_scatter_block ones differ (pairwise, recursive doubling).
    check(distinct_best >= 3, f"at most {distinct_best} distinct fingerprints: "
          "the forced algorithms did not all run")


def test_every(a):
    out = os.path.join(a.workdir, "every.json")
    p = run(a, ["-m", COLLECTIVES + "," + MOCKUPS, "--algorithms", "all",
                "--sizes", "8B,64KiB", "-o", out] + FAST)
    check(p.returncode == 0, f"exit {p.returncode}")
    doc = validate(a, out)
    lib = doc["context"]["library_algorithms"]
    want = 2 * len(MOCKUPS.split(","))  # the mock-ups: once a size
    measured = COLLECTIVES.replace("coll_bcast", "bcast").split(",")
    for c in lib["collectives"]:
        if c["collective"] in measured:
            want += 2 * (len(c["algorithms"]) + 1)
    got = len(doc["records"]) + len(doc["skipped"])
    check(got == want, f"{got} points, expected {want} (every algorithm, the "
          "library's choice and the mock-ups, 2 sizes)")
    mocked = {r["method"] for r in doc["records"] if "guideline" in r.get("params", {})}
    check(mocked == set(MOCKUPS.split(",")), f"every mock-up measured: {sorted(mocked)}")
    check(all(r["verification"]["status"] == "passed" for r in doc["records"]),
          "every measured algorithm verified")
    for s in doc["skipped"]:
        check(s["reason"].startswith(library_of(a) + " refused "),
              f"{s['method']}: skipped for another reason: {s['reason'][:200]}")
    check(len(doc["records"]) > len(doc["skipped"]), "most algorithms ran")


def test_wrong(a):
    path = os.path.join(a.workdir, "wrong.txt")
    out = os.path.join(a.workdir, "wrong.json")
    p, by = fingerprints(a, path, ["-m", "fingerprint_rsb", "--algorithms", "all",
                                   "-o", out], {"MPIARENA_FINGERPRINT_WRONG": "1"})
    check(p.returncode == 1, f"a wrong reduction: exit {p.returncode}, expected 1")
    doc = validate(a, out)
    check(len(doc["records"]) >= 2 and
          all(r["verification"]["status"] == "failed" for r in doc["records"]),
          "every algorithm's wrong result failed verification")
    check(not any("refused" in s["reason"] for s in doc["skipped"]
                  if "verification" in s["reason"]), doc["skipped"])
    # One rank's fault: the last rank's operation adds one too many. Every
    # result it took part in is wrong somewhere, so a point fails exactly
    # where that rank's operation ran (its fingerprint's calls), whichever
    # rank holds the wrong block.
    last = a.np - 1
    out = os.path.join(a.workdir, "wrong_one.json")
    p, by = fingerprints(a, path, ["-m", "fingerprint_rsb", "--algorithms", "all",
                                   "-o", out],
                         {"MPIARENA_FINGERPRINT_WRONG": f"rank={last}"})
    doc = validate(a, out)
    failed = {}
    for r in doc["records"]:
        alg = r["algorithm"]
        name = alg["name"] if alg["value"] else "library"  # as the file says
        failed[name] = r["verification"]["status"] == "failed"
        if failed[name]:
            check(r["verification"]["message"].startswith("rank "),
                  f"{name}: the failure names a rank: {r['verification']}")
    ran = {name: by.get(name, {}).get(last, (0, 0))[0] > 0 for name in failed}
    check(failed == ran, f"failed where rank {last}'s operation ran: failed "
          f"{failed}, ran {ran}")
    check(any(failed.values()), f"rank {last}'s operation ran somewhere")
    check(p.returncode == 1, f"one rank's wrong reduction: exit {p.returncode}, "
          "expected 1")


def load_env(a, path):
    """What makes the library load runner tune's file."""
    if a.launcher == "openmpi":
        return {"OMPI_MCA_coll_tuned_use_dynamic_rules": "1",
                "OMPI_MCA_coll_tuned_dynamic_rules_filename": path}
    return {"MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE": path}


def tune(a, args):
    cmd = [a.runner, "tune"] + args
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env())
    print(p.stdout[-3000:])
    print(p.stderr[-3000:], file=sys.stderr)
    return p


def test_tune(a):
    # Open MPI's allreduce and MPICH's reduce_scatter_block algorithms leave
    # distinct fingerprints at 3 ranks (see effect).
    method = "fingerprint" if a.launcher == "openmpi" else "fingerprint_rsb"
    sized = ["-m", method, "--sizes", "16KiB", "--min-time", "0.001", "-r", "8", "-q"]
    measured = os.path.join(a.workdir, "tune_measured.json")
    path = os.path.join(a.workdir, "tune_algorithms.txt")
    if os.path.exists(path):
        os.remove(path)
    p = run(a, sized + ["--algorithms", "all", "-o", measured],
            {"MPIARENA_FINGERPRINT_FILE": path})
    check(p.returncode == 0, f"--algorithms all: exit {p.returncode}")
    by = {}
    for line in open(path):
        algorithm, rank, calls, elements = line.split()
        by.setdefault(algorithm, {})[int(rank)] = (int(calls), int(elements))
    doc = validate(a, measured)
    names = {r["algorithm"]["name"] for r in doc["records"]
             if r["algorithm"]["value"] != 0}
    targets = sorted(n for n in names if n in by and by[n] != by["library"])
    check(targets, f"an algorithm whose fingerprint differs from the library's: {by}")
    target = targets[0]
    # The winner made certain: every sample of it a hundredth of the library's
    # fastest. (A tenth of its own samples is not certain: a rank test ignores
    # the scale, and two outliers out of 8 leave p above alpha after Holm.)
    library = next(r for r in doc["records"] if r["algorithm"]["value"] == 0)
    floor = {k: min(v) / 100 for k, v in library["samples_s"].items()}
    for r in doc["records"]:
        if r["algorithm"]["name"] == target:
            value = r["algorithm"]["value"]
            for k in r["samples_s"]:
                r["samples_s"][k] = [floor[k]] * len(r["samples_s"][k])
            for k, v in r["time_s"].items():
                if isinstance(v, float):
                    r["time_s"][k] = 0.0 if k in ("cv", "stddev") else floor["max"]
    certain = os.path.join(a.workdir, "tune_certain.json")
    with open(certain, "w") as f:
        json.dump(doc, f)
    rules = os.path.join(a.workdir, "tune_rules" +
                         (".txt" if a.launcher == "openmpi" else ".json"))
    p = tune(a, [certain, "-o", rules])
    check(p.returncode == 0, f"tune: exit {p.returncode}")
    check(f" {target} " in p.stdout and "1 of 1 points have a winner" in p.stdout,
          f"tune declares {target} the winner")
    text = open(rules).read()
    if a.launcher == "openmpi":
        check(f"49152 {value} 0 0  # {target}" not in text and
              f"16384 {value} 0 0  # {target}" in text,
              f"Open MPI's rule for {target} (value {value}) at 16384 B: {text}")
    else:
        check(f"_intra_{target}\"" in text or f"_allcomm_{target}\"" in text,
              f"MPICH's container of {target} in the file")
        check(open(rules).read().count("collective=") >= 14,
              "MPICH's file keeps every collective of the library's table")
    # The loop: the library loads the file; the plain point runs the winner.
    loaded = os.path.join(a.workdir, "tune_loaded.txt")
    if os.path.exists(loaded):
        os.remove(loaded)
    extra = {"MPIARENA_FINGERPRINT_FILE": loaded}
    extra.update(load_env(a, rules))
    loaded_doc = os.path.join(a.workdir, "tune_loaded_1.json")
    p = run(a, sized + ["-o", loaded_doc], extra)
    check(p.returncode == 0, f"the launch with the file loaded: exit {p.returncode}")
    got = {}
    for line in open(loaded):
        algorithm, rank, calls, elements = line.split()
        got[int(rank)] = (int(calls), int(elements))
    check(got == by[target] and got != by["library"],
          f"with the file loaded the point ran {got}: {target} leaves "
          f"{by[target]}, the library's choice {by['library']}")
    test_confirm(a, sized, certain, rules, loaded_doc, target)
    if a.launcher == "openmpi":
        # Open MPI applies the file before a forced algorithm: refused.
        one_error(run(a, sized + ["--algorithms", "all"], load_env(a, rules)),
                  "loads Open MPI's dynamic rules file")
    # -o whose table (FILE.md) cannot be written: exit 2, nothing written.
    blocked = os.path.join(a.workdir, "tune_blocked.rules")
    for leftover in (blocked,):
        if os.path.exists(leftover):
            os.remove(leftover)
    os.makedirs(blocked + ".md", exist_ok=True)
    one_error(tune(a, [certain, "-o", blocked]), "it is a directory")
    check(not os.path.exists(blocked), "nothing written when FILE.md is refused")
    # The measured file as it is: tune decides whatever it decides, exit 0.
    check(tune(a, [measured]).returncode == 0, "tune on the measured file")
    # A file without algorithms: exit 2, one message.
    plain = os.path.join(a.workdir, "tune_plain.json")
    p = run(a, sized + ["-o", plain])
    check(p.returncode == 0, f"plain run: exit {p.returncode}")
    one_error(tune(a, [plain]), "measure with runner --algorithms")


def fnv1a(data):
    h = 14695981039346656037
    for c in data:
        h = ((h ^ c) * 1099511628211) % 2**64
    return f"{h:016x}"


def test_confirm(a, sized, certain, rules, loaded_doc, target):
    """tune SWEEP + launches: the winner confirmed or set aside by them."""
    ctx = json.load(open(loaded_doc))["context"]["tuning_file"]
    check(ctx and ctx["path"] == rules and
          ctx["digest"] == fnv1a(open(rules, "rb").read()),
          f"the loaded launch's context names the file and its digest: {ctx}")
    # 4 of each kind, alternated: the fewest whose ratio a 95% interval
    # bounds (with 3 against 3 it never does).
    docs = {"d1": None, "f2": load_env(a, rules), "d2": None,
            "f3": load_env(a, rules), "d3": None, "f4": load_env(a, rules),
            "d4": None}
    names = [loaded_doc]
    for name, extra in docs.items():
        out = os.path.join(a.workdir, f"tune_confirm_{name}.json")
        p = run(a, sized + ["-o", out], extra)
        check(p.returncode == 0, f"confirming launch {name}: exit {p.returncode}")
        recorded = json.load(open(out))["context"]["tuning_file"]
        check((recorded is None) == (extra is None),
              f"{name}: tuning_file recorded only when a file is loaded")
        names.append(out)
    confirmed = rules + ".confirmed"
    p = tune(a, [certain] + names + ["-o", confirmed])
    check(p.returncode == 0, f"tune with launches: exit {p.returncode}")
    check("confirmed by 4 launches of the library's default and 4 with the "
          "file loaded" in p.stdout, "tune says what confirmed the file")
    kept = "1 of 1 points have a winner" in p.stdout
    check(kept or f"not confirmed: {target} " in p.stdout,
          f"{target} kept or set aside with the launches' figures")
    raw = tune(a, [certain] + names + ["--format", "json"]).stdout
    decisions = json.loads(raw)
    # Given back (the next pass's input), the decisions give the same file.
    given = os.path.join(a.workdir, "tune_decisions.json")
    open(given, "w").write(raw)
    again = confirmed + ".again"
    p = tune(a, [certain, given, "-o", again])
    check(p.returncode == 0 and open(again).read() == open(confirmed).read(),
          f"the decisions given back give the same file: exit {p.returncode}")
    point = decisions["points"][0]
    # One pass, of the launches of the file the sweep gives; settled: the
    # file written is that file (winner kept) or claims nothing.
    check([(q["digest"], q["launches"]) for q in decisions["passes"]] ==
          [(fnv1a(open(rules, "rb").read()), 4)] and decisions["settled"],
          f"one pass of the sweep's file, settled: {decisions['passes']}")
    check(point["confirmation"]["candidate"] == target and
          ("winner" in point) == kept and
          (not kept or point["claimed"] == point["confirmation"]["at_least"]),
          f"the decision holds the launches' figures: {point}")
    # A launch that loaded another file confirms nothing: exit 2.
    other = json.load(open(loaded_doc))
    other["context"]["tuning_file"]["digest"] = "0" * 16
    forged = os.path.join(a.workdir, "tune_confirm_other.json")
    json.dump(other, open(forged, "w"))
    one_error(tune(a, [certain, names[1], names[3], forged, names[2]]),
              "not the file these runs of --algorithms give")
    # Three launches of each kind are too few: exit 2.
    one_error(tune(a, [certain] + names[:6]), "at least 4 launches")


def one_error(p, expect):
    lines = [l for l in p.stderr.splitlines() if "error:" in l]
    check(p.returncode == 2, f"exit {p.returncode}, expected 2")
    check(len(lines) == 1 and expect in lines[0], f"one message with {expect!r}: {lines}")


def test_bad_input(a):
    p = run(a, ["-m", "allreduce", "--algorithms", "no_such_algorithm"] + FAST)
    one_error(p, "accepted: all, library; allreduce: ")
    p = run(a, ["-m", "allreduce", "--algorithms", "Ring!"] + FAST)
    one_error(p, "--algorithms 'Ring!'")
    p = run(a, ["-m", "pingpong_isend", "--algorithms", "all"] + FAST)
    one_error(p, "none of the selected methods is an MPI collective")
    p = run(a, ["-m", "allreduce", "--algorithms", "all,ring"] + FAST)
    one_error(p, "all stands alone")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    ap.add_argument("--np", type=int, default=3)
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--plugins", required=True)
    ap.add_argument("--fingerprint-plugins", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    tests = {"discovery": test_discovery, "effect": test_effect, "every": test_every,
             "wrong": test_wrong, "bad-input": test_bad_input, "tune": test_tune}
    return run_test(tests[a.test], a)


if __name__ == "__main__":
    sys.exit(main())
