#!/usr/bin/env python3
"""Medians over run1..3 of empty-job overhead (ns/job) and efficiency at 1 us per graph
and backend, as a Markdown table. Usage: summarize.py [DIR]"""
import json, os, statistics, sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
runs = [json.load(open(os.path.join(here, f"run{i}", "granularity.json")))["result"]
        for i in (1, 2, 3)]
backends = ["pullsched", "tbb", "openmp", "asio", "pool"]
print("| graph | " + " | ".join(f"{b} ns (eff. 1 µs)" for b in backends) + " |")
print("|---|" + "---:|" * len(backends))
for g in runs[0]["graphs"]:
    name = g["graph"] if "graph" in g else g.get("name")
    cells = []
    for b in backends:
        ns, eff = [], []
        for r in runs:
            gg = next(x for x in r["graphs"] if (x.get("graph") or x.get("name")) == name)
            e = gg["backends"][b]
            ns.append(e["empty_ns_per_job"])
            eff.append(next(p["efficiency"] for p in e["points"] if p["job_size_us"] == 1.0))
        cells.append(f"{statistics.median(ns):.0f} ({100 * statistics.median(eff):.0f} %)")
    print(f"| {name} | " + " | ".join(cells) + " |")
