#!/usr/bin/env bash
# mpiarena-files on a machine without MPI: the file commands (validate,
# report, compare, trend) configured, built and run where no MPI is reachable:
#   1. configures the source tree with MPIARENA_FILES_ONLY=ON, FindMPI
#      disabled and a poisoned mpi.h first on the include path (any source
#      of these layers that includes mpi.h fails to build), and checks that
#      the cache names no MPI;
#   2. builds it: the results and analysis layers and mpiarena-files only;
#   3. checks the tool's whole library closure (ldd) holds no MPI library;
#   4. runs it on the fixture and on two copies of it: validate, report
#      (every format), compare (A/A exits 0, a doubled point exits 1 naming
#      it, one file exits 2) and trend, each output the same as the
#      runner's for the same command.
# Arguments: source dir, work dir, the runner of the main build, and the
# build dir (default <work dir>/build). CMake passes <build>-files-only,
# beside the main build: at the same depth, the unity batches' paths are the
# same relative to both trees (CCACHE_BASEDIR, scripts/common.sh), so ccache
# takes every object from the main build.
set -euo pipefail
src=$1 work=$2 runner=$3 tree=${4:-$2/build}
# The tree is outside the build tree: removed only when this test made it
# (its marker), never a directory of someone else's.
if [ -e "$tree" ] && [ ! -f "$tree/.mpiarena-files-only-test" ]; then
  echo "FAIL: $tree exists and is not this test's tree (no .mpiarena-files-only-test): move it away"
  exit 1
fi
rm -rf "$work" "$tree" && mkdir -p "$work/poison" "$tree"
touch "$tree/.mpiarena-files-only-test"
echo '#error "mpi.h included by a layer that must build without MPI"' > "$work/poison/mpi.h"

# Release, as the main build: under scripts/test, ccache then takes each
# object from the main build's compile of the same source. The poisoned
# mpi.h still guards every source: the command lines differ (-isystem), so
# ccache runs the preprocessor, with it, before it may reuse an object.
cmake -S "$src" -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DMPIARENA_FILES_ONLY=ON -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON \
  -DCMAKE_CXX_FLAGS="-isystem $work/poison" > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; echo "FAIL: the MPI-free build does not configure"; exit 1; }
if grep -i '^MPI_\|mpicc\|mpicxx' "$tree/CMakeCache.txt"; then
  echo "FAIL: the MPI-free configuration found MPI"; exit 1
fi
cmake --build "$tree" > "$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; echo "FAIL: the MPI-free build does not build"; exit 1; }
tool=$tree/mpiarena-files
[ -x "$tool" ] || { echo "FAIL: $tool not built"; exit 1; }
for t in runner lib/libmpiarena.so lib/libmpiarena_engine.so; do
  [ ! -e "$tree/$t" ] || { echo "FAIL: the MPI-free build made $t"; exit 1; }
done
ldd "$tool" > "$work/ldd.txt"
cat "$work/ldd.txt"
if grep -E 'lib(mpi|mpich|open-pal|open-rte|pmix|pmi)[._0-9-]|not found' "$work/ldd.txt"; then
  echo "FAIL: mpiarena-files loads an MPI library (or misses one)"; exit 1
fi

fixture=$src/tests/fixtures/report_np2.json
cp "$fixture" "$work/a.json"
# NEW: the fixture with one point twice as slow (every sample doubled).
python3 - "$fixture" "$work/slow.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
r = doc["records"][0]
r["samples_s"]["max"] = [2 * s for s in r["samples_s"]["max"]]
for k in ("median", "min", "mean", "max", "p50", "p95", "p99"):
    if k in r["time_s"]:
        r["time_s"][k] *= 2
json.dump(doc, open(sys.argv[2], "w"), indent=1)
PY
slow_point=$(python3 -c "
import json; r = json.load(open('$work/slow.json'))['records'][0]
print(f\"{r['suite']}/{r['method']}/{r['payload']}\")")

# Runs `tool ARGS` and `runner ARGS` and checks the exit code and that both
# print the same (the message prefix aside).
same() {
  local want=$1; shift
  set +e
  "$tool" "$@" > "$work/tool.out" 2> "$work/tool.err"; local got=$?
  "$runner" "$@" > "$work/runner.out" 2> "$work/runner.err"; local ref=$?
  set -e
  [ "$got" = "$want" ] || { cat "$work/tool.err"; echo "FAIL: mpiarena-files $* exited $got, not $want"; exit 1; }
  [ "$ref" = "$want" ] || { echo "FAIL: runner $* exited $ref, not $want"; exit 1; }
  cmp -s "$work/tool.out" "$work/runner.out" ||
    { diff "$work/tool.out" "$work/runner.out" | head; echo "FAIL: $* prints otherwise than the runner"; exit 1; }
  sed 's/^mpiarena-files: /runner: /' "$work/tool.err" | cmp -s - "$work/runner.err" ||
    { diff "$work/tool.err" "$work/runner.err" | head; echo "FAIL: $* says otherwise than the runner"; exit 1; }
}

same 0 validate "$work/a.json" "$work/slow.json"
grep -q 'valid (60 records' "$work/tool.out" || { echo "FAIL: validate"; exit 1; }
for f in table summary markdown json csv gbench html; do
  same 0 report "$work/a.json" --format "$f"
  [ -s "$work/tool.out" ] || { echo "FAIL: report --format $f printed nothing"; exit 1; }
done
same 0 compare "$work/a.json" "$work/a.json"
same 1 compare "$work/a.json" "$work/slow.json"
grep -Eq "^ +$slow_point .* regressed" "$work/tool.out" ||
  { echo "FAIL: compare does not name $slow_point as regressed"; exit 1; }
grep -q '^result: 1 regressed, 0 improved, 59 unchanged' "$work/tool.out" ||
  { echo "FAIL: compare judges more than the doubled point"; exit 1; }
same 2 compare "$work/a.json" "$work/a.json" "$work/a.json"
grep -q "mpiarena-files: error: 'compare' takes two result files" "$work/tool.err" ||
  { cat "$work/tool.err"; echo "FAIL: one message naming the problem"; exit 1; }
same 0 trend "$work/a.json" "$work/slow.json"
"$tool" trend "$work/a.json" "$work/slow.json" --format html -o "$work/trend.html"
grep -q '<svg' "$work/trend.html" || { echo "FAIL: trend --format html"; exit 1; }
same 2 tune "$work/a.json"
grep -q "tune: no run of runner --algorithms among the files" "$work/tool.err" ||
  { cat "$work/tool.err"; echo "FAIL: tune of a run without --algorithms"; exit 1; }
set +e
"$tool" --methods pingpong > /dev/null 2> "$work/run.err"; code=$?
set -e
[ "$code" = 2 ] && grep -q 'measuring needs the runner' "$work/run.err" ||
  { cat "$work/run.err"; echo "FAIL: a run asked of mpiarena-files: exit $code"; exit 1; }
echo "mpiarena-files: built and run without MPI; validate, report, compare, trend and tune agree with the runner"
