#!/usr/bin/env bash
# Interleaved A/B runs of the rig's granularity mode between builds or settings (one
# process per side and round, the side order alternating between rounds, `uptime` load
# averages around each), for measuring one change with every backend beside it.
# tools/bench/ab.sh does the same for scheduler_bench; this one for stressrig.
#
#   tools/bench/rig_ab.sh OUT ROUNDS NAME=COMMAND... [-- RIG_ARGS...]
#   tools/bench/rig_ab.sh out/ab 5 before=/tmp/stressrig.before after=build/bin/stressrig
#   tools/bench/rig_ab.sh out/ab 3 spread=build/bin/stressrig \
#       'pinned=build/bin/stressrig --placement=pinned' -- --mode=granularity --backends=pullsched,tbb
#   tools/bench/rig_ab_summary.py out/ab                  # medians (min-max) per side
#
# COMMAND is a binary with optional arguments of that side only. RIG_ARGS default to
# empty jobs and 1 µs jobs on the six graphs of `make peers`, every backend. Results in
# OUT/NAME/runN/ (the rig's run folder with its JSON and CSV, linked as latest; console.txt,
# load.txt). Exit 2 on bad arguments.
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,17p' "$0" >&2
  exit 2
fi
out=$1 rounds=$2
shift 2
sides=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do sides+=("$1"); shift; done
[ $# -gt 0 ] && shift
args=("$@")
if [ ${#args[@]} -eq 0 ]; then
  args=(--mode=granularity --graphs=burst:1024,stationary:256,chains:1024,isolated:10000,chain:10000,grid:100x100
        --overhead --sizes=1us --reps=3 --backends=all)
fi
for r in $(seq 1 "$rounds"); do
  order=("${sides[@]}")
  if [ $((r % 2)) -eq 0 ]; then  # reversed every other round: no side always runs first
    order=()
    for ((i = ${#sides[@]} - 1; i >= 0; i--)); do order+=("${sides[i]}"); done
  fi
  for side in "${order[@]}"; do
    name=${side%%=*}
    read -r -a cmd <<<"${side#*=}"
    dir="$out/$name/run$r"
    mkdir -p "$dir"
    uptime >"$dir/load.txt"
    rc=0
    "${cmd[@]}" "${args[@]}" --quiet --no-render --out="$dir" >"$dir/console.txt" 2>&1 || rc=$?
    uptime >>"$dir/load.txt"
    echo "round $r $name rc=$rc"
  done
done
