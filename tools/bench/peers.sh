#!/usr/bin/env bash
# The "Compared with" table: pullsched beside oneTBB, OpenMP, Boost.Asio and a plain pool on
# the same graphs, job bodies and worker count, measured in one go on this machine.
#
#   tools/bench/peers.sh [OUT]          (make peers; OUT defaults to out/peers)
#   PEERS_QUICK=1 tools/bench/peers.sh  (small graphs, one rep: checks the pipeline only)
#
# Four rig runs, every run of every backend verified (graph hash and exactly-once counts; the
# recursion's result):
#   1. granularity --overhead --sizes=1us,10us,100us   dispatch overhead (empty jobs;
#                                                       pullsched's prebuilt graph behind
#                                                       its timed gate and as one submitted
#                                                       batch) and efficiency at 1 / 10 /
#                                                       100 µs
#   2. granularity (√2 sweep)                           METG(50 %) per graph
#   3. param-range, isolated jobs at 200 µs and 2 ms    mean concurrency of a load peak
#   4. spawn, fibonacci and skynet on 1 and 2 workers  work that jobs create
#   5. spawn, loop and loop1us shapes on 2 workers     a parallel loop (run_loops below)
# then tools/bench/peers_table.py writes OUT/compared-with.md (machine and load average
# included) and prints it. Exit 2 on bad arguments, non-zero if a rig run failed.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-out/peers}"
rig="${STRESSRIG:-$root/build/bin/stressrig}"
if [ $# -gt 1 ]; then
  echo "usage: tools/bench/peers.sh [OUT]" >&2
  exit 2
fi
if [ ! -x "$rig" ]; then
  echo "peers: $rig not built (make build)" >&2
  exit 2
fi
mkdir -p "$out"

# TestChainLoad presets, hand-made shapes and Task Bench's patterns (docs/granularity.md)
graphs="burst:1024,stationary:256,chains:1024,isolated:10000,chain:10000,grid:100x100"
graphs+=",stencil_1d:8x100,fft:8x64,tree:8x10,nearest:8x100"
reps=3
points=10
to=100
shapes="fib:20,fib:25,skynet:5,skynet:6"
spawn_reps=5
if [ "${PEERS_QUICK:-0}" != 0 ]; then
  graphs="burst:64,chain:200,grid:10x10,stencil_1d:4x8"
  reps=1
  points=3
  to=12
  shapes="fib:15,skynet:3"
  spawn_reps=1
fi

# Each run's text report goes to OUT/NAME.txt, its results to a run's folder in OUT/NAME
# (OUT/NAME/latest); its verdict line is echoed.
run() {
  local name="$1"
  shift
  echo "peers: $name: stressrig $* --backends=all" >&2
  "$rig" "$@" --backends=all --quiet --out="$out/$name" >"$out/$name.txt"
  grep -m1 '^Verdict' "$out/$name.txt" >&2 || true
}

run efficiency --mode=granularity --graphs="$graphs" --overhead --sizes=1us,10us,100us \
  --reps="$reps"
# Sweeps end at 64 µs or when a size's run exceeds 250 ms: on a loaded machine the
# efficiency may never saturate, and the largest graphs would run for many minutes.
run metg --mode=granularity --graphs="$graphs" --reps="$reps" --max-size=64us \
  --max-run-time=250ms
run concurrency-200us --mode=param-range --pattern=isolated --load=200us --from=10 \
  --to="$to" --points="$points"
run concurrency-2ms --mode=param-range --pattern=isolated --load=2ms --from=10 \
  --to="$to" --points="$points"

run spawn --mode=spawn --shapes="$shapes" --workers=1,2 --reps="$spawn_reps"

# ---- Parallel loop (issue 49): each backend's parallel loop on empty and 1 µs iterations,
# every index checked; OUT/loop.txt and OUT/loop, the table's "Parallel loop" section.
run_loops() {
  local loop_shapes="loop:64,loop:4096,loop:262144,loop:1048576,loop1us:64,loop1us:4096"
  loop_shapes+=",loop1us:65536"
  local loop_reps=15  # a run of loop:64 is microseconds: more runs for its median
  if [ "${PEERS_QUICK:-0}" != 0 ]; then
    loop_shapes="loop:64,loop:4096,loop1us:64"
    loop_reps=1
  fi
  run loop --mode=spawn --shapes="$loop_shapes" --workers=2 --reps="$loop_reps"
}
run_loops
# ---- end of the parallel loop's block

python3 "$here/peers_table.py" "$out" | tee "$out/compared-with.md"
