#!/bin/bash
# How these results were made (2026-11-25, Release build of f72689e, quiet machine,
# load 0.7-0.8): three runs, every backend in the same process, empty jobs and 1 us jobs
# on the six graphs of the granularity mode.
out=${1:-data/peers/2026-11-25-all}
for i in 1 2 3; do
  mkdir -p "$out/run$i"
  build/bin/stressrig --mode=granularity \
    --graphs=burst:1024,stationary:256,chains:1024,isolated:10000,chain:10000,grid:100x100 \
    --overhead --sizes=1us --reps=3 --backends=all --quiet --no-render \
    --out="$out/run$i" > "$out/run$i/console.txt" 2>&1
done
