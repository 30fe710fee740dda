#!/usr/bin/env bash
# Regenerates data/samples/: one folder per mode, each with the result set of one run
# and output.txt (the command, then what it printed).
# Usage: tools/make-samples.sh [build [NAME...]]  (NAMEs: only those samples, e.g. run sweep)
set -uo pipefail
build=${1:-build}
shift $(( $# > 0 ? 1 : 0 ))
only=" $* "
rig="$PWD/$build/bin/stressrig"
root="$PWD/data/samples"
sample() {  # sample NAME ARGS...
  local name=$1; shift
  [ "$only" = "  " ] || [[ "$only" == *" $name "* ]] || return 0
  rm -rf "$root/$name"; mkdir -p "$root/$name"
  ( cd "$root/$name" && {
      echo "\$ stressrig $* --out=."; echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
      "$rig" "$@" --out=. --quiet 2>&1; echo "# exit status $?"; } > output.txt )
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
sample soak --mode=soak --rate=2k/s --duration=2min --interval=10s --workers=2 --load=500us
