#!/usr/bin/env python3
"""Multi-node end-to-end tests on an emulated cluster (scripts/cluster):
2 nodes x 2 ranks, each node a network and UTS namespace with its own host
name and address, ranks started by Open MPI's own rsh launcher, traffic
between nodes over Open MPI's TCP path.

Each test makes its own cluster (named after this process, so tests never
share one) and removes it at the end, also when it fails; a cluster left by
a killed test is removed by the next one. Without the privileges the
cluster needs (root, network namespaces), every test exits 77 (skipped)
with one line saying why.

  suites   transfer, ping-pong and the collective suites verified on 2 x 2
           (Open MPI: one-sided methods with --mca osc ucx; without it,
           the error names that fix. MPICH needs nothing); the context
           names 2 nodes and their hosts; single-node methods (shm,
           stencil_shm) skipped with their reason
  pairs    --pairs intra and inter: the pair, its hosts and placement in
           the records and the tables; report and compare read the files;
           inter on one node is skipped with its reason
  memory   the memory guard counts the ranks of a node: a point that fits 2
           ranks per node runs on 2 x 2 and is skipped on 1 x 4
  cleanup  an interrupted `scripts/cluster run` leaves nothing running on
           the nodes, and `down` leaves no namespace
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Fail, add_mpi_args, check, env, launch, parse_args, run_test, VERIFY  # noqa: E402

FAST = VERIFY


class Cluster:
    """scripts/cluster for one test: up on entry, down on exit."""

    def __init__(self, a, nodes=2):
        self.a = a
        self.nodes = nodes
        self.name = f"e2e{os.getpid()}"
        self.env = env({"MPIARENA_CLUSTER": self.name,
                        "MPIARENA_CLUSTER_MPIEXEC": a.mpiexec})

    def call(self, *args, timeout=120, check_rc=True):
        cmd = [self.a.cluster] + list(args)
        print("$ MPIARENA_CLUSTER=" + self.name, " ".join(cmd), flush=True)
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           env=self.env)
        print(p.stdout[-4000:])
        print(p.stderr[-4000:], file=sys.stderr)
        if check_rc:
            check(p.returncode == 0, f"scripts/cluster {args[0]} exited {p.returncode}")
        return p

    def __enter__(self):
        self.call("up", str(self.nodes))
        return self

    def __exit__(self, *exc):
        self.call("down", check_rc=False)
        return False

    def runner(self, np, args, mpirun_args=(), timeout=280):
        """The runner on the cluster: np ranks filling node 1 first."""
        return self.call("run", "-np", str(np), *mpirun_args, self.a.runner, *args,
                         timeout=timeout, check_rc=False)

    def hosts(self):
        return [f"{self.name}-node{k}" for k in range(1, self.nodes + 1)]


def remove_stale(a):
    """Clusters of e2e tests whose process is gone (a test killed by ctest's
    timeout cannot clean up after itself)."""
    base = "/run/mpiarena-cluster"
    names = set(os.listdir(base)) if os.path.isdir(base) else set()
    p = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
    for line in p.stdout.splitlines():
        m = re.match(r"(e2e\d+)-(node\d+|switch)\b", line)
        if m:
            names.add(m.group(1))
    for name in names:
        m = re.fullmatch(r"e2e(\d+)", name)
        if m and not os.path.exists(f"/proc/{m.group(1)}"):
            subprocess.run([a.cluster, "down"], env=env({"MPIARENA_CLUSTER": name}))


def load(path):
    with open(path) as f:
        return json.load(f)


def validated(a, path):
    p = subprocess.run([a.runner, "validate", path], capture_output=True, text=True,
                       env=env())
    check(p.returncode == 0, f"runner validate {path}: {p.stdout} {p.stderr}")
    return load(path)


def out(a, name):
    path = os.path.join(a.workdir, name)
    if os.path.exists(path):
        os.remove(path)
    return path


def check_context(d, c):
    ctx = d["context"]
    check(ctx["ranks"] == 4, f"ranks {ctx['ranks']}, expected 4")
    check(ctx["nodes"] == 2, f"nodes {ctx['nodes']}, expected 2")
    check(sorted(ctx["hosts"]) == c.hosts(), f"hosts {ctx['hosts']}, expected {c.hosts()}")
    # The emulated nodes share this machine: one kernel, and 4 ranks on it.
    check(ctx["machines"] == 1, f"machines {ctx.get('machines')}, expected 1")
    cpus = os.cpu_count() or 1
    check(ctx["oversubscribed"] == (4 > cpus),
          f"oversubscribed {ctx['oversubscribed']} with 4 ranks on {cpus} CPUs")
    hosts = [r["host"] for r in ctx["placement"]["ranks"]]
    check(hosts == [c.hosts()[0]] * 2 + [c.hosts()[1]] * 2,
          f"ranks by host {hosts}: mpirun fills node 1 first")


def test_suites(a):
    with Cluster(a) as c:
        osc = []
        if a.launcher == "openmpi":
            # Open MPI 4.1's default one-sided component cannot make a
            # window across nodes over TCP: the error says so and names
            # the fix.
            p = c.runner(4, ["-m", "rdma", "--payloads", "1d", "--sizes", "small"] + FAST)
            check(p.returncode == 1 and "--mca osc ucx" in p.stdout + p.stderr,
                  f"rdma over TCP with the default osc: exit {p.returncode}, the hint")
            osc = ["--mca", "osc", "ucx"]
        path = out(a, "cluster_suites.json")
        p = c.runner(4, ["-m", "transfer,pingpong,distribution,combination,collective,"
                         "stencil_shm", "--sizes", "small", "-o", path] + FAST,
                     mpirun_args=osc)
        check(p.returncode == 0, f"run on 2 x 2 exited {p.returncode}")
        d = validated(a, path)
        check_context(d, c)
        check("emulated nodes: the 2 nodes run on 1 machine" in p.stdout,
              "the header must say the nodes are emulated on one machine")
        suites = {r["suite"] for r in d["records"]}
        for s in ["transfer", "pingpong", "distribution", "combination", "collective"]:
            check(s in suites, f"no {s} record on 2 x 2")
        bad = [(r["method"], r["verification"]) for r in d["records"]
               if r["verification"]["status"] != "passed"]
        check(not bad, f"not verified: {bad}")
        for method in ["shm", "stencil_shm"]:
            check(not any(r["method"] == method for r in d["records"]),
                  f"{method} ran across nodes")
            skips = [s for s in d["skipped"] if s["method"] == method]
            check(skips and all("within one node only" in s["reason"] and
                                "2 nodes" in s["reason"] for s in skips),
                  f"{method} not skipped with its reason: {skips}")
        # The ping-pong pair of --pairs one is ranks 0 and 1: one node.
        pp = [r for r in d["records"] if r["suite"] == "pingpong"]
        check(pp and all(r["pair_placement"] == "intra" and r["pair_ranks"] == [[0, 1]]
                         for r in pp), "--pairs one must be ranks 0 and 1, intra")


def test_pairs(a):
    paths = {}
    with Cluster(a) as c:
        for placement, partner in [("intra", 1), ("inter", 2)]:
            path = paths[placement] = out(a, f"cluster_pairs_{placement}.json")
            p = c.runner(4, ["-m", "pingpong", "--pairs", placement,
                             "--sizes", "1KiB,small", "-o", path] + FAST)
            check(p.returncode == 0, f"--pairs {placement} exited {p.returncode}")
            d = validated(a, path)
            check_context(d, c)
            check(d["context"]["options"]["pairs"] == placement, "options.pairs")
            recs = d["records"]
            check(len(recs) >= 2 * 5, f"{len(recs)} ping-pong records")
            for r in recs:
                check(r["verification"]["status"] == "passed", f"{r['method']} not verified")
                check(r["pair_placement"] == placement and r["pair_ranks"] == [[0, partner]],
                      f"{r['method']}: {r.get('pair_placement')} {r.get('pair_ranks')}")
                # per_rank_s is in launch order: the partner did the work.
                check(len(r["per_rank_s"]) == 4, "per_rank_s has 4 ranks")
            note = ("ranks 0 and 2, across nodes" if placement == "inter" else None)
            if note:
                check(note in p.stdout, f"the table must say '{note}'")
    # report reads them; compare matches a file with itself and never an
    # intra pair with an inter one.
    p = subprocess.run([a.runner, "report", paths["inter"]], capture_output=True,
                       text=True, env=env())
    check(p.returncode == 0 and "across nodes" in p.stdout and "2 nodes" in p.stdout,
          f"report of the inter file: {p.returncode} {p.stdout[-800:]}")
    p = subprocess.run([a.runner, "compare", paths["inter"], paths["inter"],
                        "--allow-powerless"],
                       capture_output=True, text=True, env=env())
    check(p.returncode == 0, f"compare inter inter exited {p.returncode}: {p.stdout[-800:]}")
    p = subprocess.run([a.runner, "compare", paths["intra"], paths["inter"]],
                       capture_output=True, text=True, env=env())
    print(p.stdout[-1500:], p.stderr[-800:])
    check(p.returncode == 2 and "share no" in (p.stdout + p.stderr),
          f"compare intra inter must match no point (exit 2), got {p.returncode}")
    # On one node, --pairs inter has no pair: skipped with the reason.
    path = out(a, "cluster_pairs_onenode.json")
    p = subprocess.run(launch(a, 2) + [a.runner, "-m", "mpi_bytes",
                        "--pairs", "inter", "--sizes", "1KiB", "-o", path] + FAST,
                       capture_output=True, text=True, env=env(), timeout=120)
    print(p.stdout[-1500:], p.stderr[-1500:])
    check(p.returncode == 0, f"--pairs inter on one node exited {p.returncode}")
    d = validated(a, path)
    check(not d["records"] and d["skipped"] and
          "are all on one node" in d["skipped"][0]["reason"],
          f"--pairs inter on one node: {d['skipped']}")


def test_memory(a):
    # The reason a 4-rank single-node run gives for a 1 MiB bcast under a
    # tiny --max-memory tells the need of 4 ranks on a node and the share.
    args = ["-m", "bcast", "--payloads", "1d", "--sizes", "1MiB"] + FAST
    probe = out(a, "cluster_memory_probe.json")
    host = launch(a, 4) + [a.runner] + args
    p = subprocess.run(host + ["--max-memory", "1KiB", "-o", probe], capture_output=True,
                       text=True, env=env(), timeout=120)
    check(p.returncode == 0, f"probe run exited {p.returncode}: {p.stderr[-800:]}")
    reason = load(probe)["skipped"][0]["reason"]
    m = re.search(r"\(4 ranks x (\d+) payload cop\w+ x .*?\), more than (\d+)%", reason)
    check(m, f"unexpected memory reason: {reason}")
    need4 = int(m.group(1)) * 1024 * 1024 * 4
    # Room for 2 ranks' buffers but not for 4, per node.
    budget = int(need4 * 0.75 / (int(m.group(2)) / 100))
    single = out(a, "cluster_memory_1x4.json")
    p = subprocess.run(host + ["--max-memory", str(budget), "-o", single],
                       capture_output=True, text=True, env=env(), timeout=120)
    check(p.returncode == 0, f"1 x 4 run exited {p.returncode}")
    d = load(single)
    check(not d["records"] and "4 ranks x" in d["skipped"][0]["reason"],
          f"1 x 4 must skip the point, 4 ranks on the node: {d['skipped']}")
    with Cluster(a) as c:
        path = out(a, "cluster_memory_2x2.json")
        p = c.runner(4, args + ["--max-memory", str(budget), "-o", path])
        check(p.returncode == 0, f"2 x 2 run exited {p.returncode}")
        d = validated(a, path)
        check(len(d["records"]) == 1 and not d["skipped"],
              f"2 x 2 must run the point (2 ranks per node): {d['skipped']}")


def netns_of(name):
    p = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True)
    return [l.split()[0] for l in p.stdout.splitlines() if l.startswith(name + "-")]


def test_cleanup(a):
    with Cluster(a) as c:
        check(len(netns_of(c.name)) == 3, f"namespaces after up: {netns_of(c.name)}")
        cmd = [a.cluster, "run", "-np", "4", "sleep", "120"]
        proc = subprocess.Popen(cmd, env=c.env, start_new_session=True)
        time.sleep(3)
        busy = [ns for ns in netns_of(c.name)
                if subprocess.run(["ip", "netns", "pids", ns], capture_output=True,
                                  text=True).stdout.strip()]
        check(len(busy) == 2, f"sleep must run on both nodes, ran in {busy}")
        t = time.time()
        proc.send_signal(signal.SIGINT)
        rc = proc.wait(timeout=30)
        print(f"interrupted run ended with {rc} after {time.time() - t:.1f} s")
        check(rc != 0, "an interrupted run must not exit 0")
        deadline = time.time() + 10
        left = ["?"]
        while time.time() < deadline and left:
            left = [ns for ns in netns_of(c.name)
                    if subprocess.run(["ip", "netns", "pids", ns], capture_output=True,
                                      text=True).stdout.strip()]
            time.sleep(0.2)
        check(not left, f"processes left on {left} after an interrupted run")
        name = c.name
    check(not netns_of(name), f"namespaces left after down: {netns_of(name)}")
    check(not os.path.exists(f"/run/mpiarena-cluster/{name}"), "state left after down")


TESTS = {"suites": test_suites, "pairs": test_pairs, "memory": test_memory,
         "cleanup": test_cleanup}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test", choices=sorted(TESTS))
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--cluster", required=True, help="scripts/cluster")
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    p = subprocess.run([a.cluster, "check"], capture_output=True, text=True)
    if p.returncode != 0:
        print((p.stdout + p.stderr).strip() or "cluster: cannot run here")
        print("SKIPPED: needs an emulated cluster")
        return 77
    remove_stale(a)
    return run_test(TESTS[a.test], a)


if __name__ == "__main__":
    sys.exit(main())
