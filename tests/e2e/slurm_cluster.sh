#!/usr/bin/env bash
# mpiarena under a real Slurm on the emulated cluster: scripts/cluster up 2
# (two nodes, network and UTS namespaces), then scripts/slurm --cluster
# (slurmctld on node 1, one slurmd per node). docs/slurm/mpiarena.sbatch is
# submitted on node 1 with --nodes=2 --ntasks-per-node=1, the ranks started
# by `srun --mpi=pmix` and by `mpirun` inside the allocation (Open MPI then
# starts its daemon on node 2 through srun: the multi-node path the
# single-host e2e_slurm_job cannot take). Each job must complete with exit
# code 0 and leave a valid result document from 2 ranks on the two nodes
# whose every record is verified. Slurm and the cluster are removed at the
# end, whatever happens, and none of their processes or namespaces may remain.
# usage: slurm_cluster.sh SOURCE_DIR RUNNER. Exit 77 (skipped): not root,
# Slurm or munge not installed, or no namespaces here.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/slurm_lib.sh"
src=${1:?usage: slurm_cluster.sh SOURCE_DIR RUNNER}
runner=${2:?usage: slurm_cluster.sh SOURCE_DIR RUNNER}
slurm=$src/scripts/slurm
cluster=$src/scripts/cluster
job_script=$src/docs/slurm/mpiarena.sbatch
bound=${MPIARENA_SLURM_JOB_BOUND:-120}   # seconds a job may take, queueing included
methods=bcast,raw,mpi_bytes   # no one-sided method: Open MPI's default osc fails across nodes on TCP

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: e2e_slurm_cluster_job needs root (namespaces, and Slurm's daemons run as root)"
  exit 77
fi
for b in sbatch scontrol scancel slurmctld slurmd munged mpirun; do
  if ! command -v "$b" >/dev/null 2>&1; then
    echo "SKIP: e2e_slurm_cluster_job: $b is not installed (scripts/setup installs slurm-wlm and munge)"
    exit 77
  fi
done
why=$("$cluster" check 2>&1) || { echo "SKIP: e2e_slurm_cluster_job: $why"; exit 77; }

# A cluster and a Slurm of its own (its name, so its namespaces and state
# directory), and no job environment inherited from a surrounding
# allocation nor Open MPI's root permission (the job script sets it).
export MPIARENA_CLUSTER=e2eslurm$$
unset MPIARENA_SLURM_DIR MPIARENA_SLURM_CLUSTER
while read -r v; do unset "$v"; done < <(compgen -e | grep -E '^(SLURM_|SBATCH_|SALLOC_|SRUN_|PMIX_|OMPI_)' || true)
state_dir=/run/mpiarena-slurm-cluster-$MPIARENA_CLUSTER
conf=$state_dir/etc/slurm.conf
node1=$MPIARENA_CLUSTER-node1
node2=$MPIARENA_CLUSTER-node2
work=$(mktemp -d /tmp/mpiarena-e2e-slurm-cluster.XXXXXX)
pids=""

cleanup() {
  local rc=$?
  "$slurm" --cluster down || echo "FAIL: scripts/slurm --cluster down failed" >&2
  "$cluster" down || echo "FAIL: scripts/cluster down failed" >&2
  if [ "$rc" -eq 0 ]; then rm -rf "$work"; else echo "kept: $work" >&2; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
  echo "FAIL: $*"
  local f
  for f in "$work"/*.out "$state_dir"/log/*; do
    [ -f "$f" ] || continue
    echo "----- $f (last 40 lines)"
    tail -n 40 "$f"
  done
  exit 1
}

# A Slurm command on node 1, where slurmctld listens.
on1() { "$cluster" exec 1 env SLURM_CONF="$conf" "$@"; }

start=$(date +%s)
rc=0; "$cluster" up 2 || rc=$?
[ "$rc" -eq 77 ] && exit 77
[ "$rc" -eq 0 ] || fail "scripts/cluster up 2 exited $rc"
rc=0; "$slurm" --cluster up || rc=$?
[ "$rc" -eq 77 ] && exit 77
[ "$rc" -eq 0 ] || fail "scripts/slurm --cluster up exited $rc"
pids=$(cat "$state_dir"/run/{munged,slurmctld,slurmd-"$node1",slurmd-"$node2"}.pid)
nodes=$(on1 sinfo -h -N -o '%N %T' | sort | tr '\n' ' ')
[ "$nodes" = "$node1 idle $node2 idle " ] || fail "sinfo on node 1: '$nodes', not both nodes idle"
echo "up in $(($(date +%s) - start)) s: $nodes; daemons $(echo $pids)"

# submit LAUNCHER: run the job script with that launcher on both nodes; sets $job.
submit() {
  local launcher=$1
  job=$(cd "$work" && on1 LAUNCHER="$launcher" RUNNER="$runner" METHODS=$methods SIZES=small \
        EXTRA="-r 3 --min-time 0.001" sbatch --parsable --nodes=2 --ntasks-per-node=1 "$job_script") \
    || fail "sbatch $job_script (LAUNCHER=$launcher) on node 1 failed"
  job=${job%%;*}
  wait_job "$launcher" on1
}

# check LAUNCHER: the job's output and result document.
check() {
  local launcher=$1 out=$work/mpiarena-$job.out results=$work/mpiarena-$job.json
  [ -f "$out" ] || fail "job $job: no output file $out"
  grep -q "^mpiarena job $job: 2 node(s) ($MPIARENA_CLUSTER-node\[1-2\]), 2 tasks, launcher $launcher, results $results\$" "$out" \
    || fail "job $job: the output does not name 2 nodes, launcher $launcher and $results"
  [ -f "$results" ] || fail "job $job: no result document $results"
  "$runner" validate "$results" || fail "job $job: runner validate $results failed"
  python3 - "$results" "$job" "$node1" "$node2" "$methods" <<'PY' || fail "job $job ($launcher): the result document is not the expected one"
import json, sys
path, job, node1, node2, methods = sys.argv[1:]
doc = json.load(open(path))
ctx, recs = doc["context"], doc["records"]
assert ctx["ranks"] == 2, f"context.ranks is {ctx['ranks']}, not 2"
assert ctx["nodes"] == 2, f"context.nodes is {ctx['nodes']}, not 2"
assert sorted(ctx["hosts"]) == [node1, node2], f"hosts {ctx['hosts']}, not [{node1}, {node2}]"
cmd = ctx["command_line"]
assert "-o" in cmd and cmd[cmd.index("-o") + 1] == path, f"-o is not {path}: {cmd}"
assert f"mpiarena-{job}.json" in cmd[cmd.index("-o") + 1], f"no job id {job} in {cmd}"
assert cmd[cmd.index("--methods") + 1] == methods, f"methods: {cmd}"
assert doc["complete"] is True, "the document is marked incomplete"
assert all(r["ranks"] == 2 for r in recs), "a record is not from 2 ranks"
assert len(recs) == 5, f"{len(recs)} records, expected 5 (bcast, raw x 1d, 2d; mpi_bytes at small)"
bad = [(r["method"], r["payload"], r["verification"]["status"]) for r in recs
       if r["verification"]["status"] != "passed"]
assert not bad, f"not verified: {bad}"
assert not doc["skipped"], f"skipped: {doc['skipped']}"
ranks = ctx["placement"]["ranks"]
assert all(r["bound"] for r in ranks), f"a rank is not bound: {ranks}"
print(f"job {job}: {len(recs)} records from {ctx['ranks']} ranks on {ctx['nodes']} nodes {ctx['hosts']}, "
      f"all verified; command line: {' '.join(cmd)}")
PY
}

for launcher in srun mpirun; do
  submit "$launcher"
  check "$launcher"
done

# Down, then nothing of this Slurm nor of the cluster may remain.
"$slurm" --cluster down || fail "scripts/slurm --cluster down failed"
"$cluster" down || fail "scripts/cluster down failed"
for pid in $pids; do
  ! kill -0 "$pid" 2>/dev/null || fail "process $pid ($(cat /proc/$pid/comm 2>/dev/null)) still runs after down"
done
[ ! -e "$state_dir" ] || fail "$state_dir still exists after down"
left=$(ip netns list | awk '{print $1}' | grep -E "^$MPIARENA_CLUSTER-" || true)
[ -z "$left" ] || fail "namespaces left after down: $(echo $left)"
echo "PASS: both launchers on 2 nodes, down left nothing ($(($(date +%s) - start)) s)"
