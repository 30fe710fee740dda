#!/usr/bin/env bash
# `make demo`'s run and summary (tools/demo.sh, tools/demo-summary.sh): the summary
# leads with a runtime that is a number whatever the load (the demo runs without
# deadlines), uses the machine's cores by default, lets an option replace a default,
# names the run's folder and keeps an earlier run's, and, for a result in which no rep
# completed, still leads with the lateness.
set -u
src=${1:?usage: demo.sh SOURCE_DIR BUILD_DIR}
build=${2:?usage: demo.sh SOURCE_DIR BUILD_DIR}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
has() { printf '%s\n' "$1" | grep -qE -- "$2" || fail "no line matching '$2' in:"$'\n'"$1"; }

# The demo itself, with the defaults: exit 0, a runtime in ms, as many workers as cores.
log=$(bash "$src/tools/demo.sh" "$build" "$dir/out" --no-render --quiet 2>&1)
status=$?
[ "$status" -eq 0 ] || fail "demo exited $status"
summary=$(printf '%s\n' "$log" | sed -n '/^Demo summary/,$p')
has "$summary" "^Demo summary: burst graph of 64 jobs on $(nproc) workers \\($(nproc) cores here\\), 5 reps, no deadlines$"
has "$summary" "^  runtime     [0-9.]+ ms  mean of 5 complete reps"
has "$summary" "^  efficiency  [0-9.]+ "
has "$summary" "^  jobs        320 of 320 completed, 0 expired, hash check ok$"
has "$summary" "^  exit 0 "
has "$summary" "^  all runs    .*/out/index.html \\(every run in it, newest first\\)$"
has "$summary" "^  page        .*/out/run-burst-64-[0-9]{8}T[0-9]{6}Z(-[0-9]+)?/index.html$"
[ "$(printf '%s\n' "$summary" | wc -l)" -le 20 ] || fail "the summary is longer than a screen: $summary"

# A second demo into the same OUT keeps the first run's folder; the summary reads the new one.
first=$(readlink "$dir/out/latest")
log=$(bash "$src/tools/demo.sh" "$build" "$dir/out" --reps=2 --no-render --quiet 2>&1)
status=$?
[ "$status" -eq 0 ] || fail "the second demo exited $status: $log"
second=$(readlink "$dir/out/latest")
[ -n "$first" ] && [ -f "$dir/out/$first/run-burst-64.json" ] || fail "the first run's result is gone"
[ -n "$second" ] && [ "$second" != "$first" ] || fail "latest does not name a new folder: $second"
has "$log" "^Demo summary: burst graph of 64 jobs on .*, 2 reps, no deadlines$"
has "$log" "^  page        .*/out/$second/index.html$"

# An option replaces its default instead of being refused as given twice.
log=$(bash "$src/tools/demo.sh" "$build" "$dir/one" --workers=1 --reps=2 --no-render --quiet 2>&1)
status=$?
[ "$status" -eq 0 ] || fail "demo --workers=1 exited $status: $log"
has "$log" "^Demo summary: burst graph of 64 jobs on 1 workers .* 2 reps, no deadlines$"

# A result in which no rep completed every job: no runtime, but the lateness and jobs.
cat >"$dir/missed.json" <<'JSON'
{
  "configuration": {
    "life_window_us": 30000.0,
    "workers": 8
  },
  "environment": {
    "busy": true,
    "cores": 2,
    "load_average_end": 2.5,
    "load_average_start": 2.25
  },
  "exit_status": 0,
  "result": {
    "efficiency": null,
    "hash_check": "not checked",
    "jobs_cancelled": 29,
    "jobs_completed": 33,
    "jobs_expired": 2,
    "jobs_posted": 64,
    "lateness_max_us": 26944.074,
    "lateness_p50_us": 931.3,
    "lateness_p99_us": null,
    "nodes": 64,
    "pattern": "burst",
    "reps_complete": 0,
    "reps_run": 1,
    "runtime_ms": null,
    "workers": 8
  },
  "verdict": "deadline misses in 1 of 1 reps"
}
JSON
summary=$(bash "$src/tools/demo-summary.sh" "$dir/missed.json" 0 2>&1)
has "$summary" "^Demo summary: burst graph of 64 jobs on 8 workers \\(2 cores here\\), 1 rep$"
has "$summary" "^  runtime     n/a      no rep completed every job: 2 expired, 29 cancelled$"
has "$summary" "^  lateness    p50 931 µs, max 26.9 ms "
has "$summary" "^  machine     busy: load average 2.25 at the start, 2.50 at the end on 2 cores;$"
has "$summary" "^  pictures    not rendered"

[ "$failures" -eq 0 ] && echo "demo: all checks passed"
[ "$failures" -eq 0 ]
