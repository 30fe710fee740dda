#!/usr/bin/env bash
# tools/plot/table.gp plots the numeric columns it is given and refuses, with a message
# that names the column, a text column whose cells start with digits, an unknown
# column, and (without cols) a CSV too wide for one chart. render-all.sh walks
# sub-folders, and `make report` builds nothing. Exit 77 (skipped) without gnuplot.
set -u
src=${1:?usage: plot-table.sh SOURCE_DIR}
table="$src/tools/plot/table.gp"
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not installed: skipped"; exit 77; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect STATUS PATTERN -- gnuplot -e EXPR: the status and a line of the output.
expect() {
    local want=$1 pattern=$2 out status
    shift 3
    out=$(cd "$dir" && "$@" 2>&1)
    status=$?
    [ "$status" -eq "$want" ] || fail "$* exited $status, expected $want: $out"
    printf '%s\n' "$out" | grep -qF -- "$pattern" || fail "$* did not say '$pattern': $out"
}

# As the rig writes it: comments, quoted headers, a text column whose cells start with
# digits (gnuplot alone reads "322 drops" as 322), an empty cell.
cat >"$dir/sweep.csv" <<'CSV'
# mode: sweep
"workers","offered rate per s","achieved rate per s","p99 lateness us","reason"
1,500,499.0,5480.4,"p99 lateness 5.48ms > 1.00ms"
1,1500,1101.6,,"322 drops of 1500 jobs > 1%"
1,2500,1850.2,99942.3,"1852 drops of 2500 jobs > 1%"
CSV

# Names hold blanks: a list of them takes commas.
expect 0 "wrote chosen.png" -- gnuplot -e "csv='sweep.csv'; out='chosen.png'; xcol='offered rate per s'; cols='achieved rate per s, 4'; y2='p99 lateness us'" "$table"
[ -s "$dir/chosen.png" ] || fail "chosen.png was not written"

expect 1 "column 'reason' of sweep.csv is not numeric" -- gnuplot -e "csv='sweep.csv'; out='text.png'; cols='reason'" "$table"
expect 1 "no column 'p95' in sweep.csv" -- gnuplot -e "csv='sweep.csv'; out='unknown.png'; cols='3 p95'" "$table"
expect 1 "no column 'p95 lateness us' in sweep.csv" -- gnuplot -e "csv='sweep.csv'; out='unknown.png'; cols='3, p95 lateness us'" "$table"
[ ! -e "$dir/text.png" ] && [ ! -e "$dir/unknown.png" ] || fail "a refused plot left a picture"

# Without cols: the text column is left out, the numeric ones are plotted.
expect 0 "wrote sweep.png" -- gnuplot -e "csv='sweep.csv'" "$table"

# Too wide for one chart without cols: the numeric columns are listed to choose from.
{
    printf '"x"'; for i in $(seq 1 8); do printf ',"c%d"' "$i"; done; printf ',"note"\n'
    for r in 1 2 3; do printf '%d' "$r"; for i in $(seq 1 8); do printf ',%d' $((r * i)); done; printf ',"%d ok"\n' "$r"; done
} >"$dir/wide.csv"
expect 1 "choose some with cols=" -- gnuplot -e "csv='wide.csv'" "$table"
expect 1 "  9 c8" -- gnuplot -e "csv='wide.csv'" "$table"

# render-all.sh renders a sub-folder such as out/reference.
mkdir -p "$dir/out/reference"
printf 'set terminal png\nset output "ref.png"\nplot x\n' >"$dir/out/reference/ref.gp"
expect 0 "1 rendered, 0 skipped, 0 failed" -- bash "$src/tools/plot/render-all.sh" "$dir/out"
[ -s "$dir/out/reference/ref.png" ] || fail "render-all did not render out/reference/ref.gp"

# `make report` runs render-all and nothing else: no build, no CMake.
plan=$(make --no-print-directory -n -C "$src" report OUT="$dir/out" 2>&1)
printf '%s\n' "$plan" | grep -q "render-all.sh" || fail "make report does not run render-all: $plan"
if printf '%s\n' "$plan" | grep -qE "cmake|install-deps"; then fail "make report builds: $plan"; fi

[ "$failures" -eq 0 ] && echo "plot-table: all checks passed"
[ "$failures" -eq 0 ]
