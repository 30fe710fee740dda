#!/usr/bin/env bash
# Interleaved A/B runs of pullsched's own benchmarks between builds of scheduler_bench
# (one process per build and round, `uptime` load averages around each), for measuring
# one change at a time. TBB is left out: compare.py runs it against one build.
#
#   tools/bench/ab.sh OUTDIR ROUNDS before=/tmp/sb-before after=build/bin/scheduler_bench
#   FILTER='^BM_Sched_Exec_' tools/bench/ab.sh ...        # a subset
#   tools/bench/ab_summary.py OUTDIR                       # medians (min-max) per build
set -euo pipefail
out=$1 rounds=$2
shift 2
filter=${FILTER:-'^BM_Sched_(Post|Batch|Exec)_|^BM_Sched_PendingLateness|^BM_Sched_IdleCpu'}
mkdir -p "$out"
load() { uptime | sed 's/.*load average: //'; }
for r in $(seq 1 "$rounds"); do
  for nb in "$@"; do
    name=${nb%%=*} bin=${nb#*=}
    before=$(load)
    rc=0
    "$bin" --benchmark_filter="$filter" --benchmark_out="$out/r$r-$name.json" \
      --benchmark_out_format=json >"$out/r$r-$name.txt" 2>&1 || rc=$?
    echo "round $r $name rc=$rc load before: $before after: $(load)" | tee -a "$out/loads.txt"
  done
done
