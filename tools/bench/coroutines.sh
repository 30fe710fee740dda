#!/usr/bin/env bash
# The recursions written with Tasks against their twins on two threads, interleaved: per
# round one process per variant and shape (the order rotating), each under
# `/usr/bin/time -f %M` for its peak RSS, with `uptime` load averages around it; then the
# medians (min-max) of ns per call and peak RSS, and the ratios of the medians.
#
#   tools/bench/coroutines.sh OUTDIR ROUNDS [BIN_DIR]     # BIN_DIR: default build/bin
#
# Variants: coro (BM_Coro_*, 1 worker + the helping caller), nocache (the same built with
# every frame from operator new: target scheduler_bench_nocache), cont (BM_Sched_*,
# continuation style, workers:1 with PULLSCHED_BENCH_HELP=1), tbb (BM_Tbb_*, workers:2:
# an arena of two, the caller one of them). Shapes: fib(30) and skynet depth 6.
set -euo pipefail
out=$1 rounds=$2 bin=${3:-build/bin}
mkdir -p "$out"
load() { uptime | sed 's/.*load average: //'; }
declare -A filter=(
  [coro-fib]='^BM_Coro_Fib/n:30/' [coro-skynet]='^BM_Coro_Skynet/depth:6/'
  [nocache-fib]='^BM_Coro_Fib/n:30/' [nocache-skynet]='^BM_Coro_Skynet/depth:6/'
  [cont-fib]='^BM_Sched_Fib/n:30/workers:1/' [cont-skynet]='^BM_Sched_Skynet/depth:6/workers:1/'
  [tbb-fib]='^BM_Tbb_Fib/n:30/workers:2/' [tbb-skynet]='^BM_Tbb_Skynet/depth:6/workers:2/')
runs=(coro-fib nocache-fib cont-fib tbb-fib coro-skynet nocache-skynet cont-skynet tbb-skynet)
for r in $(seq 1 "$rounds"); do
  shift_by=$(( (r - 1) % ${#runs[@]} ))
  order=("${runs[@]:shift_by}" "${runs[@]:0:shift_by}")
  for run in "${order[@]}"; do
    exe=$bin/scheduler_bench
    [[ $run == nocache-* ]] && exe=$bin/scheduler_bench_nocache
    before=$(load)
    PULLSCHED_BENCH_HELP=1 PULLSCHED_BENCH_LARGE=1 /usr/bin/time -f '%M' -o "$out/r$r-$run.rss" \
      "$exe" --benchmark_filter="${filter[$run]}" --benchmark_format=json \
      >"$out/r$r-$run.json" 2>/dev/null
    echo "round $r $run load before: $before after: $(load)" | tee -a "$out/loads.txt"
  done
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def med(run, key):
    vals = []
    for r in range(1, rounds + 1):
        if key == "rss":
            vals.append(int(open(f"{out}/r{r}-{run}.rss").read().split()[-1]) / 1024)
        else:
            vals.append(json.load(open(f"{out}/r{r}-{run}.json"))["benchmarks"][0][key])
    return statistics.median(vals), min(vals), max(vals)
print(f"{'shape':8} {'variant':8} {'ns/call':>22} {'peak RSS MiB':>22}")
for shape in ("fib", "skynet"):
    m = {}
    for v in ("coro", "nocache", "cont", "tbb"):
        t, r = med(f"{v}-{shape}", "ns_per_call"), med(f"{v}-{shape}", "rss")
        m[v] = (t[0], r[0])
        print(f"{shape:8} {v:8} {t[0]:8.1f} ({t[1]:.1f}-{t[2]:.1f}) {r[0]:10.1f} ({r[1]:.1f}-{r[2]:.1f})")
    print(f"{shape:8} coro/tbb time {m['coro'][0]/m['tbb'][0]:.2f} rss {m['coro'][1]/m['tbb'][1]:.2f}; "
          f"coro/cont time {m['coro'][0]/m['cont'][0]:.2f}; nocache/coro time {m['nocache'][0]/m['coro'][0]:.2f}")
PY
