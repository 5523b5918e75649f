# Sourced by the bench scripts that clear their output directory before a
# run. `bench_out DIR NAME` makes DIR the output directory of bench/NAME:
# a bench removes files only in a directory it owns, one that did not
# exist, was empty, or that it marked before (DIR/.bench holds
# "bench/NAME"). Any other DIR with files in it, or a DIR that is not a
# directory, is refused (exit 2) before anything runs, so that no file of
# the user's is ever removed (issue 44: bench/noise --out DIR deleted every
# *.json in DIR).
bench_out() {
  local dir=$1 name=bench/$2
  if [ -e "$dir" ] && [ ! -d "$dir" ]; then
    echo "$name: '$dir' is not a directory; give a new or an empty directory" >&2
    exit 2
  fi
  if [ -d "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ] &&
     [ "$(cat "$dir/.bench" 2>/dev/null)" != "$name" ]; then
    echo "$name: '$dir' holds files $name did not write (no $dir/.bench naming it); give a new or an empty directory: $name removes its earlier files there, never others" >&2
    exit 2
  fi
  mkdir -p "$dir" && echo "$name" > "$dir/.bench"
}

# `bench_gzip DIR`: the raw data in DIR (*.json, *.jsonl, *.txt, *.tsv,
# NetPIPE's *.np) compressed in place, as docs/results keeps it: gzip -9n
# (no name or time stored, so the same data gives the same bytes). The
# renderers (bench/bench_io.py) read FILE.gz where they name FILE, and the
# file commands (runner report, compare, ...) read FILE.json.gz directly.
# Run it when nothing writes to DIR any more (vmstat stopped).
bench_gzip() {
  find "$1" -type f \( -name '*.json' -o -name '*.jsonl' -o -name '*.txt' \
    -o -name '*.tsv' -o -name '*.np' \) -exec gzip -9nf {} +
}
