#!/usr/bin/env bash
# Verifies that the scheduler's trace points are compiled out (or in) of a binary:
#   check-trace-symbols.sh BINARY absent|present
# The trace types (TraceBuffer, TraceRecord) exist only in -DPULLSCHED_TRACE=ON builds.
set -euo pipefail
bin=$1; expect=$2
count=$(nm -C "$bin" | grep -c -E 'pullsched::detail::Trace(Buffer|Record)|pullsched::detail::writeTraceDump\(' || true)
case "$expect" in
  absent)  [ "$count" -eq 0 ] || { echo "FAIL: $count trace symbols in $bin (expected none)"; exit 1; } ;;
  present) [ "$count" -gt 0 ] || { echo "FAIL: no trace symbols in $bin (expected some)"; exit 1; } ;;
  *) echo "usage: $0 BINARY absent|present" >&2; exit 2 ;;
esac
echo "ok: trace symbols $expect in $(basename "$bin") ($count found)"
