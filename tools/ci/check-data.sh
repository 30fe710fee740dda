#!/usr/bin/env bash
# Keeps data/ to what a user or a test needs (see data/results/ and tools/make-samples.sh):
# fails if data/ is over its budget or holds a committed file that nothing refers to.
#
#   tools/ci/check-data.sh [REPO]          (REPO defaults to the checkout holding this script)
#
# Budget: at most 2 MB (the sum of the committed files' sizes) and fewer than 150 files.
# Referenced: a committed file data/A/B/... counts as referenced when its own path, or
# the path of one of its folders at least two levels deep (data/A/B, data/A/B/C, ...),
# appears in a committed file outside data/. A mention of data/A alone is not enough:
# "data/samples" would otherwise vouch for everything under it. Paths are matched as
# written from the repository root, with or without a leading "../" (docs/ links).
# Exit 0 when within budget and everything is referenced, 1 otherwise (each problem on
# one line), 2 when REPO is not a git checkout.
set -uo pipefail
repo=${1:-"$(cd "$(dirname "$0")/../.." && pwd)"}
cd "$repo" 2>/dev/null && git rev-parse --git-dir >/dev/null 2>&1 || {
  echo "check-data: $repo is not a git checkout" >&2
  exit 2
}
max_bytes=$((2 * 1024 * 1024)) max_files=150
mapfile -t files < <(git ls-files data)
fail=0
bytes=0
for f in "${files[@]}"; do
  [ -f "$f" ] && bytes=$((bytes + $(stat -c %s "$f")))
done
if [ "${#files[@]}" -ge "$max_files" ]; then
  echo "check-data: data/ holds ${#files[@]} files (budget: fewer than $max_files)"
  fail=1
fi
if [ "$bytes" -gt "$max_bytes" ]; then
  echo "check-data: data/ holds $bytes bytes (budget: $max_bytes)"
  fail=1
fi
# Every data/ path written in a committed file outside data/, with each of its folders:
# the set a file or one of its folders must be in.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git ls-files -z | grep -zv '^data/' | xargs -0 cat 2>/dev/null |
  grep -oE 'data/[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]+)*' | sort -u |
  while read -r p; do
    while [ -n "$p" ]; do
      echo "${p%/}"
      [ "${p%/*}" = "$p" ] && break
      p=${p%/*}
    done
  done | sort -u >"$tmp/found"
for f in "${files[@]}"; do
  found=0
  p=$f
  while [ "$(tr -cd / <<<"$p" | wc -c)" -ge 2 ]; do
    if grep -qxF -- "$p" "$tmp/found"; then
      found=1
      break
    fi
    p=${p%/*}
  done
  if [ "$found" = 0 ]; then
    echo "check-data: $f is referenced by nothing outside data/"
    fail=1
  fi
done
[ "$fail" = 0 ] && echo "check-data: ${#files[@]} files, $bytes bytes, all referenced"
exit "$fail"
