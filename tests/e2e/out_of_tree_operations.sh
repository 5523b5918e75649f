#!/usr/bin/env bash
# Methods an outside author declares as the same operation as the
# library's, built against an installed mpiarena (tests/e2e/out_of_tree/
# operations: an allreduce of MPI_Reduce_scatter_block + MPI_Allgather with
# option op=sum|max, a bcast through MPI_Ibcast, a ring of MPI_Sendrecv in
# the stencil and exchange suites), run beside the built-in allreduce,
# allreduce_as_rsb_allgather, coll_bcast and opbench_mpi at 4 ranks. The
# report must rank the outside allreduce (op=sum) with the library's and
# the built-in mock-up, keep op=max apart, rank the outside bcast with
# coll_bcast, and give the ring tables of its own.
# Arguments: build dir, work dir, mpiexec, launcher (launcher.py).
set -euo pipefail
build=$1 work=$2 mpiexec=$3 launcher=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/install" > "$work/install.log"
cmake -S "$here/out_of_tree/operations" -B "$work/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/install" -DCMAKE_BUILD_TYPE=Release \
  > "$work/configure.log"
cmake --build "$work/build"
export MPIARENA_PLUGIN_PATH=$work/build
runner=$work/install/bin/mpiarena
methods=allreduce,allreduce_as_rsb_allgather,ext_allreduce_rsb,coll_bcast
methods=$methods,ext_bcast_ibcast,opbench_mpi,ext_ring_stencil
methods=$methods,ext_ring_exchange
python3 "$here/launcher.py" "$mpiexec" "$launcher" 4 "$runner" \
  --methods "$methods" --set ext_allreduce_rsb.op=sum,max --sizes 4KiB \
  --iterations 2 --repetitions 3 -o "$work/r.json" > "$work/run.txt"
"$runner" validate "$work/r.json"
"$runner" report "$work/r.json" > "$work/report.txt"
"$runner" report "$work/r.json" --format html -o "$work/report.html"
python3 - "$work" <<'PY'
import json, re, sys
work = sys.argv[1]
doc = json.load(open(work + "/r.json"))
recs = {r["method"] + "".join(f"[{k}={v}]" for k, v in
                              sorted(r.get("options", {}).items())): r
        for r in doc["records"]}
assert all(r["verification"]["status"] == "passed" for r in recs.values()), \
    [(m, r["verification"]) for m, r in recs.items()]
SUM = {"name": "allreduce", "semantics": {"datatype": "int", "op": "sum"}}
for m in ("allreduce", "allreduce_as_rsb_allgather",
          "ext_allreduce_rsb[op=sum]"):
    assert recs[m].get("operation") == SUM, (m, recs[m].get("operation"))
assert recs["ext_allreduce_rsb[op=max]"]["operation"]["semantics"]["op"] \
    == "max"
BCAST = {"name": "bcast", "semantics": {"datatype": "int", "root": "0"}}
for m in ("coll_bcast", "ext_bcast_ibcast"):
    assert recs[m].get("operation") == BCAST, (m, recs[m].get("operation"))
assert "operation" not in recs["opbench_mpi"]
assert recs["ext_ring_stencil"]["operation"]["name"] == "ring"

# The text report: one table per heading, up to the next heading.
text = open(work + "/report.txt").read()
tables = {}
for block in re.split(r"\n(?=\S)", text):
    head, _, body = block.partition("\n")
    tables[head] = body
def table(title_part):
    found = [(h, b) for h, b in tables.items() if title_part in h]
    assert len(found) == 1, (title_part, [h for h, _ in found], text)
    return found[0]
head, body = table("/ allreduce(datatype=int, op=sum)")
assert "not ranked" not in head and "x best" in body, (head, body)
for m in ("allreduce_as_rsb_allgather", "ext_allreduce_rsb[op=sum]"):
    assert m in body, (m, body)
assert re.search(r"^\s+\d\s+allreduce\s", body, re.M), body
assert "op=max" not in body, body
head, body = table("per rank / 4 ranks (different operations")
assert "ext_allreduce_rsb[op=max]" in body, body
assert "coll_bcast" not in body and "allreduce_as" not in body, body
head, body = table("/ bcast(datatype=int, root=0)")
assert "coll_bcast" in body and "ext_bcast_ibcast" in body, body
head, body = table("stencil / 1d / 4 KiB / 4 ranks / ring")
assert "ext_ring_stencil" in body and "opbench_mpi" not in body, body
stencil = [b for h, b in tables.items()
           if h.startswith("stencil / 1d / 4 KiB") and "ring" not in h]
assert len(stencil) == 1 and "opbench_mpi" in stencil[0], stencil
assert "ext_ring" not in stencil[0], stencil
head, body = table("exchange / bytes / 4 KiB / 4 ranks / ring")
assert "ext_ring_exchange" in body, body

# The summary: winners per operation, op=max and the ring apart.
best = doc["summary"]["best"]
ops = sorted((b["suite"], b.get("operation", "")) for b in best)
assert ("collective", "allreduce(datatype=int, op=sum)") in ops, ops
assert ("collective", "bcast(datatype=int, root=0)") in ops, ops
assert ("stencil", "ring") in ops and ("stencil", "") in ops, ops
assert not any("op=max" in o for _, o in ops), ops
html = open(work + "/report.html").read()
assert "Ranked apart by the operation they declare" in html
assert "allreduce(datatype=int, op=sum)" in html
print("out-of-tree operations: ranked with the library's, op=max and the "
      "ring apart")
PY
