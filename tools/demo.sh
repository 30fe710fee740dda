#!/usr/bin/env bash
# `make demo`: the default stress run, leaving its results in OUT, then a short summary:
# where the results are, the verdict, how busy the machine was, and (last line) the page
# that shows all of it.
#
# Exit status: the rig's. 0 means the measurement was made; deadline misses and lateness
# on a busy machine are results, not failures. Non-zero only for a correctness failure
# of the scheduler (1), bad input (2), unwritable results (3) or an interruption (130/143).
set -uo pipefail
build=${1:-build}; out=${2:-out}
rig="$build/bin/stressrig"
if [ ! -x "$rig" ]; then
  echo "demo: $rig was not built" >&2
  exit 1
fi

name=run-burst-64  # the name the rig gives this run (pattern, nodes)
status=0
"$rig" --pattern=burst --workers=8 --out="$out" || status=$?

manifest="$out/$name.json"
# A value of the envelope (written with one key per line); "" when absent.
field() {
  sed -n "s/^ *\"$1\": //p" "$manifest" 2>/dev/null | head -n 1 | sed 's/,$//; s/^"//; s/"$//'
}
# A load average with two decimals ("n/a" when the system did not tell).
load() {
  case "$1" in
    ""|null) echo "n/a" ;;
    *) printf '%.2f' "$1" ;;
  esac
}

echo
echo "Demo summary"
if [ -f "$manifest" ]; then
  echo "  results:  $out/ ($name.json lists every file; the pictures are $name.png and $name.svg" \
       "when gnuplot and Graphviz are installed)"
  echo "  verdict:  $(field verdict)"
  cores=$(field cores)
  start=$(load "$(field load_average_start)")
  end=$(load "$(field load_average_end)")
  if [ "$(field busy)" = "true" ]; then
    echo "  machine:  busy: load average $start at the start and $end at the end on $cores cores."
    echo "            The run shared the CPU with other work, so its lateness and any deadline"
    echo "            misses come from that competition for the CPU as well as from the scheduler;"
    echo "            run the demo on an idle machine for figures of the scheduler alone."
  else
    echo "  machine:  idle enough (load average $start at the start, $end at the end, $cores cores)"
  fi
else
  echo "  results:  none written (see the messages above)"
fi
case "$status" in
  0) echo "  exit 0:   the measurement was made" ;;
  1) echo "  exit 1:   a correctness failure of the scheduler (see FAILED above)" ;;
  2) echo "  exit 2:   bad input to the rig" ;;
  3) echo "  exit 3:   the result files could not be written" ;;
  130|143) echo "  exit $status: interrupted; the result is partial" ;;
  *) echo "  exit $status: the rig ended abnormally" ;;
esac
# Last, so that it is what a terminal shows: the one page of the result (index.html lists
# every result in OUT and shows the newest, this one).
if [ -f "$out/index.html" ]; then
  echo "  page:     $(cd "$out" && pwd)/index.html"
fi
exit "$status"
