#!/usr/bin/env python3
"""The global clock (issue 46, core/engine/clock_sync.hpp) end to end.

    e2e_clocks.py sync --np N   runner clocks -f json: both algorithms (hca,
                                jk) leave every rank's residual offset
                                against rank 0, measured by an independent
                                ping-pong check, under BOUND (1 us; 20 us
                                when the ranks outnumber the cores) plus
                                the check's own uncertainty (half its round
                                trip, which must be under BOUND when every
                                rank has a core), right after the
                                synchronization and a second later; rank
                                0's residual is 0, the models are finite.
    e2e_clocks.py bad --np N    an unknown algorithm, --clock-sync on a run,
                                a format clocks does not write and an
                                argument after it exit 2 with one message
                                naming what is accepted.
    e2e_clocks.py hang --np N   a rank stuck in the synchronization
                                (MPIARENA_TEST_CLOCK_HANG) ends the run
                                within --point-timeout and the watchdog's
                                grace with exit 3 and one message naming
                                the step.
"""
import json
import math
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import check, env, launch, one_error, suite_main  # noqa: E402


def run(a, args, extra_env=None, timeout=120):
    cmd = launch(a) + [a.runner, "clocks"] + args
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                       env=env(extra_env))
    print(p.stdout[-3000:])
    print(p.stderr[-3000:], file=sys.stderr)
    return p


def test_sync(a):
    p = run(a, ["-f", "json"])
    check(p.returncode == 0, f"runner clocks exited {p.returncode}")
    doc = json.loads(p.stdout)
    check(doc["ranks"] == a.np, f"ranks {doc['ranks']}")
    bound = 1e-6 if a.np <= (os.cpu_count() or 1) else 20e-6
    got = [x["algorithm"] for x in doc["algorithms"]]
    check(got == ["hca", "jk"], f"algorithms {got}")
    for x in doc["algorithms"]:
        name = x["algorithm"]
        for key in ("offset_s", "slope", "residual_s", "later_s", "drift"):
            check(len(x[key]) == a.np and all(math.isfinite(v) for v in x[key]),
                  f"{name}: {key} {x[key]}")
        check(x["residual_s"][0] == 0 and x["offset_s"][0] == 0,
              f"{name}: rank 0 is the reference: {x['residual_s'][0]}, {x['offset_s'][0]}")
        for key in ("residual_s", "later_s"):
            # Each residual is known to +- half its check's round trip: it
            # must lie within the bound and that; where the ranks have a
            # core each, the check itself must resolve the bound.
            rtt = x[key.replace("_s", "_rtt_s")]
            for r, v in enumerate(x[key]):
                check(abs(v) < bound + rtt[r] / 2,
                      f"{name}: {key} of rank {r}: {v * 1e9:.0f} ns +- "
                      f"{rtt[r] / 2 * 1e9:.0f} ns, bound {bound * 1e9:.0f} ns")
                if a.np <= (os.cpu_count() or 1):
                    check(rtt[r] / 2 < bound, f"{name}: the check of rank {r} "
                          f"resolves only +- {rtt[r] / 2 * 1e9:.0f} ns")
        check(0 < x["sync_s"] < 10, f"{name}: sync took {x['sync_s']} s")
    table = run(a, ["--clock-sync", "jk"])
    check(table.returncode == 0 and "max |residual|" in table.stdout
          and "jk" in table.stdout and "hca" not in table.stdout.split("\n", 2)[-1],
          f"the table: {table.stdout[-500:]}")


def test_bad(a):
    one_error(run(a, ["--clock-sync", "hca,ntp"]), "ntp", "hca, jk")
    one_error(run(a, ["--format", "csv"]), "csv", "table, json")
    one_error(run(a, ["now"]), "unexpected argument 'now'", "'clocks'")
    cmd = launch(a) + [a.runner, "-m", "barrier", "--clock-sync", "hca"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env())
    one_error(p, "--clock-sync", "clocks")


def test_hang(a):
    start = time.monotonic()
    p = run(a, ["--point-timeout", "3"], {"MPIARENA_TEST_CLOCK_HANG": str(a.np - 1)})
    took = time.monotonic() - start
    check(p.returncode == 3, f"a hung rank: exit {p.returncode}, expected 3")
    check(took < 60, f"a hung rank: the run took {took:.0f} s")
    said = [l for l in (p.stdout + p.stderr).splitlines()
            if "clock synchronization (hca)" in l]
    check(len(said) == 1, f"expected one message naming the step, got {said}")


if __name__ == "__main__":
    sys.exit(suite_main({"sync": test_sync, "bad": test_bad, "hang": test_hang}))
