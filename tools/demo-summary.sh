#!/usr/bin/env bash
# The one-screen summary `make demo` ends with, read from a run result's envelope
# (OUT/<run's folder>/NAME.json): the headline figures first (runtime against the plan, efficiency,
# lateness, jobs and hash check), then the machine, the exit status, and where to look
# next; the last line is the page, so that it is what a terminal shows.
#
#   tools/demo-summary.sh ENVELOPE.json EXIT_STATUS [BUILD_DIR]
#
# Reads the envelope with awk (one key per line, as the rig writes it): no jq, no python.
set -uo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 ENVELOPE.json EXIT_STATUS [BUILD_DIR]" >&2
  exit 2
fi
manifest=$1 status=$2 build=${3:-build}
out=$(dirname "$manifest")
name=$(basename "$manifest" .json)

# A scalar of a top-level section of the envelope ("" when absent); strings unquoted.
value() {
  awk -v section="\"$1\": {" -v key="\"$2\": " '
    index($0, "  " section) == 1 { inside = 1; next }
    inside && /^  [}]/ { exit }
    inside && index($0, "    " key) == 1 {
      v = substr($0, length("    " key) + 1); sub(/,$/, "", v); gsub(/^"|"$/, "", v); print v; exit
    }' "$manifest" 2>/dev/null
}
# A top-level scalar (verdict, exit_status).
top() {
  awk -v key="\"$1\": " 'index($0, "  " key) == 1 {
      v = substr($0, length("  " key) + 1); sub(/,$/, "", v); gsub(/^"|"$/, "", v); print v; exit
    }' "$manifest" 2>/dev/null
}
missing() { [ -z "$1" ] || [ "$1" = null ]; }
# Milliseconds with three significant digits, e.g. "59.3 ms", "0.412 ms".
ms() { if missing "$1"; then echo "n/a"; else awk -v v="$1" 'BEGIN { printf (v >= 100 ? "%.0f ms" : v >= 10 ? "%.1f ms" : v >= 1 ? "%.2f ms" : "%.3f ms"), v }'; fi; }
# Microseconds as µs below a millisecond, as ms above.
us() {
  if missing "$1"; then echo "n/a"
  elif awk -v v="$1" 'BEGIN { exit !(v >= 1000) }'; then ms "$(awk -v v="$1" 'BEGIN { print v / 1000 }')"
  else awk -v v="$1" 'BEGIN { printf "%.0f µs", v }'; fi
}
load() { if missing "$1"; then echo "n/a"; else printf '%.2f' "$1"; fi; }

echo
if [ ! -f "$manifest" ]; then
  echo "Demo summary: no result was written (see the messages above); exit $status"
  exit 0
fi

workers=$(value result workers) reps_run=$(value result reps_run) reps_ok=$(value result reps_complete)
cores=$(value environment cores)
window=$(value configuration life_window_us)
echo "Demo summary: $(value result pattern) graph of $(value result nodes) jobs on $workers workers" \
     "($cores cores here), $reps_run rep$( [ "$reps_run" = 1 ] || echo s)$(awk -v w="$window" 'BEGIN { if (w == "0" || w == "0.0") print ", no deadlines" }')"

runtime=$(value result runtime_ms)
if ! missing "$runtime"; then
  if [ "$reps_ok" = 1 ]; then
    spread="the one complete rep of $reps_run"
  else
    spread="mean of $reps_ok complete reps ($(ms "$(value result runtime_min_ms)") .. $(ms "$(value result runtime_max_ms)"))"
  fi
  echo "  runtime     $(ms "$runtime")  $spread, planned $(ms "$(value result expected_ms)")"
  echo "  efficiency  $(printf '%.2f' "$(value result efficiency)")     lower bound $(ms "$(value result lower_bound_ms)") / runtime (1 = no time lost)"
else
  echo "  runtime     n/a      no rep completed every job: $(value result jobs_expired) expired, $(value result jobs_cancelled) cancelled"
fi
p99=$(value result lateness_p99_us)
if missing "$p99"; then tail_name=max tail=$(value result lateness_max_us); else tail_name=p99 tail=$p99; fi
echo "  lateness    p50 $(us "$(value result lateness_p50_us)"), $tail_name $(us "$tail")  (start after the planned start)"
echo "  jobs        $(value result jobs_completed) of $(value result jobs_posted) completed," \
     "$(value result jobs_expired) expired, hash check $(value result hash_check)"

start=$(load "$(value environment load_average_start)")
end=$(load "$(value environment load_average_end)")
if [ "$(value environment busy)" = "true" ]; then
  echo "  machine     busy: load average $start at the start, $end at the end on $cores cores;"
  echo "              the figures include competition for the CPU (an idle machine shows the scheduler alone)"
else
  echo "  machine     idle enough: load average $start at the start, $end at the end on $cores cores"
fi
case "$status" in
  0) echo "  exit 0      the measurement was made" ;;
  1) echo "  exit 1      a correctness failure of the scheduler (see FAILED above)" ;;
  2) echo "  exit 2      bad input to the rig" ;;
  3) echo "  exit 3      the result files could not be written" ;;
  130|143) echo "  exit $status    interrupted; the result is partial" ;;
  *) echo "  exit $status    the rig ended abnormally" ;;
esac
echo "Next:"
if [ -f "$out/$name.png" ]; then
  echo "  pictures    $out/$name.png (a lane per worker, a bar per job), $out/$name.svg (the graph)"
else
  echo "  pictures    not rendered: install gnuplot and Graphviz, then: make report OUT=$out"
fi
echo "  data        $out/$name.csv, $name-reps.csv; $name.json lists every file"
echo "  more        $build/bin/stressrig --help (modes); make demo DEMO_ARGS='--workers=8 --life-window=30ms' (8 workers, deadlines)"
# The list of runs in OUT, when the result is in a run's folder there; last the run's
# page, so that it is what a terminal shows.
if [ -f "$out/../index.html" ] && [ -L "$out/../latest" ]; then
  echo "  all runs    $(cd "$out/.." && pwd)/index.html (every run in it, newest first)"
fi
if [ -f "$out/index.html" ]; then
  echo "  page        $(cd "$out" && pwd)/index.html"
fi
