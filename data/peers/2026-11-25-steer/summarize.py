#!/usr/bin/env python3
"""Medians (and ranges) of run.sh's granularity runs: METG, efficiency at 1 us and the
empty-job overhead per graph, for pullsched spread / pinned and oneTBB (both sets).
Python 3 standard library only.  Usage: summarize.py [DIR]"""
import glob
import os
import re
import statistics
import sys

d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
GRAPHS = ["burst-1024", "stationary-256", "chains-1024", "isolated-10000", "chain-10000",
          "grid-100x100"]


def ns(text):
    """'290ns' / '1.04µs' / '≤ 250ns' -> (value in ns, at_most)"""
    text = text.strip()
    at_most = text.startswith("≤")
    m = re.search(r"([\d.]+)\s*(ns|µs|us|ms)", text)
    v = float(m.group(1)) * {"ns": 1, "µs": 1e3, "us": 1e3, "ms": 1e6}[m.group(2)]
    return v, at_most


def fmt_ns(v, at_most=False):
    s = f"{v:.0f} ns" if v < 1000 else f"{v / 1000:.2f} µs"
    return ("≤ " if at_most else "") + s


data = {}  # (figure, graph, who) -> list
for placement in ("spread", "pinned"):
    for f in sorted(glob.glob(os.path.join(d, f"metg-{placement}-*.txt"))):
        for line in open(f, encoding="utf-8"):
            for g in GRAPHS:
                m = re.match(rf"\s+{g}\s+\d+\s+\d+\s+(≤ [\d.]+\S+|[\d.]+\S+)\s+(≤ [\d.]+\S+|[\d.]+\S+)\s*$", line)
                if m:
                    data.setdefault(("metg", g, placement), []).append(ns(m.group(1)))
                    data.setdefault(("metg", g, "tbb-" + placement), []).append(ns(m.group(2)))
    for f in sorted(glob.glob(os.path.join(d, f"eff-{placement}-*.txt"))):
        graph = None
        for line in open(f, encoding="utf-8"):
            m = re.match(r"\s+(\S+): \d+ nodes", line)
            if m:
                graph = m.group(1)
            m = re.search(r"empty jobs .*: pullsched (\d+) ns, tbb (\d+) ns", line)
            if m and graph:
                data.setdefault(("over", graph, placement), []).append((float(m.group(1)), False))
                data.setdefault(("over", graph, "tbb-" + placement), []).append((float(m.group(2)), False))
            m = re.match(r"\s+1\.00µs\s+([\d.]+) %\s+\S+\s+([\d.]+) %", line)
            if m and graph:
                data.setdefault(("eff", graph, placement), []).append((float(m.group(1)), False))
                data.setdefault(("eff", graph, "tbb-" + placement), []).append((float(m.group(2)), False))


def cell(fig, g, who):
    vals = data.get((fig, g, who), [])
    if not vals:
        return "n/a"
    med = statistics.median(v for v, _ in vals)
    at_most = all(a for _, a in vals)
    lo, hi = min(v for v, _ in vals), max(v for v, _ in vals)
    if fig == "eff":
        return f"{med:.0f} % ({lo:.0f}–{hi:.0f})"
    if fig == "over":
        return f"{med:.0f} ({lo:.0f}–{hi:.0f})"
    return fmt_ns(med, at_most) + ("" if at_most else f" ({fmt_ns(lo)}–{fmt_ns(hi)})")


for fig, title in (("eff", "Efficiency at 1 µs"), ("metg", "METG(50 %)"),
                   ("over", "Empty-job overhead, ns/job")):
    print(f"\n{title}, median of the runs (range):\n")
    print("| graph | pullsched spread | oneTBB beside spread | pullsched pinned | oneTBB beside pinned |")
    print("|---|---:|---:|---:|---:|")
    for g in GRAPHS:
        print(f"| {g} | {cell(fig, g, 'spread')} | {cell(fig, g, 'tbb-spread')} | "
              f"{cell(fig, g, 'pinned')} | {cell(fig, g, 'tbb-pinned')} |")
