#!/usr/bin/env bash
# A test that fails on purpose in each tier is caught by the pass that
# should catch it (tests/README.md, "Tiers"). Run by hand after
# scripts/test (it needs its three build trees), not by ctest:
#
#   tests/tier_catch.sh [<build> [<mpich build> [<sanitizer build>]]]
#
# For each label it takes one test carrying it, makes it fail and runs it
# through the selection of the pass that must catch it (that pass's ctest
# labels, restricted with -R to the one test): the pass must fail naming
# it. A test outside the selection runs nothing and passes, so a label that
# a pass leaves out is seen. The failures:
#
#   unit, file  the code breaks: the inner loop (scripts/test --quick's
#               selection) must catch a broken compare (a regression exits
#               0), report (the ranked tables vanish) and history (the
#               store forgets each run's revision); the source is restored
#               and rebuilt after each
#   mpi, mpi-lib, timing, slow
#               MPIARENA_E2E_NO_LAUNCH=1: the harness fails a test that
#               starts a launcher (tests/e2e/e2e.py, launch)
#   sanitize    scripts/sanitize's canaries (a leak, a heap overflow, a
#               signed overflow) fail in every run of it; here the engine
#               test it runs must be in its selection
#
# and checks that a `timing` test runs alone and a `slow` one is left out
# of the inner loop. Exit 0 when every row is caught.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$ROOT/build}
MPICH_BUILD=${2:-$BUILD-mpich}
SAN_BUILD=${3:-$BUILD-sanitize}
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
QUICK=(-L '^(unit|file)$' -LE slow)
FULL=()
MPICH=(-L '^(unit|mpi-lib)$')
SANITIZE=(-L '^(unit|sanitize)$')
bad=0 log=$(mktemp)
trap 'rm -f "$log"' EXIT

# caught <row> <build dir> <test> <env> <ctest args...>: the selection
# restricted to <test>, with <env> (VAR=value or -), must fail naming it.
caught() {
  local row=$1 dir=$2 test=$3 var=$4
  shift 4
  [ -d "$dir" ] || { echo "$row: SKIP ($dir is not built)"; return; }
  local e=()
  [ "$var" = - ] || e=("$var")
  env "${e[@]}" ctest --test-dir "$dir" "$@" -R "^${test}\$" --output-on-failure > "$log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ] && grep -Eq "^[[:space:]]+[0-9]+ - ${test} " "$log"; then
    echo "$row: caught ($test failed, ctest exit $rc)"
  else
    echo "$row: NOT CAUGHT ($test, ctest exit $rc)"; tail -5 "$log"; bad=1
  fi
}

# in_selection <row> <dir> <test> yes|no <ctest args...>
in_selection() {
  local row=$1 dir=$2 test=$3 want=$4
  shift 4
  [ -d "$dir" ] || return
  local got=no listed
  listed=$(ctest --test-dir "$dir" -N "$@")  # not piped into grep -q: pipefail
  grep -Eq "Test +#[0-9]+: ${test}\$" <<<"$listed" && got=yes
  if [ "$got" = "$want" ]; then
    echo "$row: $test in the selection: $got, as it should be"
  else
    echo "$row: $test in the selection: $got, expected $want"; bad=1
  fi
}

# broken <row> <file> <sed expression>: breaks the source, rebuilds, runs
# the inner loop (it must fail), restores the source and rebuilds.
broken() {
  local row=$1 file=$ROOT/$2 expr=$3 keep
  keep=$(mktemp)
  cp "$file" "$keep"
  sed -i "$expr" "$file"
  if cmp -s "$file" "$keep"; then
    echo "$row: the break changed nothing in $2"; bad=1; rm -f "$keep"; return
  fi
  if cmake --build "$BUILD" > "$log" 2>&1 &&
     ! ctest --test-dir "$BUILD" "${QUICK[@]}" -j "$(nproc)" > "$log.ctest" 2>&1; then
    echo "$row: caught by the inner loop ($(grep -cE '^[[:space:]]+[0-9]+ - ' "$log.ctest") tests failed)"
  else
    echo "$row: NOT CAUGHT by the inner loop"; bad=1
  fi
  cp "$keep" "$file"; rm -f "$keep" "$log.ctest"
  touch "$file"
  cmake --build "$BUILD" > "$log" 2>&1 || { echo "rebuild after $row failed"; bad=1; }
}

broken "unit+file, compare" core/analysis/compare/compare.cpp \
  's/if (count(Outcome::regressed) > 0) return 1;/if (count(Outcome::regressed) > 0) return 0;/'
broken "unit+file, report" core/analysis/report/report.cpp \
  's/^      ranked_table(out, recs, style, pct);/      (void)recs;/'
broken "unit+file, history" core/analysis/history/store.cpp \
  's/return b->value("git_revision", std::string());/return std::string();/'

NL=MPIARENA_E2E_NO_LAUNCH=1
caught "mpi (Open MPI pass)" "$BUILD" e2e_stencil_np3 $NL "${FULL[@]}"
caught "mpi-lib (MPICH pass)" "$MPICH_BUILD" e2e_all_methods_np2 $NL "${MPICH[@]}"
caught "timing (Open MPI pass)" "$BUILD" e2e_faults_quick_np2 $NL "${FULL[@]}"
if ctest --test-dir "$BUILD" -N -R '^e2e_faults_quick_np2$' --show-only=json-v1 |
   python3 -c 'import json,sys; t=json.load(sys.stdin)["tests"][0]; sys.exit(0 if any(p["name"]=="RUN_SERIAL" and p["value"] for p in t.get("properties",[])) else 1)'; then
  echo "timing: e2e_faults_quick_np2 runs alone (RUN_SERIAL)"
else
  echo "timing: e2e_faults_quick_np2 is not RUN_SERIAL"; bad=1
fi
caught "slow (Open MPI pass)" "$BUILD" e2e_pingpong_options_np2 $NL "${FULL[@]}"
in_selection "slow (inner loop)" "$BUILD" e2e_pingpong_options_np2 no "${QUICK[@]}"
in_selection "sanitize (sanitizer pass)" "$SAN_BUILD" engine_mpi_2ranks yes "${SANITIZE[@]}"
in_selection "unit (MPICH pass)" "$MPICH_BUILD" Payload.ValuesAreOddAndNeverZero yes "${MPICH[@]}"

[ $bad = 0 ] && echo "tier_catch: every tier's failure was caught" || echo "tier_catch: FAILED"
exit $bad
