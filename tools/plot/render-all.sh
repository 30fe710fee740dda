#!/usr/bin/env bash
# Renders what the stressrig left in OUTDIR: every *.gp with gnuplot (run inside
# OUTDIR, where the scripts expect to write their pictures) and every *.dot with
# `dot -Tsvg` next to it. Says what it rendered and what it skipped. A missing
# gnuplot or graphviz is not an error (exit 0 with a hint); a failing render is (exit 1).
set -u

if [ $# -ne 1 ]; then
    echo "usage: $0 OUTDIR" >&2
    exit 2
fi
outdir=$1
if [ ! -d "$outdir" ]; then
    echo "render-all: no directory '$outdir' — nothing to render (run the rig first, e.g. make demo)"
    exit 0
fi

shopt -s nullglob
cd "$outdir" || exit 1
gps=(*.gp)
dots=(*.dot)
rendered=0 skipped=0 failed=0

if [ ${#gps[@]} -eq 0 ]; then
    echo "render-all: no .gp scripts in $outdir"
elif ! command -v gnuplot >/dev/null 2>&1; then
    echo "render-all: gnuplot not installed, skipped ${#gps[@]} script(s); install it" \
         "(apt-get install gnuplot) and run: cd $outdir && gnuplot FILE.gp"
    skipped=$((skipped + ${#gps[@]}))
else
    for gp in "${gps[@]}"; do
        if log=$(gnuplot "$gp" 2>&1); then
            echo "rendered  $outdir/$gp"
            rendered=$((rendered + 1))
        else
            echo "FAILED    $outdir/$gp:"
            printf '%s\n' "$log" | sed 's/^/    /'
            failed=$((failed + 1))
        fi
    done
fi

if [ ${#dots[@]} -eq 0 ]; then
    echo "render-all: no .dot graphs in $outdir"
elif ! command -v dot >/dev/null 2>&1; then
    echo "render-all: graphviz (dot) not installed, skipped ${#dots[@]} graph(s); install it" \
         "(apt-get install graphviz) and run: dot -Tsvg FILE.dot -o FILE.svg"
    skipped=$((skipped + ${#dots[@]}))
else
    for d in "${dots[@]}"; do
        svg="${d%.dot}.svg"
        if log=$(dot -Tsvg "$d" -o "$svg" 2>&1); then
            echo "rendered  $outdir/$d -> $svg"
            rendered=$((rendered + 1))
        else
            echo "FAILED    $outdir/$d:"
            printf '%s\n' "$log" | sed 's/^/    /'
            failed=$((failed + 1))
        fi
    done
fi

echo "render-all: $rendered rendered, $skipped skipped, $failed failed"
[ "$failed" -eq 0 ]
