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
"$rig" --pattern=burst --workers=8 --out="$out"
echo
echo "Results are in $out/:"
ls -1 "$out"
