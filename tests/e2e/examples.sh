#!/usr/bin/env bash
# Installs mpiarena into a scratch prefix and, for every installed example
# (<prefix>/share/mpiarena/examples/<suite>), builds it against the
# installed SDK alone (find_package(mpiarena)), lists it with the installed
# runner (MPIARENA_PLUGIN_PATH) and runs it at 2 and 3 ranks: every record
# verified, the example's own metric and option where it has them. Then the
# installed guides (share/doc/mpiarena): what --help, compare and plugin.hpp
# cite is there, and so is every file of docs/ a guide links to.
# Arguments: build dir, work dir, mpiexec, launcher (openmpi or mpich).
set -euo pipefail
build=$1 work=$2 mpiexec=$3 launcher=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/install" > "$work/install.log"
examples=$work/install/share/mpiarena/examples
runner=$work/install/bin/mpiarena
build_example() {  # build_example <suite>: configures and builds one example
  local suite=$1 src=$examples/$1
  [ -f "$src/CMakeLists.txt" ] || { echo "FAIL: $src not installed"; return 1; }
  cmake -S "$src" -B "$work/build-$suite" -G Ninja -DCMAKE_PREFIX_PATH="$work/install" \
    -DCMAKE_BUILD_TYPE=Release > "$work/configure-$suite.log" 2>&1 ||
    { cat "$work/configure-$suite.log"; echo "FAIL: example $suite does not configure"; return 1; }
  cmake --build "$work/build-$suite" > "$work/build-$suite.log" 2>&1 ||
    { cat "$work/build-$suite.log"; echo "FAIL: example $suite does not build"; return 1; }
}
# Side by side: each is a configure and one source, a core's work at most.
paths= pids=()
for suite in pingpong fanin stream rma collective overlap stencil; do
  build_example "$suite" &
  pids+=($!)
  paths=${paths:+$paths:}$work/build-$suite
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[ "$failed" = 0 ] || exit 1
export MPIARENA_PLUGIN_PATH=$paths
"$runner" --list > "$work/list.txt"
methods=ex_sendrecv_pingpong,ex_issend_fanin,ex_issend_bw,rput_lock,rput_flush_bw,ex_allreduce_chunks,ex_ineighbor,ex_sendrecv_stencil
for m in ${methods//,/ }; do
  grep -q "^$m " "$work/list.txt" || { echo "FAIL: --list lacks $m"; exit 1; }
done
for np in 2 3; do
  python3 "$here/launcher.py" "$mpiexec" "$launcher" "$np" "$runner" --methods "$methods" \
    --sizes 1KiB,64KiB --min-time 0.001 --repetitions 3 \
    --set ex_allreduce_chunks.chunks=1,4 -o "$work/r$np.json" -q
  "$runner" validate "$work/r$np.json"
  python3 - "$work/r$np.json" "$np" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
recs = doc["records"]
bad = [(r["method"], r["verification"]["status"]) for r in recs
       if r["verification"]["status"] != "passed"]
assert not bad, f"not verified: {bad}"
names = {r["method"] for r in recs}
for m in ("ex_sendrecv_pingpong", "ex_issend_fanin", "ex_issend_bw", "rput_lock",
          "rput_flush_bw", "ex_ineighbor", "ex_sendrecv_stencil"):
    assert m in names, f"{m}: no record ({sorted(names)}; skipped: {doc['skipped']})"
chunks = sorted(r["options"]["chunks"] for r in recs if r["method"] == "ex_allreduce_chunks")
assert chunks == ["1", "1", "4", "4"], f"option chunks: {chunks}"
rates = [m for r in recs if r["method"] == "ex_sendrecv_pingpong" for m in r.get("metrics", [])]
assert rates and all(m["name"] == "msg_rate" and m["value"] > 0 for m in rates), rates
rows = {r["params"]["op"] for r in recs if r["method"].startswith("rput_")}
assert rows == {"rput"}, rows
print(f"examples at {sys.argv[2]} ranks: {len(recs)} verified records")
PY
done
# Every source docs/writing-a-plugin.md names is installed under
# share/mpiarena/sources (issue 44: the guide pointed to files an installed
# SDK did not have), and the ping-pong it shows whole is the plugin's text.
python3 - "$here/../../docs/writing-a-plugin.md" "$work/install/share/mpiarena/sources" \
  "$here/../../plugins/pingpong/mpi_bytes/mpi_bytes.cpp" <<'PY'
import os, re, sys
guide, sources, mpi_bytes = sys.argv[1:4]
text = open(guide).read()
named = sorted(p for p in set(re.findall(r"`((?:plugins|tests/plugins)/[A-Za-z0-9_./-]+)`", text))
               if "..." not in p)
assert named, "the guide names no source"
missing = [p for p in named if not os.path.exists(os.path.join(sources, p.rstrip("/")))]
assert not missing, f"named by the guide, not installed: {missing}"
shown = text.split("`plugins/pingpong/mpi_bytes/` whole", 1)[1].split("```cpp\n", 1)[1]
shown = shown.split("```", 1)[0]
code = open(mpi_bytes).read()
code = code[code.index("#include"):]
assert shown == code, "the guide's mpi_bytes differs from plugins/pingpong/mpi_bytes"
print(f"the guide's {len(named)} sources installed; its ping-pong is the plugin's text")
PY
# The guides are installed (share/doc/mpiarena), and what cites them names
# them there: the installed runner's --help and compare's summary, and the
# installed plugin.hpp; every link between the guides resolves installed.
"$runner" --help > "$work/help.txt"
"$runner" compare "$work/r2.json" "$work/r2.json" > "$work/compare.txt" || true
python3 - "$work/install" "$here/../../docs" "$work/help.txt" "$work/compare.txt" <<'PY'
import os, re, sys
prefix, source, help_file, compare_file = sys.argv[1:5]
docs = os.path.realpath(os.path.join(prefix, "share", "doc", "mpiarena"))
assert os.path.isfile(os.path.join(docs, "writing-a-plugin.md")), f"no guides in {docs}"
def cited(path, least):
    text = open(path).read()
    left = re.findall(r"(?<![\w./-])docs/\S*", text)
    assert not left, f"{path} still cites {left}"
    found = re.findall(r"(/[^\s()\"',;]+\.md)", text)
    assert len(found) >= least, f"{path} cites {found}"
    for f in found:
        assert os.path.realpath(f).startswith(docs + "/"), f"{path}: {f} not under {docs}"
        assert os.path.isfile(f), f"{path} cites {f}, not installed"
    return found
shown = cited(help_file, 4)
assert any(f.endswith("/ci.md") for f in shown) and any(f.endswith("/tuning.md") for f in shown)
assert any(f.endswith("/results/gate.md") for f in cited(compare_file, 1))
header = open(os.path.join(prefix, "include", "mpiarena", "plugin.hpp")).read()
assert "<prefix>/share/doc/mpiarena/" in header, "plugin.hpp does not say where the guides are"
names = set(re.findall(r"\(([a-z-]+\.md)[,;)]", header))
assert "writing-a-plugin.md" in names, names
missing = [n for n in names if not os.path.isfile(os.path.join(docs, n))]
assert not missing, f"plugin.hpp cites {missing}, not installed"
# Every link from a guide to a file of docs/ resolves in the installed copy.
broken, guides = [], 0
for root, _, files in os.walk(source):
    for name in files:
        if not name.endswith(".md"):
            continue
        guides += 1
        rel = os.path.relpath(os.path.join(root, name), source)
        assert os.path.isfile(os.path.join(docs, rel)), f"{rel} not installed"
        for link in re.findall(r"\]\(([^)#\s]+)", open(os.path.join(root, name)).read()):
            target = os.path.normpath(os.path.join(os.path.dirname(rel), link))
            if re.match(r"^[a-z]+:", link) or target.startswith(".."):
                continue
            if os.path.isfile(os.path.join(source, target)) and \
               not os.path.isfile(os.path.join(docs, target)):
                broken.append(f"{rel} -> {link}")
assert not broken, f"links to files not installed: {broken}"
print(f"{guides} guides installed in {docs}; --help cites {len(shown)} of them there")
PY
