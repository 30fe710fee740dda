#!/usr/bin/env python3
"""Markdown "Compared with" table from the rig results tools/bench/peers.sh wrote.

  tools/bench/peers_table.py OUT      (OUT/efficiency, OUT/metg, OUT/concurrency-*, OUT/spawn,
                                      OUT/loop; in each, the newest run's folder
                                      OUT/NAME/latest)

Reads the JSON envelopes only (their `result` and `environment`), prints one table per
figure with a column per backend, the best value of each row in bold, and the machine
with its load average per run. A figure that is missing prints as "n/a", never as 0.
Python 3 standard library only.
"""

import glob
import json
import math
import os
import sys


def envelope(folder):
    """The manifest of the one result in `folder`: in the run's folder `folder/latest`
    names when the rig wrote there, else in `folder` itself (results stored flat, as in
    data/results/peers). None if there is none."""
    latest = os.path.join(folder, "latest")
    if os.path.isdir(latest):
        folder = latest
    files = sorted(glob.glob(os.path.join(folder, "*.json")))
    for f in files:
        try:
            with open(f) as fh:
                e = json.load(fh)
        except (OSError, ValueError):
            continue
        if isinstance(e, dict) and "mode" in e and "result" in e:
            return e
    return None


def num(v):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


def fmt_us(v):
    if v is None:
        return "n/a"
    return f"{v * 1e3:.0f} ns" if v < 1 else f"{v:.3g} µs"


def fmt_row(label, values, text, best):
    """`values` per backend (None = missing); `best` picks the best of the present ones."""
    present = [v for v in values if v is not None]
    top = best(present) if present else None
    cells = []
    for v in values:
        t = text(v)
        unique = sum(1 for w in present if w == top) < len(present)
        cells.append(f"**{t}**" if v is not None and v == top and unique else t)
    return f"| {label} | " + " | ".join(cells) + " |"


def graph_table(title, graphs, backends, key, text, best):
    """A table of one per-backend figure of the granularity result, a row per graph; none
    when no backend has the figure (a result written before it existed). `best` picks the
    bold value of a row; None: nothing in bold."""
    if not any(key in g["backends"].get(b, {}) for g in graphs for b in backends):
        return []
    lines = [title, "", "| | " + " | ".join(backends) + " |", "|---|" + "---:|" * len(backends)]
    for g in graphs:
        vals = [num(g["backends"].get(b, {}).get(key)) for b in backends]
        if best:
            lines.append(fmt_row(g["graph"], vals, text, best))
        else:
            lines.append(f"| {g['graph']} | " + " | ".join(text(v) for v in vals) + " |")
    return lines + [""]


def gate_batch_table(graphs, backends):
    """A backend that can run its prebuilt graph both behind its timed gate and as one
    batch submitted at the clock's start (pullsched): both ns per job per graph and their
    ratio. None when no backend has the batch figure (a result written before it existed)."""
    capable = [b for b in backends
               if any("empty_batch_ns_per_job" in g["backends"].get(b, {}) for g in graphs)]
    if not capable:
        return []
    ns = lambda v: "n/a" if v is None else f"{v:.0f}"
    lines = ["**Graph behind a timed gate / same graph as a submitted batch** (empty jobs, "
             "prebuilt: posted behind a gate job whose start opens the run, or built into one "
             "batch submitted when the clock starts; ns per job, and gate / batch: above 1 "
             "the gate costs):", "",
             f"| {capable[0] if len(capable) == 1 else ''} | behind the gate | as a batch "
             "| gate / batch |", "|---|---:|---:|---:|"]
    for b in capable:
        for g in graphs:
            e = g["backends"].get(b, {})
            gate, batch = num(e.get("empty_ns_per_job")), num(e.get("empty_batch_ns_per_job"))
            ratio = "n/a" if gate is None or not batch else f"{gate / batch:.2f}"
            label = g["graph"] if len(capable) == 1 else f"{b}, {g['graph']}"
            lines.append(f"| {label} | {ns(gate)} | {ns(batch)} | {ratio} |")
    return lines + [""]


def metg_text(entry):
    """METG of one graph and backend from the granularity result's per-backend record."""
    kind = entry.get("metg_kind")
    bound = num(entry.get("metg_bound_us"))
    if kind == "interpolated":
        return fmt_us(num(entry.get("metg_us")))
    if kind == "at_or_below_smallest":
        return "≤ " + fmt_us(bound)
    if kind == "above_largest":
        return "> " + fmt_us(bound)
    return "n/a"


def metg_mark(entry, reached_sizes):
    """Why a METG cell must not be read alone: "noisy" when the sweep crossed the threshold
    more than once, "†" when the efficiency run reached it at a size the METG excludes."""
    marks = []
    if entry.get("non_monotonic"):
        marks.append(f"noisy: first reached at {fmt_us(num(entry.get('first_reached_us')))}")
    kind = entry.get("metg_kind")
    limit = num(entry.get("metg_us")) if kind == "interpolated" else num(
        entry.get("metg_bound_us"))
    if kind in ("interpolated", "above_largest") and limit is not None:
        below = [s for s in reached_sizes if s < limit]
        if below:
            marks.append(f"† {fmt_us(min(below))}")
    return f" ({'; '.join(marks)})" if marks else ""


def reached_in_efficiency_run(eff, graph, backend, threshold=0.5):
    """Job sizes at which the efficiency run measured at least `threshold` on `graph`."""
    if not eff:
        return []
    for g in eff["result"]["graphs"]:
        if g["graph"] == graph:
            pts = g["backends"].get(backend, {}).get("points", [])
            return [p["job_size_us"] for p in pts
                    if num(p.get("efficiency")) is not None and num(p["efficiency"]) >= threshold]
    return []


def metg_order(entry):
    """Sort key of a METG record (smaller is better; ≤ bound before > bound)."""
    kind = entry.get("metg_kind")
    bound = num(entry.get("metg_bound_us")) or 0.0
    if kind == "interpolated":
        return num(entry.get("metg_us"))
    if kind == "at_or_below_smallest":
        return bound * 0.999
    if kind == "above_largest":
        return bound * 1e6
    return None


def spawn_tables(result, backends):
    """Work that jobs create (--mode=spawn): ns per call per shape and worker count, and the
    speed-up from the first worker count to the others."""
    workers = result.get("workers", [])
    head = "| | " + " | ".join(backends) + " |"
    rule = "|---|" + "---:|" * len(backends)

    def point(shape, backend, w):
        for b in shape["backends"]:
            if b["name"] == backend:
                return next((p for p in b["points"] if p["workers"] == w), {})
        return {}

    def label(shape, w):
        return f"{shape['name']}, {w} worker{'' if w == 1 else 's'}"

    lines = ["**Work that jobs create** (`--mode=spawn`: every inner call of a fibonacci or "
             "skynet recursion spawns its children from inside a job, each backend in its own "
             "idiom; median run / calls, ns per call):", "", head, rule]
    for shape in result["shapes"]:
        for w in workers:
            vals = [num(point(shape, b, w).get("ns_per_call_median")) for b in backends]
            lines.append(fmt_row(label(shape, w), vals,
                                 lambda v: "n/a" if v is None else f"{v:.0f}", min))
    lines.append("")
    if len(workers) > 1:
        lines += [f"**Speed-up** of that work from {workers[0]} worker"
                  f"{'' if workers[0] == 1 else 's'} (median ns per call there / here; "
                  "above 1: more workers helped):", "", head, rule]
        for shape in result["shapes"]:
            for w in workers[1:]:
                vals = [num(point(shape, b, w).get("speed_up")) for b in backends]
                lines.append(fmt_row(label(shape, w), vals,
                                     lambda v: "n/a" if v is None else f"{v:.2f}", max))
        lines.append("")
    return lines


def spawn_coroutine_table(result):
    """pullsched's two idioms of work that jobs create side by side: its coroutines
    (`pullsched-coro`, Tasks that spawn and co_await) beside its continuations (`pullsched`,
    posts and join counters), with oneTBB's figure and the ratios of the medians. None when
    the spawn run has no pullsched-coro (a result written before it existed)."""
    def median(shape, backend, w):
        for b in shape["backends"]:
            if b["name"] == backend:
                p = next((p for p in b["points"] if p["workers"] == w), {})
                return num(p.get("ns_per_call_median"))
        return None

    def ratio(a, b):
        return "n/a" if a is None or b is None or b == 0 else f"{a / b:.2f}"

    shapes = result.get("shapes", [])
    if not any(b["name"] == "pullsched-coro" for s in shapes for b in s["backends"]):
        return []
    ns = lambda v: "n/a" if v is None else f"{v:.0f}"
    lines = ["**pullsched's coroutines** in that work (`pullsched-coro`: a call is a Task that "
             "spawns its children and co_awaits them, its job suspended meanwhile) beside its "
             "continuations (`pullsched`: posts from the job, join counters); ns per call and "
             "the ratios of the medians:", "",
             "| | continuations | coroutines | coroutines / continuations | tbb "
             "| coroutines / tbb |", "|---|---:|---:|---:|---:|---:|"]
    for shape in shapes:
        for w in result.get("workers", []):
            cont, coro, tbb = (median(shape, b, w) for b in ("pullsched", "pullsched-coro", "tbb"))
            lines.append(f"| {shape['name']}, {w} worker{'' if w == 1 else 's'} | {ns(cont)} | "
                         f"{ns(coro)} | {ratio(coro, cont)} | {ns(tbb)} | {ratio(coro, tbb)} |")
    return lines + [""]


# ---- Parallel loop (issue 49): the loop shapes of --mode=spawn, in their own run OUT/loop


def loop_tables(result, backends):
    """A row per loop shape (loop:N, loop1us:N) and worker count: ns per iteration."""
    loops = [s for s in result.get("shapes", []) if s.get("kind") in ("loop", "loop1us")]
    if not loops:
        return []
    lines = ["**Parallel loop (ns per iteration)** (`--mode=spawn --shapes=loop:N,loop1us:N`: "
             "N iterations, each `out[i] += 1`, or 1 µs of the calibrated load first; "
             "pullsched `parallelFor`, oneTBB `parallel_for`, OpenMP `parallel for`, Asio "
             "and the pool four chunks per thread posted with a join count; median run / N, "
             "every index checked to have run exactly once):", "",
             "| | " + " | ".join(backends) + " |", "|---|" + "---:|" * len(backends)]
    workers = result.get("workers", [])
    for shape in loops:
        size = f"{shape['size']:,}".replace(",", " ")
        what = f"{size} empty iterations" if shape["kind"] == "loop" else \
            f"{size} iterations of 1 µs"
        for w in workers:
            vals = []
            for b in backends:
                entry = next((x for x in shape["backends"] if x["name"] == b), {})
                p = next((p for p in entry.get("points", []) if p["workers"] == w), {})
                vals.append(num(p.get("ns_per_call_median")))
            label = what if len(workers) == 1 else f"{what}, {w} worker{'' if w == 1 else 's'}"
            lines.append(fmt_row(label, vals, loop_ns, min))
    return lines + [""]


def loop_ns(v):
    """1.23 ns, 45.6 ns, 1180 ns: three digits, none after the point above 100."""
    return "n/a" if v is None else f"{v:.0f}" if v >= 100 else f"{v:.3g}"


def loop_verified_line(e):
    points = [p for s in e["result"]["shapes"] for b in s["backends"] for p in b["points"]]
    return (f"- loop: {sum(p['verified'] for p in points)} of {sum(p['runs'] for p in points)} "
            f"runs verified (every index exactly once)")


# ---- end of the parallel loop's block


def environment_line(name, e):
    env = e.get("environment", {})
    return (
        f"- {name}: load average {env.get('load_average_start', float('nan')):.2f} → "
        f"{env.get('load_average_end', float('nan')):.2f} ({env.get('date', '?')})"
    )


def main():
    if len(sys.argv) != 2:
        print("usage: tools/bench/peers_table.py OUT", file=sys.stderr)
        return 2
    out = sys.argv[1]
    runs = {
        name: envelope(os.path.join(out, name))
        for name in ("efficiency", "metg", "concurrency-200us", "concurrency-2ms", "spawn",
                     "loop")
    }
    first = next((e for e in runs.values() if e), None)
    if first is None:
        print(f"peers_table: no rig results under {out}", file=sys.stderr)
        return 2
    env = first.get("environment", {})
    lines = []
    eff = runs["efficiency"]
    # the registry's order (JSON objects come back sorted by name)
    order = ["pullsched", "tbb", "openmp", "asio", "pool"]
    found = list((eff or first)["result"].get("backends", {}).keys())
    backends = [b for b in order if b in found] + [b for b in found if b not in order]
    head = "| | " + " | ".join(backends) + " |"
    rule = "|---|" + "---:|" * len(backends)
    lines.append(
        f"Measured {env.get('date', '?')} on {env.get('machine', '?')}, {env.get('cpu', '?')}, "
        f"{env.get('cores', '?')} cores, {env.get('compiler', '?')}, "
        f"{env.get('build_type', '?')}, pullsched {env.get('version', '?')} "
        f"({env.get('commit', '?')}); {(eff or first)['result'].get('workers', '?')} workers "
        f"for every backend. Best of each row in bold."
    )
    lines.append("")

    if eff:
        graphs = eff["result"]["graphs"]
        ns = lambda v: "n/a" if v is None else f"{v:.0f}"
        lines += graph_table(
            "**Dispatch overhead** (empty jobs, median makespan / nodes, ns per job):",
            graphs, backends, "empty_ns_per_job", ns, min)
        lines += gate_batch_table(graphs, backends)
        lines += graph_table(
            "**Planning + dispatch** (empty jobs, the graph built inside the timed run: "
            "pullsched posts it in batches of 1024, oneTBB constructs its nodes and edges; "
            "ns per job):",
            graphs, backends, "plan_and_run_ns_per_job", ns, min)
        # Whether a dispatch cost was paid while spreading the work or by one thread that
        # ran the whole graph: a fact, with no best value.
        lines += graph_table(
            "**Busiest thread's share** of the empty jobs of the prebuilt graph (median over "
            "the runs; 100 %: one thread ran the whole graph, 50 %: an even split over two):",
            graphs, backends, "empty_busiest_thread_share",
            lambda v: "n/a" if v is None else f"{100 * v:.0f} %", None)
        lines.append("**Efficiency** at job sizes of 1 / 10 / 100 µs (max(work / P, critical "
                     "path) / median makespan):")
        lines.append("")
        lines += [head, rule]
        for size in eff["result"].get("sizes_us", []):
            for g in graphs:
                vals = []
                for b in backends:
                    pts = g["backends"].get(b, {}).get("points", [])
                    v = next((num(p.get("efficiency")) for p in pts if p["job_size_us"] == size),
                             None)
                    vals.append(v)
                lines.append(fmt_row(f"{g['graph']} at {size:g} µs", vals,
                                     lambda v: "n/a" if v is None else f"{100 * v:.0f} %", max))
        lines.append("")

    metg = runs["metg"]
    if metg:
        lines.append("**METG(50 %)**: the smallest job size from which every larger size of "
                     "the √2 sweep reaches 50 % efficiency (smaller is better). A sweep whose "
                     "efficiency crossed 50 % more than once is read at its last crossing and "
                     "marked *noisy*; *† X* marks a METG that the efficiency run above "
                     "contradicts (it reached 50 % at X, a smaller size): the two runs "
                     "disagree, the machine was too noisy to tell.")
        lines.append("")
        lines += [head, rule]
        for g in metg["result"]["graphs"]:
            entries = [g["backends"].get(b, {}) for b in backends]
            keys = [metg_order(x) for x in entries]
            # only a METG that was reached can be best ("> bound" says nothing of the order)
            reached = [k for x, k in zip(entries, keys)
                       if k is not None and x.get("metg_kind") != "above_largest"]
            top = min(reached) if reached else None
            cells = []
            for b, x, k in zip(backends, entries, keys):
                t = metg_text(x) + metg_mark(x, reached_in_efficiency_run(eff, g["graph"], b))
                best = k is not None and k == top and len(entries) > 1
                cells.append(f"**{t}**" if best else t)
            lines.append(f"| {g['graph']} | " + " | ".join(cells) + " |")
        lines.append("")

    conc = [(n, runs[n]) for n in ("concurrency-200us", "concurrency-2ms") if runs[n]]
    if conc:
        lines.append("**Mean concurrency** of load peaks (10..N isolated jobs due at once; "
                     "workers busy on average, higher is better):")
        lines.append("")
        lines += [head, rule]
        for name, e in conc:
            res = e["result"]
            by = res.get("backends", {})
            vals = [num(by.get(b, {}).get("mean_concurrency")) for b in backends]
            label = f"jobs of {name.split('-', 1)[1]}"
            lines.append(fmt_row(label, vals, lambda v: "n/a" if v is None else f"{v:.2f}", max))
        lines.append("")

    spawn = runs["spawn"]
    if spawn:
        lines += spawn_tables(spawn["result"], backends)
        lines += spawn_coroutine_table(spawn["result"])
    if runs["loop"]:
        lines += loop_tables(runs["loop"]["result"], backends)

    lines.append("Load average during each run (2 cores; above ~1 the figures include "
                 "competition for the CPU):")
    lines.append("")
    for name, e in runs.items():
        if e:
            lines.append(environment_line(name, e))
    verified = []
    for name, e in runs.items():
        if e and "runs_verified" in e["result"]:
            verified.append(f"{name}: {e['result']['runs_verified']} of "
                            f"{e['result']['runs_total']} runs verified")
    if verified:
        lines.append("- " + "; ".join(verified) +
                     " (completed, graph hash right, every node exactly once)")
    if spawn:
        points = [p for s in spawn["result"]["shapes"] for b in s["backends"]
                  for p in b["points"]]
        lines.append(f"- spawn: {sum(p['verified'] for p in points)} of "
                     f"{sum(p['runs'] for p in points)} runs verified (the recursion's result "
                     f"right)")
    if runs["loop"]:
        lines.append(loop_verified_line(runs["loop"]))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
