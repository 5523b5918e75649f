#!/usr/bin/env bash
# Installs mpiarena into a scratch prefix and runs the installed program,
# named after the project: <prefix>/bin/mpiarena, and no bin/runner (a name
# any other package may install). Its --version, the plugins it finds by
# itself from <prefix>/bin, and a small run of 2 ranks, verified, with the
# size labelled in the unit given (4KiB: "4 KiB").
# Arguments: build dir, work dir, mpiexec, launcher (openmpi or mpich:
# launcher.py), the project's version, the build tree's runner.
set -euo pipefail
build=$1 work=$2 mpiexec=$3 launcher=$4 version=$5 runner=$6
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
prefix=$work/install
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
program=$prefix/bin/mpiarena
[ -x "$program" ] || { echo "FAIL: $program not installed"; exit 1; }
if [ -e "$prefix/bin/runner" ]; then
  echo "FAIL: $prefix/bin/runner installed: the program is bin/mpiarena"
  exit 1
fi
if grep -q '/bin/runner$' "$build/install_manifest.txt"; then
  echo "FAIL: the install manifest lists a bin/runner"; exit 1
fi
# The installed copy finds the installed libraries, not the build tree's.
if ldd "$program" | grep -F "$build/lib/" > /dev/null; then
  ldd "$program"; echo "FAIL: $program loads libraries from the build tree"
  exit 1
fi

# "mpiarena 0.1.0, plugin ABI 14", as the build tree's runner says it.
got=$("$program" --version)
[[ "$got" =~ ^mpiarena\ ${version//./\\.},\ plugin\ ABI\ [0-9]+$ ]] ||
  { echo "FAIL: --version printed '$got'"; exit 1; }
[ "$got" = "$("$runner" --version)" ] ||
  { echo "FAIL: --version '$got' is not the build tree's"; exit 1; }

unset MPIARENA_PLUGIN_PATH
"$program" --list > "$work/list.txt"
if ! grep -q '^allreduce ' "$work/list.txt"; then
  cat "$work/list.txt"; echo "FAIL: the installed plugins are not found"
  exit 1
fi

python3 "$here/launcher.py" "$mpiexec" "$launcher" 2 "$program" \
  -m allreduce -s 4KiB -r 3 --min-time 0.001 -o "$work/r.json" > "$work/run.txt"
"$program" validate "$work/r.json"
python3 - "$work/r.json" "$prefix" <<'PY'
import json, os, sys
doc = json.load(open(sys.argv[1]))
recs = doc["records"]
assert recs and all(r["method"] == "allreduce" for r in recs), recs
assert all(r["verification"]["status"] == "passed" for r in recs)
assert {(r["bytes"], r["size_label"]) for r in recs} == {(4096, "4 KiB")}, \
    [(r["bytes"], r["size_label"]) for r in recs]
prefix = os.path.realpath(sys.argv[2])
files = {os.path.realpath(r["plugin"]["file"]) for r in recs}
plugins = prefix + "/lib/mpiarena/plugins/"
assert all(f.startswith(plugins) for f in files), files
print(f"installed bin/mpiarena: {len(recs)} verified records, plugins {files}")
PY
