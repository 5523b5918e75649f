#!/usr/bin/env bash
# The file commands read gzip-compressed result files (.json.gz) as they read
# the .json inside: validate, report (every format), compare (two files, a
# runner ab pair of directories holding .json.gz), trend and tune print the
# same for the compressed copy as for the plain file; a truncated or corrupt
# .gz and trailing junk exit 2 with a message naming the file. A text past
# the bound (MPIARENA_MAX_FILE_MIB: a gzip bomb, a plain file too long)
# and a file compressed twice exit 2 saying so, quickly and in little
# memory. report and trend -o NAME.gz write gzip data; tune refuses it.
# Arguments: mpiarena-files, the fixture, a work dir; with a fourth, `bomb`:
# only a real bomb (2 GiB of zeros) against the default bound of 1 GiB.
set -euo pipefail
tool=$1 fixture=$2 work=$3 mode=${4:-}
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

# Writes gzip data of $2 MiB of zeros to $1, streamed (never all in memory).
make_bomb() {
  python3 - "$1" "$2" <<'PY'
import sys, zlib
c = zlib.compressobj(9, zlib.DEFLATED, 16 + 15)
block = bytes(1 << 20)
with open(sys.argv[1], "wb") as f:
    for _ in range(int(sys.argv[2])):
        f.write(c.compress(block))
    f.write(c.flush())
PY
}
# Peak memory (KiB) and seconds of `tool ARGS`, exit code checked as run's.
measured() {
  local want=$1; shift
  set +e
  /usr/bin/time -f "%M %e" -o "$work/time" "$tool" "$@" > "$work/out" 2> "$work/err"
  local got=$?
  set -e
  [ "$got" = "$want" ] || { cat "$work/err"; echo "FAIL: mpiarena-files $* exited $got, not $want"; exit 1; }
  read -r peak_kib seconds < <(tail -n 1 "$work/time")
}

if [ "$mode" = bomb ]; then
  # The default bound (1 GiB) against 2 GiB of zeros: refused once 1 GiB is
  # inflated, in the memory of a small file (the text is measured before
  # it is kept). Made fast: one member of 16 MiB of zeros, 128 times (the
  # reader reads every member, as gzip -d does).
  make_bomb "$work/member.gz" 16
  for _ in $(seq 128); do cat "$work/member.gz"; done > "$work/bomb.json.gz"
  for cmd in validate "history add --db $work/h.sqlite"; do
    # shellcheck disable=SC2086
    measured 2 $cmd "$work/bomb.json.gz"
    grep -q "error: cannot read '$work/bomb.json.gz': its gzip data inflates to more than 1024 MiB" "$work/err" ||
      { cat "$work/err"; echo "FAIL: $cmd of a bomb: no message naming it and the bound"; exit 1; }
    [ "$peak_kib" -lt 200000 ] ||
      { echo "FAIL: $cmd of a bomb took $peak_kib KiB at its peak"; exit 1; }
    echo "$cmd of a 2 GiB bomb: refused in $seconds s, peak $peak_kib KiB"
  done
  exit 0
fi

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

# Past the bound (lowered to 4 MiB here): a bomb of 64 MiB of zeros and a
# plain file of 5 MiB exit 2 naming the file, the bound and the variable,
# for every command, without inflating the bomb whole into memory.
make_bomb "$work/bomb.json.gz" 64
python3 -c "open('$work/long.json', 'w').write(' ' * (5 << 20))"
export MPIARENA_MAX_FILE_MIB=4
for c in "bomb.json.gz:its gzip data inflates to more than 4 MiB" "long.json:it is longer than 4 MiB"; do
  name=${c%%:*} why=${c#*:}
  for cmd in validate report "history add --db $work/h.sqlite" "compare $work/a.json"; do
    # shellcheck disable=SC2086
    measured 2 $cmd "$work/$name"
    grep -q "error: cannot read '$work/$name': $why, the most a file command reads.*MPIARENA_MAX_FILE_MIB=MIB raises the bound" "$work/err" ||
      { cat "$work/err"; echo "FAIL: $cmd of $name: no message naming it, '$why' and the variable"; exit 1; }
    [ "$peak_kib" -lt 60000 ] || { echo "FAIL: $cmd of $name: peak $peak_kib KiB"; exit 1; }
  done
done
MPIARENA_MAX_FILE_MIB=65 run 0 validate "$work/a.json.gz"
MPIARENA_MAX_FILE_MIB=0 run 2 validate "$work/a.json.gz"
grep -q "MPIARENA_MAX_FILE_MIB='0': give .* whole number of MiB from 1 on" "$work/err" ||
  { cat "$work/err"; echo "FAIL: a bad MPIARENA_MAX_FILE_MIB is not refused"; exit 1; }
unset MPIARENA_MAX_FILE_MIB

# Compressed twice: said to be, exit 2.
gzip -9nc "$work/a.json.gz" > "$work/twice.json.gz"
for cmd in validate report "compare $work/a.json"; do
  # shellcheck disable=SC2086
  run 2 $cmd "$work/twice.json.gz"
  grep -q "error: cannot read '$work/twice.json.gz': it is gzip-compressed twice.*decompress it once" "$work/err" ||
    { cat "$work/err"; echo "FAIL: $cmd of a file compressed twice"; exit 1; }
done

# -o NAME.gz writes gzip data, the same text as -o NAME.
for f in html json markdown; do
  run 0 report "$work/a.json" --format "$f" -o "$work/page.$f"
  run 0 report "$work/a.json" --format "$f" -o "$work/page.$f.gz"
  gzip -t "$work/page.$f.gz" || { echo "FAIL: report -o page.$f.gz is not gzip data"; exit 1; }
  gzip -dc "$work/page.$f.gz" | cmp -s - "$work/page.$f" ||
    { echo "FAIL: report -o page.$f.gz holds another text"; exit 1; }
done
run 0 trend "$work/a.json" "$work/slow.json" --format html -o "$work/trend.html.gz"
gzip -t "$work/trend.html.gz" || { echo "FAIL: trend -o trend.html.gz is not gzip data"; exit 1; }
gzip -dc "$work/trend.html.gz" > "$work/trend.html"
grep -q '<html' "$work/trend.html" || { echo "FAIL: trend -o .gz: no page"; exit 1; }
# tune's file is read by the MPI library, which reads no gzip: refused.
run 2 tune "$work/a.json" -o "$work/tuning.conf.gz"
grep -q "cannot read gzip data; give a name that does not end in .gz" "$work/err" ||
  { cat "$work/err"; echo "FAIL: tune -o NAME.gz is not refused"; exit 1; }
[ ! -e "$work/tuning.conf.gz" ] || { echo "FAIL: tune wrote NAME.gz"; exit 1; }

echo "mpiarena-files: validate, report, compare, trend and tune read .json.gz as .json; bad gzip data exits 2 naming the file"
echo "past the bound and compressed twice: exit 2, said; -o NAME.gz writes gzip data"
