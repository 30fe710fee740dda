#!/usr/bin/env bash
# `make demo`: the default stress run, leaving its results in OUT.
set -euo pipefail
build=${1:-build}; out=${2:-out}
rig="$build/bin/stressrig"
if [ ! -x "$rig" ]; then
  echo "demo: $rig was not built" >&2
  exit 1
fi
mkdir -p "$out"
status=0
"$rig" --pattern=burst --workers=8 --out="$out" || status=$?
echo
echo "Results are in $out/:"
ls -1 "$out"
if [ "$status" -ne 0 ]; then
  echo "demo: stressrig exited with status $status (see the report above)" >&2
fi
exit "$status"
