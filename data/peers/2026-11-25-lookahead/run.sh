#!/bin/bash
# How these results were made (the script of data/peers/2026-11-25-steer):
# three interleaved pairs of granularity runs, pullsched with --placement=spread (the
# default) and --placement=pinned, oneTBB in the same process each time.
out=${1:-data/peers/2026-11-25-lookahead}
for i in 1 2 3; do
  for p in spread pinned; do
    uptime > "$out/metg-$p-$i.txt"
    build/bin/stressrig --mode=granularity --backends=pullsched,tbb --placement=$p \
      --max-size=64us --out="$out/metg-$p-$i" --quiet --no-render >> "$out/metg-$p-$i.txt" 2>&1
    uptime > "$out/eff-$p-$i.txt"
    build/bin/stressrig --mode=granularity --backends=pullsched,tbb --placement=$p --overhead \
      --sizes=1us,10us,100us --out="$out/eff-$p-$i" --quiet --no-render >> "$out/eff-$p-$i.txt" 2>&1
  done
done
