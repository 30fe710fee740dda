#!/usr/bin/env bash
# Keeps the documents a newcomer reads to the sizes set for them (issue 46): README.md at
# most 350 lines (a user guide), docs/scheduler.md at most 500 (Marl-sized). Exit 0 within
# them, 1 otherwise (each on one line).
set -uo pipefail
cd "$(dirname "$0")/../.."
fail=0
check() {
  local file=$1 max=$2 lines
  lines=$(wc -l <"$file")
  if [ "$lines" -gt "$max" ]; then
    echo "check-doc-sizes: $file has $lines lines (at most $max)"
    fail=1
  fi
}
check README.md 350
check docs/scheduler.md 500
exit $fail
