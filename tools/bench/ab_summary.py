#!/usr/bin/env python3
"""Medians (min-max) per build of an A/B run written by tools/bench/ab.sh.

  tools/bench/ab_summary.py OUTDIR > OUTDIR/summary.md
"""
import glob
import json
import os
import re
import statistics
import sys

GRAPH_FIGURES = ["ns_per_job", "wakeups", "parks", "steals"]
TIMING_FIGURES = ["p50_us", "p99_us", "cpu_ms_per_s", "parks_per_s", "wakeups_per_job"]


def main(out_dir):
    runs = {}
    for f in glob.glob(os.path.join(out_dir, "r*-*.json")):
        m = re.match(r"r(\d+)-(.+)\.json$", os.path.basename(f))
        with open(f) as fh:
            for b in json.load(fh)["benchmarks"]:
                if not b.get("error_occurred"):
                    runs.setdefault(m.group(2), {}).setdefault(b["name"], []).append(b)
    builds = sorted(runs)
    names = list(dict.fromkeys(n for b in builds for n in runs[b]))
    print("| benchmark | figure | " + " | ".join(f"{b} median (min–max)" for b in builds) + " |")
    print("|---|---|" + "---:|" * len(builds))
    for name in names:
        graph = any(v in name for v in ("_Post_", "_Batch_", "_Exec_"))
        for fig in GRAPH_FIGURES if graph else TIMING_FIGURES:
            cells, seen = [], False
            for b in builds:
                vals = [float(x[fig]) for x in runs[b].get(name, []) if fig in x]
                if not vals:
                    cells.append("-")
                    continue
                seen = True
                f = "{:.0f}" if fig == "ns_per_job" else "{:.2f}"
                cells.append(f"{f.format(statistics.median(vals))} "
                             f"({f.format(min(vals))}–{f.format(max(vals))})")
            if seen:
                print(f"| {name.split('/')[0]} | {fig} | " + " | ".join(cells) + " |")
    with open(os.path.join(out_dir, "loads.txt")) as fh:
        print("\nLoad averages (1, 5, 15 min) around each process:\n\n```\n" + fh.read() + "```")


if __name__ == "__main__":
    main(sys.argv[1])
