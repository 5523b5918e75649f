#!/usr/bin/env bash
# The file commands read gzip-compressed result files (.json.gz) as they read
# the .json inside: validate, report (every format), compare (two files, a
# runner ab pair of directories holding .json.gz), trend and tune print the
# same for the compressed copy as for the plain file; a truncated or corrupt
# .gz and trailing junk exit 2 with a message naming the file.
# Arguments: mpiarena-files, the fixture, a work dir.
set -euo pipefail
tool=$1 fixture=$2 work=$3
rm -rf "$work" && mkdir -p "$work/base" "$work/new"
cp "$fixture" "$work/a.json"
gzip -9nc "$fixture" > "$work/a.json.gz"
gzip -9nc "$fixture" > "$work/gzip-data-plain-name.json"
# The fixture with one point twice as slow, compressed.
python3 - "$fixture" "$work/slow.json.gz" <<'PY'
import gzip, json, sys
doc = json.load(open(sys.argv[1]))
r = doc["records"][0]
r["samples_s"]["max"] = [2 * s for s in r["samples_s"]["max"]]
for k in ("median", "min", "mean", "max", "p50", "p95", "p99"):
    if k in r["time_s"]:
        r["time_s"][k] *= 2
with gzip.open(sys.argv[2], "wt") as f:
    json.dump(doc, f, indent=1)
PY
gzip -dc "$work/slow.json.gz" > "$work/slow.json"

# Runs `tool ARGS` and checks its exit code; its output in $work/out, $work/err.
run() {
  local want=$1; shift
  set +e
  "$tool" "$@" > "$work/out" 2> "$work/err"; local got=$?
  set -e
  [ "$got" = "$want" ] || { cat "$work/err"; echo "FAIL: mpiarena-files $* exited $got, not $want"; exit 1; }
}
# Runs the command with @ the plain file, then the compressed one: the same
# exit code and the same output and messages (the file names aside).
same() {
  local want=$1 plain=$2 packed=$3; shift 3
  run "$want" "${@//@/$plain}"; cat "$work/out" "$work/err" | sed "s#$plain#F#g" > "$work/plain.out"
  run "$want" "${@//@/$packed}"; cat "$work/out" "$work/err" | sed "s#$packed#F#g" > "$work/packed.out"
  cmp -s "$work/plain.out" "$work/packed.out" ||
    { diff "$work/plain.out" "$work/packed.out" | head; echo "FAIL: $* reads the .gz otherwise"; exit 1; }
  [ -s "$work/packed.out" ] || { echo "FAIL: $* printed nothing"; exit 1; }
}

same 0 "$work/a.json" "$work/a.json.gz" validate @
grep -q 'valid (60 records' "$work/out" || { echo "FAIL: validate of a .json.gz"; exit 1; }
run 0 validate "$work/gzip-data-plain-name.json"  # gzip found by its bytes
for f in table summary markdown json csv gbench html; do
  same 0 "$work/a.json" "$work/a.json.gz" report @ --format "$f"
done
run 0 compare "$work/a.json.gz" "$work/a.json"
grep -q '^result: 0 regressed, 0 improved, 60 unchanged' "$work/out" ||
  { cat "$work/out"; echo "FAIL: compare of a .json.gz with its .json"; exit 1; }
run 1 compare "$work/a.json.gz" "$work/slow.json.gz"
grep -q '^result: 1 regressed, 0 improved, 59 unchanged' "$work/out" ||
  { cat "$work/out"; echo "FAIL: compare of two .json.gz"; exit 1; }
same 0 "$work/a.json" "$work/a.json.gz" trend @ "$work/slow.json"
same 2 "$work/a.json" "$work/a.json.gz" tune @

# Two directories of launches: *.json.gz are launches as *.json are.
for i in 1 2 3; do
  gzip -9nc "$fixture" | python3 -c "
import gzip, json, sys
doc = json.loads(gzip.decompress(sys.stdin.buffer.read()))
doc['context']['end_time'] += '$i'  # another launch: other content
sys.stdout.buffer.write(gzip.compress(json.dumps(doc).encode(), mtime=0))" > "$work/base/l$i.json.gz"
  gzip -dc "$work/base/l$i.json.gz" > "$work/new/l$i.json"
done
run 0 compare "$work/base" "$work/new"
grep -q 'result: 0 regressed' "$work/out" ||
  { cat "$work/out" "$work/err"; echo "FAIL: compare of a directory of .json.gz"; exit 1; }
grep -q 'needs at least 2' "$work/err" && { echo "FAIL: the .json.gz launches were not found"; exit 1; }

# Bad gzip data: exit 2, the file named, what is wrong said.
head -c 300 "$work/a.json.gz" > "$work/cut.json.gz"
python3 -c "
import sys; d = bytearray(open(sys.argv[1], 'rb').read()); d[200] ^= 0xff
open(sys.argv[2], 'wb').write(d)" "$work/a.json.gz" "$work/bad.json.gz"
{ cat "$work/a.json.gz"; echo junk; } > "$work/junk.json.gz"
for c in "cut:truncated gzip data" "bad:corrupt gzip data" "junk:5 byte(s) after the end of the gzip data"; do
  name=${c%%:*} why=${c#*:}
  for cmd in validate report; do
    run 2 "$cmd" "$work/$name.json.gz"
    grep -q "mpiarena-files: error: cannot read '$work/$name.json.gz': $why" "$work/err" ||
      { cat "$work/err"; echo "FAIL: $cmd of $name.json.gz: no message naming the file and '$why'"; exit 1; }
  done
  run 2 compare "$work/a.json" "$work/$name.json.gz"
  grep -q "$name.json.gz" "$work/err" || { cat "$work/err"; echo "FAIL: compare names $name.json.gz"; exit 1; }
done
echo "mpiarena-files: validate, report, compare, trend and tune read .json.gz as .json; bad gzip data exits 2 naming the file"
