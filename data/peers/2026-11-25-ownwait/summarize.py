#!/usr/bin/env python3
"""Medians over the runs in before/ and after/ of empty-job overhead (ns/job) and
efficiency at 1 us per graph and backend, as Markdown tables, with the load averages.
Usage: summarize.py [DIR]"""
import glob, json, os, statistics, sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
backends = ["pullsched", "tbb", "openmp", "asio", "pool"]


def table(side):
    dirs = sorted(glob.glob(os.path.join(here, side, "run*")))
    runs = [json.load(open(os.path.join(d, "granularity.json")))["result"] for d in dirs]
    loads = []
    for d in dirs:
        for line in open(os.path.join(d, "load.txt")):
            loads.append(float(line.split("load average:")[1].split(",")[0]))
    print(f"\n{side}: {len(runs)} runs, load average {min(loads):.2f}-{max(loads):.2f}\n")
    print("| graph | " + " | ".join(f"{b} ns (eff. 1 µs)" for b in backends) + " |")
    print("|---|" + "---:|" * len(backends))
    for g in runs[0]["graphs"]:
        name = g.get("graph") or g.get("name")
        cells = []
        for b in backends:
            ns, eff = [], []
            for r in runs:
                gg = next(x for x in r["graphs"] if (x.get("graph") or x.get("name")) == name)
                e = gg["backends"][b]
                ns.append(e["empty_ns_per_job"])
                eff.append(next(p["efficiency"] for p in e["points"] if p["job_size_us"] == 1.0))
            cells.append(f"{statistics.median(ns):.0f} [{min(ns):.0f}-{max(ns):.0f}] "
                         f"({100 * statistics.median(eff):.0f} %)")
        print(f"| {name} | " + " | ".join(cells) + " |")


for side in ("before", "after"):
    if os.path.isdir(os.path.join(here, side)):
        table(side)
