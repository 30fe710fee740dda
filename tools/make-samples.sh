#!/usr/bin/env bash
# Regenerates data/samples/: one folder per mode, each with the result set of one run
# and output.txt (the command, the load average before it, then what it printed). Each
# run writes into a scratch --out; its run's folder (out/latest) is copied flat into
# data/samples/NAME, so the samples keep the rig's file names. Run it
# on a quiet machine: the samples are meant to show the figures of an undisturbed run.
# Usage: tools/make-samples.sh [build [NAME...]]  (NAMEs: only those samples, e.g. run sweep)
#   trace needs a -DPULLSCHED_TRACE=ON build in TRACE_BUILD (default build-trace, `make trace`);
#   page needs chromium (a screenshot of the run's page, its folder's index.html).
# Only the pictures and pages that README.md or docs/ show are kept (data/ has a budget,
# tools/ci/check-data.sh); every other picture is one command away:
# tools/plot/render-all.sh data/samples/NAME renders its .gp and .dot files in place
# (the page sample shows what a result's HTML page looks like).
set -uo pipefail
build=${1:-build}
shift $(( $# > 0 ? 1 : 0 ))
only=" $* "
rig="$PWD/$build/bin/stressrig"
trace_rig="$PWD/${TRACE_BUILD:-build-trace}/bin/stressrig"
root="$PWD/data/samples"
wanted() { [ "$only" = "  " ] || [[ "$only" == *" $1 "* ]]; }
# Removes the pictures and pages of data/samples/NAME that no document shows.
prune() {
  local f
  for f in "$root/$1"/*.png "$root/$1"/*.svg "$root/$1"/*.html; do
    [ -e "$f" ] || continue
    grep -rqF "samples/$1/$(basename "$f")" README.md docs || rm -f "$f"
  done
}
# Copies the files of the newest run in the --out folder $1 into data/samples/$2.
copy_run() {
  [ -d "$1/latest" ] && cp "$1/latest/"* "$root/$2/"
}
sample() {  # sample NAME ARGS...
  local name=$1 tmp; shift
  wanted "$name" || return 0
  rm -rf "$root/$name"; mkdir -p "$root/$name"
  tmp=$(mktemp -d)
  ( cd "$tmp" && {
      echo "\$ stressrig $* --out=out"; echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
      "$rig" "$@" --out=out --quiet 2>&1; echo "# exit status $?"; } > "$root/$name/output.txt" )
  copy_run "$tmp/out" "$name"
  rm -rf "$tmp"
  prune "$name"
  echo "sample $name: $(tail -1 "$root/$name/output.txt")"
}
sample run --pattern=burst --nodes=64 --workers=2 --load=500us --reps=10 --trace-json
sample topology --mode=topology --pattern=burst --nodes=64
sample breaking-point --mode=breaking-point --pattern=burst --nodes=64 --load=500us --workers=2
sample param-range-2ms --mode=param-range --pattern=isolated --from=10 --to=100 --points=20 --workers=2 --load=2ms
sample param-range-200us --mode=param-range --pattern=isolated --from=10 --to=100 --points=20 --workers=2 --load=200us
sample open-poisson --mode=open --rate=2k/s --arrival=poisson --duration=5s --workers=2 --load=500us
sample closed-vs-open --mode=closed --users=4 --workers=2 --load=500us --duration=5s
sample sweep --mode=sweep --workers=1,2 --load=200us --from=500/s --to=6.5k/s --step=1k/s --hold=1s
sample pipeclean --mode=pipeclean
sample headroom --mode=headroom --load=500us --hold=1s
sample spawn --mode=spawn --backends=all
sample soak --mode=soak --rate=2k/s --duration=2min --interval=10s --workers=2 --load=500us

run_ab=(--pattern=burst --nodes=64 --load=500us --reps=10 --life-window=0s --quiet)
# compare: two runs that differ in the worker count, and `stressrig compare` of the two.
if wanted compare; then
  tmp=$(mktemp -d)
  rm -rf "$root/compare"; mkdir -p "$root/compare"
  ( cd "$tmp" && {
      echo "\$ stressrig ${run_ab[*]} --workers=2 --out=A"
      echo "\$ stressrig ${run_ab[*]} --workers=1 --out=B"
      echo "\$ stressrig compare A B --out=cmp"
      echo "# load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
      "$rig" "${run_ab[@]}" --workers=2 --out=A >/dev/null 2>&1
      "$rig" "${run_ab[@]}" --workers=1 --out=B >/dev/null 2>&1
      "$rig" compare A B --out=cmp 2>&1; echo "# exit status $?"; } > "$root/compare/output.txt" )
  copy_run "$tmp/cmp" compare
  rm -rf "$tmp"
  prune compare
  echo "sample compare: $(tail -1 "$root/compare/output.txt")"
fi
# page: the top of a run's page (its folder's index.html) as headless Chromium renders it.
if wanted page && command -v chromium >/dev/null; then
  tmp=$(mktemp -d)
  rm -rf "$root/page"; mkdir -p "$root/page"
  shot=(chromium --headless --no-sandbox --disable-gpu --window-size=1280,1600)
  {
    echo "# data/samples/page/run-burst-64-page.png: the top of the run's page (headless Chromium screenshot)"
    echo "# load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "\$ stressrig ${run_ab[*]} --workers=2 --out=A"
    echo "\$ ${shot[*]} --screenshot=run-burst-64-page.png file://\$PWD/A/latest/index.html"
  } > "$root/page/output.txt"
  "$rig" "${run_ab[@]}" --workers=2 --out="$tmp/A" >/dev/null 2>&1
  ( cd "$root/page" && "${shot[@]}" --screenshot=run-burst-64-page.png "file://$tmp/A/latest/index.html" \
      >/dev/null 2>&1 )
  rm -rf "$tmp"
  echo "sample page: $(ls "$root/page")"
fi
# trace: the scheduler's trace dump of a run (docs/trace-dump.md); the run's own files are
# the run sample's, so only the dump, its picture and its Perfetto export are kept.
if wanted trace && [ -x "$trace_rig" ]; then
  rm -rf "$root/trace"; mkdir -p "$root/trace"
  tmp=$(mktemp -d)
  args=(--mode=run --pattern=burst --nodes=256 --workers=4 --load=50us --trace-dump --trace-json)
  ( cd "$tmp" && {
      echo "\$ stressrig ${args[*]} --out=out   (a -DPULLSCHED_TRACE=ON build: make trace)"
      echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
      "$trace_rig" "${args[@]}" --out=out --quiet 2>&1; echo "# exit status $?"; } > "$root/trace/output.txt"
    [ -d out/latest ] && cp out/latest/*-trace-dump.* "$root/trace/" )
  rm -rf "$tmp"
  prune trace
  echo "sample trace: $(tail -1 "$root/trace/output.txt")"
fi
