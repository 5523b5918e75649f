#!/usr/bin/env bash
# mpiarena under a real Slurm (scripts/slurm: munged, slurmctld and slurmd on
# this host, one node): docs/slurm/mpiarena.sbatch is submitted twice, the
# ranks started by `srun --mpi=pmix` and by `mpirun` inside the allocation.
# Each job must complete with exit code 0 and leave a valid result document
# from 2 ranks whose every record is verified, written by the runner of that
# job (its -o path holds the job id). The test Slurm is stopped at the end,
# whatever happens, and none of its processes may remain.
# usage: slurm.sh SOURCE_DIR RUNNER. Exit 77 (skipped): not root, or Slurm
# or munge not installed.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/slurm_lib.sh"
src=${1:?usage: slurm.sh SOURCE_DIR RUNNER}
runner=${2:?usage: slurm.sh SOURCE_DIR RUNNER}
slurm=$src/scripts/slurm
job_script=$src/docs/slurm/mpiarena.sbatch
bound=${MPIARENA_SLURM_JOB_BOUND:-120}   # seconds a job may take, queueing included

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: e2e_slurm_job needs root (the test Slurm runs its daemons as root)"
  exit 77
fi
for b in sbatch scontrol scancel slurmctld slurmd munged; do
  if ! command -v "$b" >/dev/null 2>&1; then
    echo "SKIP: e2e_slurm_job: $b is not installed (scripts/setup installs slurm-wlm and munge)"
    exit 77
  fi
done

# A Slurm of its own, apart from one a user started with scripts/slurm up
# (another state directory and ports), and no job environment inherited from
# a surrounding allocation nor Open MPI's root permission (the job script
# must set it itself).
export MPIARENA_SLURM_DIR=/run/mpiarena-slurm-e2e
export MPIARENA_SLURM_PORT=${MPIARENA_SLURM_PORT:-6827}
while read -r v; do unset "$v"; done < <(compgen -e | grep -E '^(SLURM_|SBATCH_|SALLOC_|SRUN_|PMIX_|OMPI_)' || true)
work=$(mktemp -d /tmp/mpiarena-e2e-slurm.XXXXXX)
log_dir=$MPIARENA_SLURM_DIR/log

cleanup() {
  local rc=$?
  "$slurm" down || echo "FAIL: scripts/slurm down failed" >&2
  if [ "$rc" -eq 0 ]; then rm -rf "$work"; else echo "kept: $work" >&2; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
  echo "FAIL: $*"
  local f
  for f in "$work"/*.out "$log_dir"/*; do
    [ -f "$f" ] || continue
    echo "----- $f (last 40 lines)"
    tail -n 40 "$f"
  done
  exit 1
}

start=$(date +%s)
rc=0; "$slurm" up || rc=$?
[ "$rc" -eq 77 ] && exit 77
[ "$rc" -eq 0 ] || fail "scripts/slurm up exited $rc"
eval "$("$slurm" env)"
pids=$(cat "$MPIARENA_SLURM_DIR"/run/{munged,slurmctld,slurmd}.pid)
node=$(sinfo -h -N -o %N | head -n 1)
echo "up in $(($(date +%s) - start)) s: node $node, daemons $(echo $pids)"

# submit LAUNCHER: run the job script with that launcher; sets $job.
submit() {
  local launcher=$1
  job=$(cd "$work" && LAUNCHER=$launcher RUNNER=$runner METHODS=bcast,raw SIZES=small \
        EXTRA="-r 3 --min-time 0.001" sbatch --parsable "$job_script") \
    || fail "sbatch $job_script (LAUNCHER=$launcher) failed"
  job=${job%%;*}
  wait_job "$launcher"
}

# check LAUNCHER: the job's output and result document.
check() {
  local launcher=$1 out=$work/mpiarena-$job.out results=$work/mpiarena-$job.json
  [ -f "$out" ] || fail "job $job: no output file $out"
  grep -q "^mpiarena job $job: .* launcher $launcher, results $results\$" "$out" \
    || fail "job $job: the output does not name launcher $launcher and $results"
  [ -f "$results" ] || fail "job $job: no result document $results"
  "$runner" validate "$results" || fail "job $job: runner validate $results failed"
  python3 - "$results" "$job" "$node" <<'PY' || fail "job $job ($launcher): the result document is not the expected one"
import json, sys
path, job, node = sys.argv[1:]
doc = json.load(open(path))
ctx, recs = doc["context"], doc["records"]
assert ctx["ranks"] == 2, f"context.ranks is {ctx['ranks']}, not 2"
assert ctx["nodes"] == 1 and ctx["hosts"] == [node], f"hosts {ctx['hosts']}, not [{node}]"
cmd = ctx["command_line"]
# The runner of this job wrote it: its -o is the job script's RESULTS,
# which holds the job id, and it ran the methods the test asked for.
assert "-o" in cmd and cmd[cmd.index("-o") + 1] == path, f"-o is not {path}: {cmd}"
assert f"mpiarena-{job}.json" in cmd[cmd.index("-o") + 1], f"no job id {job} in {cmd}"
assert cmd[cmd.index("--methods") + 1] == "bcast,raw", f"methods: {cmd}"
assert doc["complete"] is True, "the document is marked incomplete"
assert all(r["ranks"] == 2 for r in recs), "a record is not from 2 ranks"
assert len(recs) == 4, f"{len(recs)} records, expected 4 (bcast, raw x 1d, 2d at small)"
bad = [(r["method"], r["payload"], r["verification"]["status"]) for r in recs
       if r["verification"]["status"] != "passed"]
assert not bad, f"not verified: {bad}"
assert not doc["skipped"], f"skipped: {doc['skipped']}"
# The job script's binding (srun --cpu-bind=cores, mpirun --bind-to core):
# each rank bound to a CPU of its own.
ranks = ctx["placement"]["ranks"]
assert all(r["bound"] for r in ranks), f"a rank is not bound: {ranks}"
assert len({r["cpus"] for r in ranks}) == 2, f"ranks share CPUs: {ranks}"
print(f"job {job}: {len(recs)} records from {ctx['ranks']} ranks on {ctx['hosts']}, all verified; "
      f"command line: {' '.join(cmd)}")
PY
}

for launcher in srun mpirun; do
  submit "$launcher"
  check "$launcher"
done

# Down, then nothing of this Slurm may remain.
"$slurm" down || fail "scripts/slurm down failed"
for pid in $pids; do
  ! kill -0 "$pid" 2>/dev/null || fail "process $pid ($(cat /proc/$pid/comm 2>/dev/null)) still runs after down"
done
[ ! -e "$MPIARENA_SLURM_DIR" ] || fail "$MPIARENA_SLURM_DIR still exists after down"
echo "PASS: both launchers, down left nothing ($(($(date +%s) - start)) s)"
