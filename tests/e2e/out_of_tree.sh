#!/usr/bin/env bash
# Installs mpiarena into a scratch prefix, builds the installed copy of
# tests/e2e/out_of_tree (<prefix>/share/mpiarena/examples/third_party)
# against it with find_package(mpiarena), and runs the installed runner with
# the new plugin found in its build directory through MPIARENA_PLUGIN_PATH.
# (out_of_tree_mpi_only.sh installs it next to the runner instead.)
# Arguments: build dir, work dir, mpiexec, launcher (openmpi or mpich:
# launcher.py). find_package(mpiarena) finds the MPI mpiarena was built with.
set -euo pipefail
build=$1 work=$2 mpiexec=$3 launcher=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/install" > "$work/install.log"
src=$work/install/share/mpiarena/examples/third_party
cmp "$src/third_party.cpp" "$(dirname "$0")/out_of_tree/third_party.cpp"
cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/install" \
  -DCMAKE_BUILD_TYPE=Release > "$work/configure.log"
cmake --build "$work/build"
plugin=$(find "$work/build" -name 'mpiarena_third_party.so')
[ -n "$plugin" ] || { echo "FAIL: plugin not built"; exit 1; }
export MPIARENA_PLUGIN_PATH=$(dirname "$plugin")
runner=$work/install/bin/mpiarena
"$runner" --list | tee "$work/list.txt"
grep -q '^third_party ' "$work/list.txt" || { echo "FAIL: --list lacks third_party"; exit 1; }
grep -q '^bcast ' "$work/list.txt" || { echo "FAIL: installed plugins missing"; exit 1; }
python3 "$here/launcher.py" "$mpiexec" "$launcher" 2 "$runner" --methods third_party --sizes small,medium \
  --min-time 0.001 --repetitions 3 -o "$work/r.json"
"$runner" validate "$work/r.json"
python3 - "$work/r.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
recs = [r for r in doc["records"] if r["method"] == "third_party"]
assert len(recs) == 4, f"expected 4 records, got {len(recs)}"
assert all(r["verification"]["status"] == "passed" for r in recs)
assert all(r["plugin"]["file"].startswith(sys.argv[1].rsplit("/", 1)[0]) for r in recs)
print("out-of-tree plugin: 4 verified records")
PY
