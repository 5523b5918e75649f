# Shared by slurm.sh and slurm_cluster.sh (sourced): waiting for a job.

# wait_job LAUNCHER [CMD...]: wait at most $bound seconds for job $job,
# asking Slurm through CMD (nothing, or a function that runs the command on
# a node); cancel it when the bound passes. Calls fail (the caller's) unless
# the job COMPLETED with exit code 0:0.
wait_job() {
  local launcher=$1 state="" t0 info exit_code
  shift
  t0=$(date +%s)
  while :; do
    info=$("$@" scontrol -o show job "$job" 2>/dev/null || true)
    state=$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$info")
    case $state in
      COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED) break ;;
    esac
    if [ $(($(date +%s) - t0)) -ge "$bound" ]; then
      "$@" scancel "$job" || true
      fail "job $job ($launcher) not finished within $bound s (state ${state:-unknown})"
    fi
    sleep 0.5
  done
  exit_code=$(sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p' <<<"$info")
  echo "job $job ($launcher): $state, exit code $exit_code, $(($(date +%s) - t0)) s"
  [ "$state" = COMPLETED ] && [ "$exit_code" = 0:0 ] \
    || fail "job $job ($launcher) ended $state with exit code $exit_code"
}
