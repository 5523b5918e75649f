#!/usr/bin/env bash
# A third-party plugin that uses MPI only, against the installed package, on
# a machine where mpiarena's private dependencies have no CMake package:
#   1. installs mpiarena into a scratch prefix;
#   2. hides the CMake configs of spdlog, fmt, nlohmann_json, valijson and the
#      compiled Boost libraries (CMAKE_IGNORE_PATH), and proves with a probe
#      project that find_package no longer finds them while MPI and the Boost
#      headers are still found;
#   3. configures and builds the installed example
#      (<prefix>/share/mpiarena/examples/third_party) in that environment and
#      installs it with `cmake --install` into the same prefix;
#   4. runs the installed runner with no MPIARENA_PLUGIN_PATH: --list shows
#      the plugin from <prefix>/lib/mpiarena/plugins, and a 2-rank run of it
#      passes verification.
# Arguments: build dir, work dir, mpiexec, launcher (openmpi or mpich:
# launcher.py).
set -euo pipefail
build=$1 work=$2 mpiexec=$3 launcher=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
example=$prefix/share/mpiarena/examples/third_party
[ -f "$example/CMakeLists.txt" ] || { echo "FAIL: $example not installed"; exit 1; }

# The config directories to hide, wherever this machine has them (/lib is
# /usr/lib on a merged /usr, and find_package looks under both, as it
# derives prefixes from PATH).
hidden=()
for root in /usr/lib/*/cmake /usr/lib/cmake /usr/share/cmake /lib/*/cmake /lib/cmake \
            /usr/local/lib/*/cmake /usr/local/lib/cmake /usr/local/share/cmake; do
  for d in "$root"/spdlog* "$root"/fmt* "$root"/nlohmann_json* "$root"/valijson* \
           "$root"/boost_mpi-* "$root"/boost_serialization-* "$root"/boost_wserialization-* \
           "$root"/boost_filesystem-* "$root"/boost_program_options-* "$root"/boost_system-*; do
    [ -d "$d" ] && hidden+=("$d")
  done
done
ignore=$(IFS=';'; echo "${hidden[*]}")
echo "hidden CMake package directories: ${hidden[*]}"
hide=(-DCMAKE_IGNORE_PATH="$ignore" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
      -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)

# The probe: the hiding works (nothing private is found), MPI and the Boost
# headers still are.
mkdir -p "$work/probe"
cat > "$work/probe/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.18)
project(probe LANGUAGES C CXX)
foreach(pkg spdlog fmt nlohmann_json valijson)
  find_package(${pkg} CONFIG QUIET)
  if(${pkg}_FOUND)
    message(FATAL_ERROR "probe: ${pkg} is still found (${${pkg}_DIR})")
  endif()
endforeach()
foreach(component mpi serialization filesystem program_options)
  find_package(boost_${component} CONFIG QUIET)
  if(boost_${component}_FOUND)
    message(FATAL_ERROR "probe: boost_${component} is still found")
  endif()
endforeach()
find_package(Boost QUIET COMPONENTS serialization)
if(Boost_SERIALIZATION_FOUND OR TARGET Boost::serialization)
  message(FATAL_ERROR "probe: Boost.Serialization is still found")
endif()
find_package(MPI REQUIRED COMPONENTS C)
find_package(Boost REQUIRED)
message(STATUS "probe: only MPI and the Boost headers are found")
EOF
cmake -S "$work/probe" -B "$work/probe/build" "${hide[@]}" > "$work/probe.log" 2>&1 ||
  { cat "$work/probe.log"; echo "FAIL: the hiding environment is not what this test needs"; exit 1; }

# The plugin against the installed package, in that environment.
if ! cmake -S "$example" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
       -DCMAKE_PREFIX_PATH="$prefix" "${hide[@]}" > "$work/configure.log" 2>&1; then
  cat "$work/configure.log"
  echo "FAIL: an MPI-only plugin does not configure against the installed package"
  exit 1
fi
cmake --build "$work/build"
cmake --install "$work/build" --prefix "$prefix" | tee "$work/plugin_install.log"
installed=$prefix/lib/mpiarena/plugins/mpiarena_third_party.so
[ -f "$installed" ] || { echo "FAIL: $installed not installed"; exit 1; }
# It finds libmpiarena by itself (RUNPATH), not only through the runner.
if ldd "$installed" | grep 'libmpiarena.* not found' >/dev/null; then
  ldd "$installed"; echo "FAIL: the installed plugin does not find libmpiarena"; exit 1
fi

unset MPIARENA_PLUGIN_PATH
runner=$prefix/bin/mpiarena
"$runner" --list | tee "$work/list.txt"
grep -q '^third_party ' "$work/list.txt" || { echo "FAIL: --list lacks third_party"; exit 1; }
python3 "$here/launcher.py" "$mpiexec" "$launcher" 2 "$runner" --methods third_party --sizes small \
  --min-time 0.001 --repetitions 3 -o "$work/r.json"
"$runner" validate "$work/r.json"
python3 - "$work/r.json" "$installed" <<'PY'
import json, os, sys
doc = json.load(open(sys.argv[1]))
recs = [r for r in doc["records"] if r["method"] == "third_party"]
assert len(recs) == 2, f"expected 2 records (1d, 2d), got {len(recs)}"
assert all(r["verification"]["status"] == "passed" for r in recs)
files = {os.path.realpath(r["plugin"]["file"]) for r in recs}
assert files == {os.path.realpath(sys.argv[2])}, files
print("MPI-only out-of-tree plugin: installed next to the runner, 2 verified records")
PY
