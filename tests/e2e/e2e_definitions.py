#!/usr/bin/env python3
"""Options that reproduce a reference program's definition (issue 26).

    e2e_definitions.py receive --np N   --receive fresh (seed 000's runner
                                        builds a new receiving structure in
                                        every operation): every 2d transfer
                                        verified, its records say
                                        definition.receive, 1d records do
                                        not; compare matches reuse with
                                        reuse and never reuse with fresh.
    e2e_definitions.py bad-input        --receive with a wrong value: exit 2,
                                        one message naming the accepted ones.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import (check, expect_usage_error, listed_methods,  # noqa: E402
                 out_path, run_np, runner, suite_main, validate)

# The Boost.MPI ones only where the build has them (not under MPICH).
METHODS = ["raw", "pack", "boost", "boost_packed", "datatype", "bcast"]


def measure(a, receive, name):
    out = out_path(a, name)
    listed = listed_methods(a)
    methods = ",".join(m for m in METHODS if m in listed)
    check("raw" in methods and "pack" in methods, f"methods: {methods}")
    p = run_np(a, ["-m", methods, "-p", "1d,2d", "-s", "64KiB", "--receive",
                   receive], out)
    check(p.returncode == 0, f"--receive {receive}: runner exited {p.returncode}")
    return out, validate(a, out)


def test_receive(a):
    docs = {}
    for receive in ("reuse", "fresh"):
        path, doc = measure(a, receive, f"receive_{receive}_np{a.np}.json")
        docs[receive] = path
        check(doc["context"]["options"].get("receive") == receive,
              f"context options lack receive={receive}: "
              f"{doc['context']['options'].get('receive')}")
        recs = doc["records"]
        check(len(recs) >= 8, f"only {len(recs)} records")
        for r in recs:
            check(r["verification"]["status"] == "passed",
                  f"{r['method']} {r['payload']} --receive {receive}: "
                  f"{r['verification']}")
            got = r.get("definition", {}).get("receive")
            want = receive if r["payload"] == "2d" else None
            check(got == want, f"{r['method']} {r['payload']}: definition "
                  f"{r.get('definition')}, expected receive {want}")
    # reuse against itself: every point matched; reuse against fresh: the
    # 2d points are never matched (only the 1d ones are).
    p = runner(a, ["compare", docs["reuse"], docs["reuse"]])
    check("0 only in BASE, 0 only in NEW" in p.stdout,
          "reuse against reuse left points unmatched")
    p = runner(a, ["compare", "--format", "json", docs["reuse"], docs["fresh"]])
    j = json.loads(p.stdout)
    text = json.dumps(j)
    for side in ("only_in_base", "only_in_new"):
        check(side in j, f"compare json lacks {side}: {list(j)}")
        pts = j[side]
        check(pts and all(x["payload"] == "2d" for x in pts),
              f"{side}: {pts}")
    check('"payload": "1d"' in text, "the 1d points were not compared")


def test_bad_input(a):
    expect_usage_error(a, ["-m", "raw", "--receive", "sometimes"],
                       ["--receive 'sometimes'", "reuse, fresh"])


if __name__ == "__main__":
    sys.exit(suite_main({"receive": test_receive, "bad-input": test_bad_input}))
