#!/usr/bin/env bash
# A nightly benchmark job (docs/ci.md, "Nightly results"): measure, gate
# against the last good baseline, keep the result, draw the trend page.
#
#   docs/ci/nightly.sh STORE [RUNNER OPTIONS...]
#
# STORE is a directory kept from one night to the next (a CI cache, a
# mounted volume, a branch checked out there): STORE/runs/ holds every
# night's result file, STORE/baseline.json the last one that passed the
# gate. Each night writes into the current directory, to publish as
# artifacts: compare.md (the gate's report) and trend.html (the page of
# every night). RUNNER OPTIONS say what to measure (default: bcast and raw
# at small and medium). The launcher is $MPIRUN (default: mpirun -np 2),
# the runner $RUNNER (default: ./runner), compare's options
# $COMPARE_OPTIONS, for the gate and the trend alike (default: none, the
# 5% threshold).
#
# Exit: 0 nothing regressed (this night is the new baseline), 1 a point
# regressed (the baseline stays), 3 the run failed (nothing kept), 2 the
# comparison or the trend could not be made.
set -uo pipefail
store=${1:?usage: nightly.sh STORE [RUNNER OPTIONS...]}
shift
[ $# -gt 0 ] || set -- --methods bcast,raw --sizes small,medium
runner=${RUNNER:-./runner}
read -r -a launch <<< "${MPIRUN:-mpirun -np 2}"
mkdir -p "$store/runs"

new=$store/runs/$(date -u +%Y%m%dT%H%M%SZ).json
"${launch[@]}" "$runner" -q "$@" -o "$new.part"
status=$?
if [ $status -ne 0 ]; then
  # A failed verification (1) or a fault (3): no trend point, no baseline.
  echo "nightly: the run failed (exit $status); nothing kept" >&2
  rm -f "$new.part"
  exit 3
fi
mv "$new.part" "$new"

read -r -a options <<< "${COMPARE_OPTIONS:-}"
if [ -e "$store/baseline.json" ]; then
  "$runner" compare "$store/baseline.json" "$new" "${options[@]}" \
    --format markdown > compare.md
  gate=$?
else
  echo "First night: $new is the baseline." > compare.md
  gate=0
fi
# The baseline moves only to a night that passed the gate: a night that
# regressed is not compared with itself tomorrow, and until a good night
# comes every night is compared with the last good one. (A drift smaller
# than the threshold per night passes; see docs/ci.md.)
[ $gate -eq 0 ] && cp "$new" "$store/baseline.json"
"$runner" trend "$store"/runs/*.json "${options[@]}" --format html -o trend.html ||
  exit 2
echo "nightly: gate exit $gate; $(ls "$store"/runs/*.json | wc -l) nights in trend.html"
exit $gate
