#!/usr/bin/env bash
# `make reference`: regenerates the five published load-peak series (data/reference/
# load-peak-series.csv) with `stressrig --mode=param-range`, prints our regression and
# mean concurrency beside the published ones, and draws each series with both lines.
# Where the machine has fewer cores than a series' workers, it says so and adds the series
# at workers = cores (the published worker count is run as well: it oversubscribes).
#
#   tools/plot/reference-series.sh [--quick] [--only=Graph-10,Graph-15] [--build=DIR] [--out=DIR]
#                                  [--rig=PATH]   (default: DIR/bin/stressrig)
#
# --quick (or REFERENCE_QUICK=1): 8 points per series instead of the published 40.
# Results: OUT (default out/reference): per series a run's folder <name>-<UTC time>/ with
# the rig's result set (<name>.json, .csv, .gp; --no-render), its output <name>-output.txt
# and <name>-reference.png; summary.csv with both figures side by side (and each folder).
# Exit status: 0 when every series was measured; 1 when the rig reported a correctness
# failure; 2 for bad arguments or a missing rig.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=build rig="" out=out/reference only="" quick=${REFERENCE_QUICK:-0}
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    --only=*) only=${arg#--only=} ;;
    --build=*) build=${arg#--build=} ;;
    --rig=*) rig=${arg#--rig=} ;;
    --out=*) out=${arg#--out=} ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "reference-series: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
  esac
done
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
[ -n "$rig" ] || rig="$build/bin/stressrig"
table="$root/data/reference/load-peak-series.csv"
if [ ! -x "$rig" ]; then
  echo "reference-series: $rig was not built (make build, or cmake --build $build --target stressrig)" >&2
  exit 2
fi
known=$(grep -v '^#' "$table" | cut -d, -f1 | grep -v '^series$' | tr '\n' ' ')
for name in ${only//,/ }; do
  if ! [[ " $known" == *" $name "* ]]; then
    echo "reference-series: no series matches --only=$name (known: $known)" >&2
    exit 2
  fi
done
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
cores=$(nproc 2>/dev/null || echo 1)
[ "$quick" = 1 ] && points_override=8 || points_override=""

# A number from the rig's JSON envelope (one key per line); "" when null or absent.
field() {
  sed -n "s/^ *\"$2\": //p" "$1" | head -n 1 | sed 's/,$//; s/^null$//; s/^"//; s/"$//'
}
# "0.518·p + 8.57 (r .983)" from gradient, socket, correlation; "n/a" without a gradient.
regression() {
  [ -z "$1" ] && { echo "n/a"; return; }
  awk -v a="$1" -v b="$2" -v r="$3" "$sig3"'BEGIN {
    s = (b < 0) ? "-" : "+"; if (b < 0) b = -b
    rr = sprintf("%.3f", r); sub(/^0\./, ".", rr)
    printf "%s·p %s %s (r %s)", sig3(a), s, sig3(b), rr }'
}
# awk: 3 significant digits, trailing zeros kept, no trailing point ("0.518", "8.57", "127").
sig3='function sig3(x,  m) { m = (x < 0) ? -x : x
  if (m >= 100) return sprintf("%.0f", x); if (m >= 10) return sprintf("%.1f", x)
  if (m >= 1) return sprintf("%.2f", x); return sprintf("%#.3g", x) } '
num() { [ -z "$1" ] && echo "n/a" || printf "%.${2:-2}f" "$1"; }
duration() { awk -v us="$1" 'BEGIN { if (us >= 1000) printf "%gms", us / 1000; else printf "%gus", us }'; }

echo "Reference load-peak series: ours beside the published ones (debug builds, 8 hardware threads)"
echo "  machine: $cores cores, $(uname -sm); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  rig: $rig${points_override:+ (quick: $points_override points per series)}"
echo "  results: $out"

summary="$out/summary.csv"
echo '"series","workers","job (us)","points","ours gradient (ms/job)","ours socket (ms)","ours correlation","ours mean concurrency","published gradient (ms/job)","published socket (ms)","published correlation","published mean concurrency","ideal gradient (ms/job)","oversubscribed","exit status","folder"' >"$summary"

rows=() failures=0 measured=0 first_json=""
run_series() {  # run_series LABEL WORKERS JOB_US FROM TO POINTS PA PB PR PC
  local label=$1 workers=$2 job=$3 from=$4 to=$5 points=$6 pa=$7 pb=$8 pr=$9 pc=${10}
  local name status json given par ideal over before folder="" dir="$out"
  name=$(echo "$label" | tr 'A-Z@' 'a-z-')
  echo
  echo "== $label: $workers workers, $from..$to jobs of $(duration "$job"), $points points"
  before=$(readlink "$out/latest" 2>/dev/null)
  "$rig" --mode=param-range --pattern=isolated --from="$from" --to="$to" --points="$points" \
    --workers="$workers" --load="$(duration "$job")" --out="$out" --name="$name" --quiet \
    --no-render >"$out/$name-output.txt" 2>&1
  status=$?
  # the run's folder: where `latest` points now, if this run moved it
  folder=$(readlink "$out/latest" 2>/dev/null)
  if [ -n "$folder" ] && [ "$folder" != "$before" ]; then
    dir="$out/$folder"
    mv "$out/$name-output.txt" "$dir/"
  else
    folder=""
  fi
  grep -E '^(Model|Verdict|stressrig: warning)' "$dir/$name-output.txt" | sed 's/^/   /'
  json="$dir/$name.json"
  if [ "$status" -ne 0 ]; then
    echo "   the rig exited with status $status: see $dir/$name-output.txt"
    [ "$status" -eq 1 ] && failures=$((failures + 1))
  fi
  local ga gb gr gc
  ga=$(field "$json" gradient_ms_per_job); gb=$(field "$json" socket_ms)
  gr=$(field "$json" correlation); gc=$(field "$json" mean_concurrency)
  par=$(( workers < cores ? workers : cores ))
  ideal=$(awk -v j="$job" -v p="$par" "$sig3"'BEGIN { printf "%s", sig3(j / 1000 / p) }')
  over=$([ "$workers" -gt "$cores" ] && echo yes || echo no)
  [ -n "$ga" ] && measured=$((measured + 1))
  rows+=("$(printf '%-12s %7s %7s %6s  %-28s %6s  |  %-28s %6s  %9s' "$label" "$workers" \
    "$(duration "$job")" "$points" "$(regression "$ga" "$gb" "$gr")" "$(num "$gc")" \
    "$(regression "$pa" "$pb" "$pr")" "$(num "$pc")" "$ideal")")
  echo "\"$label\",$workers,$job,$points,$ga,$gb,$gr,$gc,$pa,$pb,$pr,$pc,$ideal,$over,$status,\"$folder\"" >>"$summary"
  [ -z "$first_json" ] && first_json=$json
  if [ -n "$ga" ] && command -v gnuplot >/dev/null 2>&1; then
    # the verdict under the title in its class's colour (report/VerdictColour.cpp);
    # a quote inside is doubled for gnuplot's single-quoted string
    local verdict colour
    verdict=$(field "$json" verdict | sed "s/\\\\\"/\"/g; s/'/''/g")
    case "$(field "$json" verdict_class)" in
      ok) colour='#2e7d32' ;; failure) colour='#c62828' ;; *) colour='#b26a00' ;;
    esac
    gnuplot -e "csv='$dir/$name.csv'; out='$dir/$name-reference.png'; \
title='$label: $workers workers, jobs of $(duration "$job") (machine: $cores cores)'; \
verdict='$verdict'; vcolour='$colour'; \
pa=$pa; pb=$pb; pc=$pc; ideal=$ideal; plabel='published ($(echo "$label" | sed 's/@.*//'))'" \
      "$here/reference-series.gp" >/dev/null 2>"$dir/$name-gnuplot.txt" &&
      rm -f "$dir/$name-gnuplot.txt" ||
      echo "   drawing failed: see $dir/$name-gnuplot.txt"
  fi
}

selected=0
while IFS=, read -r series workers job from to points range pa pb pr pc; do
  case "$series" in ''|\#*|series) continue ;; esac
  if [ -n "$only" ] && ! [[ ",$only," == *",$series,"* ]]; then continue; fi
  selected=$((selected + 1))
  [ -n "$points_override" ] && points=$points_override
  run_series "$series" "$workers" "$job" "$from" "$to" "$points" "$pa" "$pb" "$pr" "$pc"
  if [ "$workers" -gt "$cores" ]; then
    echo "   this machine has $cores cores, fewer than the series' $workers workers: the run" \
         "above oversubscribes; adding the series at workers = $cores"
    run_series "$series@$cores" "$cores" "$job" "$from" "$to" "$points" "$pa" "$pb" "$pr" "$pc"
  fi
done < <(grep -v '^#' "$table")
if [ "$selected" -eq 0 ]; then
  echo "reference-series: no series matches --only=$only (see $table)" >&2
  exit 2
fi

echo
echo "Result time over load size p (jobs), in ms; mean concurrency in workers busy"
printf '%-12s %7s %7s %6s  %-28s %6s  |  %-28s %6s  %9s\n' series workers job points \
  "ours: regression (ms)" "∅conc" "published: regression (ms)" "∅conc" "ideal ms/job"
for r in "${rows[@]}"; do echo "$r"; done
echo "  ideal: gradient of a perfect schedule = job / min(workers, $cores cores) in ms per job;"
echo "  published figures: debug builds on 8 hardware threads; ours: $(field "${first_json:-/dev/null}" build_type)"
echo "  load average after: $(cut -d' ' -f1-3 /proc/loadavg); summary: $summary"
[ "$failures" -eq 0 ] || { echo "reference-series: $failures series reported a correctness failure" >&2; exit 1; }
exit 0
