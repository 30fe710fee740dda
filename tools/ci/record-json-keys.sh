#!/usr/bin/env bash
# Re-records the envelope key baselines of regression_mode_json_keys
# (tests/stressrig/mode_json_keys/<case>.txt): the keys present in all of three recordings,
# the third beside CPU load (stress-ng, when installed), so that keys only some outcomes
# write are left out. Run from the repository root after a build; review the diff.
set -euo pipefail
bin=build/bin/stressrig_regression
[[ -x $bin ]] || { echo "record-json-keys: $bin not built (make build)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in 1 2 3; do
    mkdir -p "$work/$i"
    load=""
    if [[ $i == 3 ]] && command -v stress-ng >/dev/null; then
        stress-ng --cpu 2 --timeout 120s >/dev/null 2>&1 &
        load=$!
    fi
    PULLSCHED_RECORD_JSON_KEYS="$work/$i" "$bin" --gtest_filter='*ModeJsonKeys.*' --gtest_brief=1 >/dev/null
    if [[ -n $load ]]; then
        kill "$load" 2>/dev/null || true
        wait "$load" 2>/dev/null || true
    fi
done
commit=$(git rev-parse --short HEAD)
count=0
for f in "$work"/1/*.txt; do
    count=$((count + 1))
    name=$(basename "$f" .txt)
    {
        echo "# Envelope keys of stressrig at $commit (case $name of regression_mode_json_keys.cpp): present in all of three recordings, one beside CPU load."
        comm -12 <(sort "$work/1/$name.txt") <(sort "$work/2/$name.txt") |
            comm -12 - <(sort "$work/3/$name.txt")
    } >"tests/stressrig/mode_json_keys/$name.txt"
done
echo "record-json-keys: recorded $count baselines at $commit"
