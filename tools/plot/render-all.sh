#!/usr/bin/env bash
# Renders what the stressrig left in OUTDIR and its sub-folders (each run's folder,
# out/reference, out/peers, ...), each once (not again through a `latest` link): every
# *.gp with gnuplot (run inside its folder, where the scripts
# expect to write their pictures) and every *.dot with `dot -Tsvg` next to it. Says
# what it rendered and what it skipped. A missing gnuplot or graphviz is not an error
# (exit 0 with a hint); a failing render is (exit 1).
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

# Bash's own globbing, not find: the script must work with only bash on the PATH.
shopt -s globstar nullglob
outdir=${outdir%/}
# Whether a link lies between OUTDIR and $1's folder (a run's folder seen through
# --out's `latest`): that folder is rendered under its own name.
through_link() {
    local p=${1%/*}
    while [ "${#p}" -gt "${#outdir}" ]; do
        [ -L "$p" ] && return 0
        p=${p%/*}
    done
    return 1
}
gps=() dots=()
for f in "$outdir"/**/*.gp; do through_link "$f" || gps+=("$f"); done
for f in "$outdir"/**/*.dot; do through_link "$f" || dots+=("$f"); done
rendered=0 skipped=0 failed=0

# Runs "$@" inside the folder of $1's file and reports the outcome under $1's path.
render_in_folder() {
    local file=$1 log
    shift
    if log=$(cd "${file%/*}" && "$@" 2>&1); then
        echo "rendered  $file${svg_note:-}"
        rendered=$((rendered + 1))
    else
        echo "FAILED    $file:"
        printf '%s\n' "$log" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
}

if [ ${#gps[@]} -eq 0 ]; then
    echo "render-all: no .gp scripts in $outdir"
elif ! command -v gnuplot >/dev/null 2>&1; then
    echo "render-all: gnuplot not installed, skipped ${#gps[@]} script(s); install it" \
         "(apt-get install gnuplot) and run: cd $outdir && gnuplot FILE.gp"
    skipped=$((skipped + ${#gps[@]}))
else
    for gp in "${gps[@]}"; do
        svg_note="" render_in_folder "$gp" gnuplot "${gp##*/}"
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
        name=${d##*/}
        svg_note=" -> ${name%.dot}.svg" render_in_folder "$d" dot -Tsvg "$name" -o "${name%.dot}.svg"
    done
fi

echo "render-all: $rendered rendered, $skipped skipped, $failed failed"
[ "$failed" -eq 0 ]
