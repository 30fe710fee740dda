#!/usr/bin/env bash
# `make demo`: a run that gives a first-time user figures on any machine, then a
# one-screen summary that leads with them (tools/demo-summary.sh).
#
#   tools/demo.sh BUILD_DIR OUT [RIG OPTIONS...]
#
# The defaults: the burst graph on as many workers as the machine has cores (more would
# only queue behind each other), 5 reps, and no deadlines (--life-window=0s). Without
# deadlines every job runs however busy the machine is, so every rep yields a runtime,
# an efficiency and a hash check, and the lateness says how far the schedule slipped;
# with them a busy machine expires jobs and the runtime is n/a. An option given after
# OUT replaces its default (e.g. --workers=8 --life-window=30ms, the rig's own defaults
# for the window).
#
# Exit status: the rig's. 0 means the measurement was made; deadline misses and lateness
# on a busy machine are results, not failures. Non-zero only for a correctness failure
# of the scheduler (1), bad input (2), unwritable results (3) or an interruption (130/143).
set -uo pipefail
build=${1:-build}; out=${2:-out}
shift $(($# < 2 ? $# : 2))
rig="$build/bin/stressrig"
if [ ! -x "$rig" ]; then
  echo "demo: $rig was not built" >&2
  exit 1
fi

cores=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
args=("$@")
# A default, unless the caller gave that option (the rig refuses an option given twice).
for default in --pattern=burst "--workers=$cores" --reps=5 --life-window=0s; do
  given=0
  for a in "$@"; do
    case "$a" in "${default%%=*}" | "${default%%=*}="*) given=1 ;; esac
  done
  [ "$given" -eq 1 ] || args+=("$default")
done

echo "demo: $rig ${args[*]} --out=$out"
before=$(readlink "$out/latest" 2>/dev/null)
status=0
"$rig" "${args[@]}" --out="$out" || status=$?

# The envelope this run wrote: in the run's folder, the one OUT/latest names once the run
# has moved it there (not a trace JSON).
manifest="$out/none.json"
folder=$(readlink "$out/latest" 2>/dev/null)
if [ -n "$folder" ] && [ "$folder" != "$before" ]; then
  for f in "$out/$folder"/*.json; do
    if grep -q '^  "exit_status": ' "$f"; then
      manifest=$f
      break
    fi
  done
fi
bash "$(dirname "$0")/demo-summary.sh" "$manifest" "$status" "$build"
exit "$status"
