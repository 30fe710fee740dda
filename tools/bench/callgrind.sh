#!/usr/bin/env bash
# Instructions per job of pullsched's dispatch benchmarks, independent of the machine's
# load: each BM_Sched_{Exec,Post,Batch}_<graph> runs under callgrind with a fixed iteration
# count (about 40 000 jobs each, PULLSCHED_BENCH_ITERATIONS), and the inclusive counts go
# to OUTDIR/<label>-<variant>-<graph>.inc. Summarise with callgrind_summary.py.
#
#   tools/bench/callgrind.sh OUTDIR before=/tmp/sb-before after=build/bin/scheduler_bench
#   tools/bench/callgrind_summary.py OUTDIR before after
#
# Build with -g (CMAKE_CXX_FLAGS=-g) for per-line annotation (callgrind_annotate --auto=yes).
set -euo pipefail
out=$1
shift
mkdir -p "$out"
graphs=${GRAPHS:-"Chain10k:3 Grid100x100:3 Isolated10k:3 Fan1000:39 Burst1024:39 Burst64:624"}
for nb in "$@"; do
  label=${nb%%=*} bin=${nb#*=}
  for v in ${VARIANTS:-Exec Post Batch}; do
    for gi in $graphs; do
      g=${gi%%:*} it=${gi##*:}
      f=$out/$label-$v-$g
      PULLSCHED_BENCH_ITERATIONS=$it valgrind --tool=callgrind --callgrind-out-file="$f.cg" \
        "$bin" --benchmark_filter="^BM_Sched_${v}_${g}/" >"$f.txt" 2>"$f.err"
      callgrind_annotate --threshold=100 --inclusive=yes "$f.cg" >"$f.inc" 2>/dev/null
      echo "$label $v $g: $(grep -o 'iterations:[0-9]*' "$f.txt" | head -1)"
    done
  done
done
