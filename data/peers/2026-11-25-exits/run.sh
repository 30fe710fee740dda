#!/bin/bash
# How these results were made: five interleaved pairs of the same granularity run with
# every backend, once with the build before (BEFORE, default: a saved dbbe82c binary) and
# once with this build; empty jobs and 1 us jobs on the six graphs of the granularity mode.
# Usage: run.sh [OUTDIR] (BEFORE=path/to/old/stressrig)
out=${1:-data/peers/2026-11-25-exits}
before=${BEFORE:-/tmp/stressrig.before}
for i in 1 2 3 4 5; do
  for side in before after; do
    bin=build/bin/stressrig
    [ "$side" = before ] && bin=$before
    mkdir -p "$out/$side/run$i"
    uptime > "$out/$side/run$i/load.txt"
    "$bin" --mode=granularity \
      --graphs=burst:1024,stationary:256,chains:1024,isolated:10000,chain:10000,grid:100x100 \
      --overhead --sizes=1us --reps=3 --backends=all --quiet --no-render \
      --out="$out/$side/run$i" > "$out/$side/run$i/console.txt" 2>&1
    uptime >> "$out/$side/run$i/load.txt"
  done
done
