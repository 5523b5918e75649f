#!/usr/bin/env bash
# A nightly benchmark job (docs/ci.md, "Nightly results"): measure in
# several launches, gate across launches, keep the results, draw the trend.
#
#   docs/ci/nightly.sh STORE [RUNNER OPTIONS...]
#
# STORE is a directory kept from one night to the next (a CI cache, a
# mounted volume, a branch checked out there). Each night measures
# $LAUNCHES launches (default 3) of $RUNNER (default ./runner) and judges
# them with `runner compare BASE1 BASE2 BASE3 -- NEW1 NEW2 NEW3`: each
# launch's median is one observation, so a difference between two
# launches' machine states is not a regression (docs/ci.md, "Which
# procedure"). BASE is
#   - with $BASE_RUNNER (the runner of the last good build, e.g. main's):
#     $LAUNCHES launches of it tonight, alternating with NEW's (BASE NEW
#     BASE NEW ...: a drift of the machine during the job hits both);
#   - else the launches of the last good night, kept in STORE/baseline/.
# STORE/history.sqlite keeps every NEW launch as a run (runner history,
# docs/ci.md "History"): its change points over all the nights are
# reported in changes.md, and the trend page is drawn from it with them
# marked. STORE/runs/ holds one file per night (its first launch);
# STORE/launches/<night>/ every launch. Each night writes into the current
# directory, to publish: compare.md (the gate's report), changes.md (the
# change points, those at tonight's launches first) and trend.html.
# RUNNER OPTIONS say what to measure (default: bcast and raw at small and
# medium). The launcher is $MPIRUN (default: mpirun -np 2), compare's
# options $COMPARE_OPTIONS, for the gate and the trend alike.
#
# Exit: 0 nothing regressed (without $BASE_RUNNER this night becomes the
# baseline), 1 a point regressed (the baseline stays), 3 a run failed
# (nothing kept), 2 a usage error (no STORE, a STORE that is not a
# directory, an empty STORE/baseline/, a RUNNER that cannot run: nothing
# measured) or the comparison, the history or the trend could not be made.
# The change points do not decide the exit code (the gate does); to gate on
# them, run `runner history changes --db STORE/history.sqlite --since ...`.
set -uo pipefail
shopt -s nullglob
usage() {
  echo "nightly: $1; usage: docs/ci/nightly.sh STORE [RUNNER OPTIONS...] (docs/ci.md, \"Nightly results\")" >&2
  exit 2
}
[ $# -ge 1 ] && [ -n "$1" ] || usage "no STORE given (a directory kept from one night to the next)"
store=$1
shift
if [ -e "$store" ] && [ ! -d "$store" ]; then
  usage "STORE '$store' exists and is not a directory"
fi
[ $# -gt 0 ] || set -- --methods bcast,raw --sizes small,medium
runner=${RUNNER:-./runner}
launches=${LAUNCHES:-3}
read -r -a launch <<< "${MPIRUN:-mpirun -np 2}"
read -r -a options <<< "${COMPARE_OPTIONS:-}"
if ! [ "$launches" -ge 2 ] 2>/dev/null; then
  echo "nightly: LAUNCHES must be 2 or more (compare across launches), got '$launches'" >&2
  exit 2
fi
if [ ! -x "$runner" ] && ! command -v "$runner" >/dev/null 2>&1; then
  usage "RUNNER '$runner' is not a program this job can run (set RUNNER=path/to/runner)"
fi
# A baseline directory without a launch in it (emptied by hand, or a copy
# that failed) would fail every later night: say so before measuring.
if [ -z "${BASE_RUNNER:-}" ] && [ -d "$store/baseline" ]; then
  kept=("$store"/baseline/*.json)
  if [ ${#kept[@]} -lt 2 ]; then
    echo "nightly: $store/baseline/ holds ${#kept[@]} launch(es), the gate needs 2 or more; remove the directory to make the next good night the baseline" >&2
    exit 2
  fi
fi
now=$(date -u +%s)
night=$(date -u -d "@$now" +%Y%m%dT%H%M%SZ)
since=$(date -u -d "@$now" +%Y-%m-%dT%H:%M:%SZ)
work=$store/launches/$night.part
mkdir -p "$store/runs" "$work"

measure() {  # measure RUNNER FILE: one launch; a failure ends the night
  if ! "${launch[@]}" "$1" -q "${@:3}" -o "$2"; then
    echo "nightly: a launch of $1 failed; nothing kept" >&2
    rm -rf "$work"
    exit 3
  fi
}
for i in $(seq 1 "$launches"); do
  [ -n "${BASE_RUNNER:-}" ] && measure "$BASE_RUNNER" "$work/base_$i.json" "$@"
  measure "$runner" "$work/new_$i.json" "$@"
done
mv "$work" "$store/launches/$night"
work=$store/launches/$night
cp "$work/new_1.json" "$store/runs/$night.json"

if [ -n "${BASE_RUNNER:-}" ]; then
  base=("$work"/base_*.json)
elif [ -d "$store/baseline" ]; then
  base=("$store"/baseline/*.json)
else
  base=()
fi
if [ ${#base[@]} -gt 0 ]; then
  "$runner" compare "${base[@]}" -- "$work"/new_*.json "${options[@]}" \
    --format markdown > compare.md
  gate=$?
else
  echo "First night: $work is the baseline." > compare.md
  gate=0
fi
# The baseline moves only to a night that passed the gate: a night that
# regressed is not compared with itself tomorrow. (A drift smaller than
# the threshold per night passes; see docs/ci.md.)
if [ $gate -eq 0 ] && [ -z "${BASE_RUNNER:-}" ]; then
  rm -rf "$store/baseline.part"
  mkdir "$store/baseline.part"
  cp "$work"/new_*.json "$store/baseline.part/"
  rm -rf "$store/baseline"
  mv "$store/baseline.part" "$store/baseline"
fi
# The history: tonight's launches kept as runs, the change points of every
# series over all of them (tonight's first), the trend page with them marked.
history=$store/history.sqlite
history_options=()  # compare's --threshold and --alpha, which history takes
add_options=()      # and --allow-incomplete, which history add takes
for ((i = 0; i < ${#options[@]}; i++)); do
  case ${options[i]} in
    --allow-incomplete) add_options+=("${options[i]}") ;;
    --threshold | --alpha)
      history_options+=("${options[i]}" "${options[i + 1]:-}")
      i=$((i + 1))
      ;;
    --threshold=* | --alpha=*) history_options+=("${options[i]}") ;;
  esac
done
"$runner" history add "$work"/new_*.json --db "$history" \
  "${add_options[@]}" || exit 2
(
  echo "## Change points at tonight's launches"
  echo
  "$runner" history changes --db "$history" --since "$since" \
    "${history_options[@]}" --format markdown
  status=$?
  echo
  echo "## Every change point of the history"
  echo
  "$runner" history changes --db "$history" "${history_options[@]}" \
    --format markdown
  exit "$status"
) > changes.md
changed=$?
[ $changed -eq 2 ] && exit 2
"$runner" trend --db "$history" "${options[@]}" --format html -o trend.html ||
  exit 2
echo "nightly: gate exit $gate; change points at tonight's launches:" \
  "$([ $changed -eq 1 ] && echo yes || echo none) (changes.md);" \
  "$(ls "$store"/runs/*.json | wc -l) nights in trend.html"
exit $gate
