#!/usr/bin/env python3
"""Medians of the granularity runs tools/bench/rig_ab.sh wrote, one table per side.

  tools/bench/rig_ab_summary.py OUT        (OUT/NAME/runN/latest/granularity*.json)

Per graph and backend: the empty-job overhead in ns/job (if the runs measured it with
--overhead), the efficiency at the smallest job size and METG(50 %), each the median
over the rounds with the range [min-max]; then the load averages of the side's runs.
Exit 2 on bad arguments or a folder without runs. Python 3 standard library only.
"""

import glob
import json
import os
import statistics
import sys


def med(values, fmt):
    values = [v for v in values if v is not None]
    if not values:
        return "n/a"
    return f"{fmt(statistics.median(values))} [{fmt(min(values))}-{fmt(max(values))}]"


def metg_cell(entries):
    """Median METG; "≤ x" when no run reached a crossing (efficiency ≥ 50 % from the
    smallest size on, x that size)."""
    values = [e.get("metg_us") for e in entries]
    if all(v is None for v in values):
        bounds = [e.get("metg_bound_us") for e in entries if e.get("metg_bound_us") is not None]
        return f"≤ {max(bounds):.3g}" if bounds else "n/a"
    return med(values, lambda v: f"{v:.3g}")


def run_folder(d):
    """The run's folder the rig wrote into runN (runN/latest), or runN itself when the
    result lies flat in it."""
    latest = os.path.join(d, "latest")
    return latest if os.path.isdir(latest) else d


def table(side_dir):
    dirs = sorted(glob.glob(os.path.join(side_dir, "run*")))
    # The rig names its files granularity-BACKEND.* when it runs one backend only.
    files = [f for d in dirs
             for f in sorted(glob.glob(os.path.join(run_folder(d), "granularity*.json")))[:1]]
    runs = [json.load(open(f))["result"] for f in files]
    if not runs:
        raise ValueError(f"{side_dir}: no runN/granularity*.json")
    loads = [float(line.split("load average:")[1].split(",")[0])
             for d in dirs for line in open(os.path.join(d, "load.txt")) if "load average:" in line]
    name = os.path.basename(side_dir.rstrip("/"))
    lines = [f"## {name}: {len(runs)} runs, load average "
             f"{min(loads, default=0):.2f}-{max(loads, default=0):.2f}", "",
             "| graph | backend | empty ns/job | efficiency at smallest size | METG(50 %) µs |",
             "|---|---|---:|---:|---:|"]
    for g in runs[0]["graphs"]:
        graph = g["graph"]
        for backend in g["backends"]:
            entries = [next(x for x in r["graphs"] if x["graph"] == graph)["backends"][backend]
                       for r in runs]
            smallest = [min(e["points"], key=lambda p: p["job_size_us"]) for e in entries]
            lines.append(
                f"| {graph} | {backend} "
                f"| {med([e.get('empty_ns_per_job') for e in entries], lambda v: f'{v:.0f}')} "
                f"| {med([100 * p['efficiency'] for p in smallest], lambda v: f'{v:.0f} %')} "
                f"at {smallest[0]['job_size_us']:g} µs "
                f"| {metg_cell(entries)} |")
    return lines + [""]


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    sides = sorted(d for d in glob.glob(os.path.join(argv[1], "*")) if os.path.isdir(d))
    try:
        if not sides:
            raise ValueError(f"{argv[1]}: no side folders")
        for side in sides:
            print("\n".join(table(side)))
    except (OSError, ValueError, KeyError) as e:
        print(f"rig_ab_summary: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
