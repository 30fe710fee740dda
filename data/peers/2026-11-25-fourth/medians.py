#!/usr/bin/env python3
"""Medians over run1..3 of every table in compared-with.md (each cell: median (run1/run2/run3)).
Usage: medians.py [DIR]"""
import os, re, statistics, sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
runs = [open(os.path.join(here, f"run{i}", "compared-with.md")).read().splitlines() for i in (1, 2, 3)]


def value(cell):
    c = cell.replace("*", "").strip()
    m = re.match(r"(≤ )?([\d.]+)\s*(ns|µs|%)?", c)
    if not m:
        return None, c
    v = float(m.group(2)) * (1000 if m.group(3) == "µs" else 1)
    return v, c


for idx, line in enumerate(runs[0]):
    if not line.startswith("| ") or line.startswith("| |"):
        print(line)
        continue
    rows = [r[idx].split("|")[1:-1] for r in runs]
    out = [rows[0][0]]
    for k in range(1, len(rows[0])):
        vals = [value(r[k]) for r in rows]
        nums = [v for v, _ in vals if v is not None]
        texts = "/".join(c for _, c in vals)
        med = statistics.median(nums) if len(nums) == 3 else None
        shown = next((c for v, c in vals if v == med), texts) if med is not None else texts
        out.append(f" {shown} ({texts}) ")
    print("|" + "|".join(out) + "|")
