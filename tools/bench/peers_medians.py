#!/usr/bin/env python3
"""Medians over several `make peers` runs: every table of their compared-with.md files,
each cell the median run's value followed by every run's value, "141 (169/139/141)".

  tools/bench/peers_medians.py RUN_DIR...     (each RUN_DIR holds a compared-with.md)
  tools/bench/peers_medians.py --check SUMMARY RUN_DIR...
      exit 1 unless SUMMARY, after its line "<!-- Everything below ... -->", is this output

    for i in 1 2 3; do make peers OUT=out/run$i && cp -r out/run$i/peers R/run$i; done
    tools/bench/peers_medians.py R/run1 R/run2 R/run3

The first run's file gives the layout (headings, notes, row labels); every run must have
the same rows. With an even number of runs the lower median is shown, so every cell is a
value that was measured. A cell without a number (n/a) shows every run's text.
Exit 2 on bad arguments or runs whose tables differ. Python 3 standard library only.
"""

import os
import re
import statistics
import sys

CELL = re.compile(r"(≤ )?([\d.]+)\s*(ns|µs|%)?")


def value(cell):
    """(number in ns or %, text without bold markers); number None if there is none."""
    text = cell.replace("*", "").strip()
    m = CELL.match(text)
    if not m:
        return None, text
    return float(m.group(2)) * (1000 if m.group(3) == "µs" else 1), text


def merge(runs):
    """The lines of the first run, each table cell replaced by `median (run1/run2/...)`."""
    out = []
    for idx, line in enumerate(runs[0]):
        if not line.startswith("| ") or line.startswith("| |"):
            out.append(line)
            continue
        rows = [r[idx].split("|")[1:-1] for r in runs]
        if any(len(r) != len(rows[0]) or r[0].strip() != rows[0][0].strip() for r in rows):
            raise ValueError(f"line {idx + 1}: the runs' tables differ")
        cells = [rows[0][0]]
        for k in range(1, len(rows[0])):
            vals = [value(r[k]) for r in rows]
            texts = "/".join(t for _, t in vals)
            nums = [v for v, _ in vals if v is not None]
            if len(nums) != len(vals):
                cells.append(f" {texts} ")
                continue
            med = statistics.median_low(nums)
            shown = next(t for v, t in vals if v == med)
            cells.append(f" {shown} ({texts}) ")
        out.append("|" + "|".join(cells) + "|")
    return out


def main(argv):
    args = argv[1:]
    check = None
    if args[:1] == ["--check"] and len(args) > 1:
        check, args = args[1], args[2:]
    if not args or any(a.startswith("-") for a in args):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        runs = [open(os.path.join(d, "compared-with.md")).read().splitlines() for d in args]
        if len({len(r) for r in runs}) != 1:
            raise ValueError("the runs' compared-with.md differ in length")
        tables = merge(runs)
        if check is None:
            print("\n".join(tables))
            return 0
        lines = open(check).read().splitlines()
        marker = next(i for i, l in enumerate(lines) if l.startswith("<!-- Everything below"))
    except (OSError, ValueError, StopIteration) as e:
        print(f"peers_medians: {e or 'no marker line in ' + str(check)}", file=sys.stderr)
        return 2
    if lines[marker + 1:] != tables:
        print(f"peers_medians: {check} does not match its runs' tables", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
