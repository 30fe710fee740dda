#!/usr/bin/env python3
"""Interleaved pullsched vs oneTBB (and, for the parallel loop, OpenMP) comparison with
scheduler_bench.

Each round runs the binary once per library (one process each, the order alternating
between rounds so neither library always runs first), records `uptime` before and after
every process, and keeps the console and JSON output. At the end it prints, per graph and
variant, the median ns/job of each library over the rounds, the spread (min-max), the
ratio pullsched / TBB, pullsched's scheduler counters, and the timing figures (lateness,
idle CPU) with the load averages of every process. Python 3 standard library only.

  tools/bench/compare.py --rounds 3 --out out/bench            # ~5 min on 2 cores
  tools/bench/compare.py --summarize data/results/bench      # table from saved JSON only
  tools/bench/compare.py --before /tmp/old_bench --rounds 3 --out DIR
      # also runs an older build's pullsched benchmarks in every round ("before" columns)
  tools/bench/compare.py --bench-workers 1 --filter pullsched='^BM_Sched_(Timed|BatchExec)_' \
      --filter tbb='^BM_Tbb_Exec_' --rounds 5 --out DIR      # timed gate vs batch, 2 threads
"""

import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import time

LIBS = {
    "pullsched": r"^BM_Sched_(Post|Batch|Exec|BatchExec|Timed)_|^BM_Sched_PendingLateness|^BM_Sched_IdleCpu"
                 r"|^BM_Sched_(Fib|Skynet|Spawn16|BatchSpawn16)/",
    "tbb": r"^BM_Tbb_(Post|Exec)_|^BM_Tbb_IdleCpu|^BM_Ctl_SleepSpinLateness"
           r"|^BM_Tbb_(Fib|Skynet|Spawn16)/",
}
# Post + run and batch + run (BM_Sched_Post_*, BM_Sched_Batch_*) both have oneTBB's build +
# run (BM_Tbb_Post_*) as their twin; Exec and BatchExec (a prebuilt PostBatch submitted and
# drained) have BM_Tbb_Exec_*.
TWIN = {"Post": "Post", "Batch": "Post", "Exec": "Exec", "BatchExec": "Exec"}
# RecursiveBench.cpp: pullsched name -> its oneTBB twin, compared by ns_per_call (Fib,
# Skynet) or by the wall time of one iteration (the Spawn16 cases).
RECURSIVE = [("Fib", "Fib"), ("Skynet", "Skynet"), ("Spawn16", "Spawn16"),
             ("BatchSpawn16", "Spawn16")]
# CoroutineBench.cpp: the recursions written with Tasks (BM_Coro_*, one worker and the
# helping caller: two threads), run with pullsched's benchmarks and set beside their
# continuation-style (BM_Sched_*) and oneTBB (BM_Tbb_*) twins on two threads
# (coroutine_section).
LIBS["pullsched"] += r"|^BM_Coro_(Fib|Skynet|SkynetWhenAll)/"
CORO = [("Fib", "Fib"), ("Skynet", "Skynet"), ("SkynetWhenAll", "Skynet")]

# ---- Parallel loop (LoopBench.cpp, MatMulBench.cpp, issue 49): BM_{Sched,Tbb,Omp}_Loop{,1us}/<n>
# and _MatMul/<N>, all in scheduler_bench; OpenMP runs as a library of its own, a process per
# round like the others.
LOOP_LIBS = {"pullsched": r"^BM_Sched_(Loop|MatMul)", "tbb": r"^BM_Tbb_(Loop|MatMul)",
             "openmp": r"^BM_Omp_(Loop|MatMul)"}
LOOP_PREFIX = {"pullsched": "BM_Sched_", "tbb": "BM_Tbb_", "openmp": "BM_Omp_"}
LIBS = {lib: "|".join(r for r in (LIBS.get(lib), LOOP_LIBS.get(lib)) if r)
        for lib in list(LIBS) + [lib for lib in LOOP_LIBS if lib not in LIBS]}


def loop_section(runs):
    """Per loop and size: the median wall time of one loop (µs) of each library over the
    rounds, and pullsched / the better of oneTBB and OpenMP."""
    def size_of(name, prefix):  # "BM_Sched_Loop1us/4096/real_time" -> 4096
        if not name.startswith(prefix):
            return None
        n = name[len(prefix):].split("/")[0]
        return int(n) if n.isdigit() else None

    def micros(b):
        scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b.get("time_unit", "ns")]
        return float(b["real_time"]) * scale

    def values(lib, prefix, n):
        return collect(runs, lib, lambda name: size_of(name, prefix) == n, micros)

    head = ("| loop | n | pullsched µs | spread | oneTBB µs | spread | OpenMP µs | spread "
            "| pullsched / best peer |")
    lines = ["## Parallel loop (LoopBench): µs per loop, median of rounds (min–max)", "",
             "pullsched runs its bench workers beside a helping caller "
             "(PULLSCHED_BENCH_WORKERS=1: the peers' thread count).", "", head,
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for loop in ("Loop", "Loop1us", "MatMul"):
        prefixes = {lib: f"{p}{loop}/" for lib, p in LOOP_PREFIX.items()}
        sizes = sorted({size_of(b["name"], prefixes[lib]) for (lib, _), bs in runs.items()
                        if lib in prefixes for b in bs} - {None})
        for n in sizes:
            v = {lib: values(lib, prefixes[lib], n) for lib in LOOP_PREFIX}
            peers = [statistics.median(v[lib]) for lib in ("tbb", "openmp") if v[lib]]
            ratio = (f"{statistics.median(v['pullsched']) / min(peers):.2f}"
                     if v["pullsched"] and peers else "-")
            cells = " | ".join(" | ".join(spread(v[lib], "{:.1f}")) for lib in LOOP_PREFIX)
            lines.append(f"| {loop} | {n} | {cells} | {ratio} |")
    return lines + [""]


# ---- end of the parallel loop's block

GRAPHS = ["Burst16", "Burst64", "Burst1024", "Stationary256", "Chains1024", "Isolated10k", "Chain10k",
          "Grid100x100", "Fan1000"]
SCHED_COUNTERS = ["wakeups", "parks", "contin", "steals", "token_cont", "backoff_sleeps", "moves"]
POST_COUNTERS = ["post_ns_per_job", "poster_invol_cs"]
GRAPH_RE = re.compile(r"^BM_(Sched|Tbb)_(Post|Batch|Exec|BatchExec)_([^/]+)")


def uptime():
    out = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    m = re.search(r"load average:\s*(.*)$", out)
    return m.group(1) if m else out


def run_round(binaries, rnd, out_dir, extra, log, filters=LIBS):
    order = list(binaries) if rnd % 2 == 1 else list(reversed(list(binaries)))
    for lib in order:
        binary = binaries[lib]
        stem = os.path.join(out_dir, f"round{rnd}-{lib}")
        before = uptime()
        t0 = time.monotonic()
        with open(stem + ".txt", "w") as console:
            rc = subprocess.run(
                [binary, f"--benchmark_filter={filters['pullsched' if lib == 'before' else lib]}", f"--benchmark_out={stem}.json",
                 "--benchmark_out_format=json", *extra],
                stdout=console, stderr=subprocess.STDOUT).returncode
        secs = time.monotonic() - t0
        after = uptime()
        line = (f"round {rnd} {lib:9} rc={rc} {secs:6.1f} s  load before: {before}"
                f"  after: {after}")
        print(line, flush=True)
        log.write(line + "\n")
        log.flush()


def load_runs(out_dir):
    """{(lib, round): [benchmark entries]} from the saved JSON files."""
    runs = {}
    for f in sorted(os.listdir(out_dir)):
        m = re.match(r"round(\d+)-(\w+)\.json$", f)
        if not m:
            continue
        with open(os.path.join(out_dir, f)) as fh:
            data = json.load(fh)
        runs[(m.group(2), int(m.group(1)))] = [
            b for b in data.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]
    return runs


def spread(values, fmt="{:.0f}"):
    if not values:
        return "-", "-"
    med = statistics.median(values)
    return fmt.format(med), (fmt + "–" + fmt).format(min(values), max(values))


def collect(runs, lib, pred, key):
    vals = []
    for (l, _), benches in sorted(runs.items()):
        if l != lib:
            continue
        for b in benches:
            if not pred(b["name"]) or b.get("error_occurred"):
                continue
            if callable(key):
                vals.append(key(b))
            elif key in b:
                vals.append(float(b[key]))
    return vals


def measured(runs, out_dir):
    """Where and when: the first JSON's context and the first line of loads.txt (its date,
    commit, CPUs and binary), and the commands that remake the run and this table."""
    ctx = next((json.load(open(os.path.join(out_dir, f))).get("context", {})
                for f in sorted(os.listdir(out_dir)) if re.match(r"round\d+-\w+\.json$", f)), {})
    loads = os.path.join(out_dir, "loads.txt")
    head = open(loads).readline().strip() if os.path.exists(loads) else "no loads.txt"
    return [f"- **Run**: {head}.",
            f"- **Machine**: {ctx.get('host_name', '?')}, {ctx.get('num_cpus', '?')} CPUs at "
            f"{ctx.get('mhz_per_cpu', '?')} MHz; load averages of every process at the end.",
            f"- **Files**: `{out_dir}`: roundN-LIB.json (Google Benchmark JSON), loads.txt.",
            f"- **Regenerate**: `tools/bench/compare.py --rounds {len({r for (_, r) in runs})} "
            f"--out DIR` (a new run), `tools/bench/compare.py --summarize {out_dir}` (this table)."]


def workers_setting(out_dir):
    """PULLSCHED_BENCH_WORKERS of the run as loads.txt's first line records it."""
    loads = os.path.join(out_dir, "loads.txt")
    head = open(loads).readline() if os.path.exists(loads) else ""
    m = re.search(r"PULLSCHED_BENCH_WORKERS=(\S+?),?\s", head + " ")
    if not m:
        return "PULLSCHED_BENCH_WORKERS not recorded"
    if m.group(1) == "unset":
        return ("PULLSCHED_BENCH_WORKERS unset: pullsched 2 workers + the helping caller "
                "(3 threads), oneTBB an arena of 2")
    return (f"PULLSCHED_BENCH_WORKERS={m.group(1)}: pullsched {m.group(1)} worker(s) + the "
            f"helping caller, oneTBB an arena of 2")


def timed_gate_section(runs, out_dir):
    """Issue 49's first cell: a graph released by a timed gate job (BM_Sched_Timed) against
    the same graph as a prebuilt PostBatch submitted and drained (BM_Sched_BatchExec) and
    oneTBB's prebuilt flow graph (BM_Tbb_Exec), median ns per job of each."""
    def median_ns(lib, prefix):
        # the median iteration; oneTBB's Exec had only the mean before it had the median
        pred = lambda n: n.startswith(prefix)
        return (collect(runs, lib, pred, "median_ns_per_job")
                or collect(runs, lib, pred, "ns_per_job"))

    def ratio(a, b):
        return f"{statistics.median(a) / statistics.median(b):.2f}" if a and b else "-"

    lines = ["## Timed gate vs batch: ns/job (median iteration), median of rounds (min–max)", "",
             f"Threads: {workers_setting(out_dir)}. Timed: the graph behind a gate job with a "
             "real start, timed from the gate's run; BatchExec: the same graph built into a "
             "PostBatch untimed, submit + drain timed. Target: Timed / BatchExec ≤ 1.1, "
             "Timed / TBB ≤ 1.0.", "",
             "| graph | Timed | spread | BatchExec | spread | TBB Exec | spread "
             "| Timed / BatchExec | Timed / TBB |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for g in GRAPHS:
        t = median_ns("pullsched", f"BM_Sched_Timed_{g}/")
        if not t:
            continue
        b = median_ns("pullsched", f"BM_Sched_BatchExec_{g}/")
        x = median_ns("tbb", f"BM_Tbb_Exec_{g}/")
        lines.append(f"| {g} | {' | '.join(spread(t))} | {' | '.join(spread(b))} | "
                     f"{' | '.join(spread(x))} | {ratio(t, b)} | {ratio(t, x)} |")
    return lines + [""]


# The small recursions of issue 49 (RecursiveBench.cpp): case, as in the benchmark's name.
SMALL_RECURSIONS = [("Fib", "n:20"), ("Skynet", "depth:4"), ("Skynet", "depth:5")]


def small_recursions_section(runs):
    """fib(20) and skynet depth 4 and 5, pullsched against oneTBB on the same W threads."""
    lines = ["## Small recursions: ns per call, median of rounds (min–max)", "",
             "W threads for both: pullsched W workers (the thread in drainFor() not helping), "
             "oneTBB an arena of W (its caller one of them); PULLSCHED_BENCH_WORKERS does not "
             "apply.", "",
             "| recursion | W | pullsched | spread | oneTBB | spread | ratio |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name, case in SMALL_RECURSIONS:
        for w in (1, 2):
            tail = f"/{case}/workers:{w}/"
            s = collect(runs, "pullsched", lambda n: n.startswith(f"BM_Sched_{name}{tail}"),
                        "ns_per_call")
            t = collect(runs, "tbb", lambda n: n.startswith(f"BM_Tbb_{name}{tail}"),
                        "ns_per_call")
            if not s and not t:
                continue
            ratio = f"{statistics.median(s) / statistics.median(t):.2f}" if s and t else "-"
            lines.append(f"| {name.lower()} {case.split(':')[1]} | {w} | {' | '.join(spread(s))} "
                         f"| {' | '.join(spread(t))} | {ratio} |")
    return lines + [""]


def recursive_section(runs, has_before):
    """RecursiveBench.cpp: work created inside jobs, and 16 jobs posted and waited for."""
    def case(name, prefix):  # "BM_Sched_Fib/n:20/workers:1/min_time:0.500/real_time"
        rest = name[len(prefix):]
        return "/".join(p for p in rest.split("/") if ":" in p and not p.startswith("min_time"))

    def per_call(b):
        return float(b["ns_per_call"]) if "ns_per_call" in b else float(b["real_time"]) * 1e3

    def values(lib, prefix, c):
        return collect(runs, lib, lambda n: n.startswith(prefix) and case(n, prefix) == c, per_call)

    head = "| benchmark | pullsched | spread | oneTBB | spread | ratio |"
    rule = "|---|---:|---:|---:|---:|---:|"
    if has_before:
        head, rule = head + " before | after/before |", rule + "---:|---:|"
    lines = ["## Work created inside jobs (RecursiveBench): ns per call (Spawn16: ns per "
             "graph), median of rounds (min–max)", "", head, rule]
    for mine, twin in RECURSIVE:
        prefix, tprefix = f"BM_Sched_{mine}/", f"BM_Tbb_{twin}/"
        cases = sorted({case(b["name"], prefix) for (l, _), bs in runs.items() if l == "pullsched"
                        for b in bs if b["name"].startswith(prefix)})
        for c in cases:
            s, t = values("pullsched", prefix, c), values("tbb", tprefix, c)
            ratio = f"{statistics.median(s) / statistics.median(t):.2f}" if s and t else "-"
            row = (f"| {mine}{'/' + c if c else ''} | {' | '.join(spread(s))} | "
                   f"{' | '.join(spread(t))} | {ratio} |")
            if has_before:
                b = values("before", prefix, c)
                gain = f"{statistics.median(s) / statistics.median(b):.2f}" if s and b else "-"
                row += f" {spread(b)[0]} | {gain} |"
            lines.append(row)
    return lines + [""]


def coroutine_section(runs):
    """CoroutineBench.cpp beside RecursiveBench.cpp: each BM_Coro_ case (two threads) with
    the BM_Sched_ and BM_Tbb_ case of its size at workers:2, ns per call, and the ratios of
    the medians. None when the rounds ran no BM_Coro_ benchmark."""
    def size(name):  # "BM_Coro_Fib/n:25/min_time:0.500/real_time" -> "n:25"
        return next((p for p in name.split("/")[1:] if p.startswith(("n:", "depth:"))), "")

    def values(lib, prefix, c, workers=""):
        return collect(runs, lib, lambda n: n.startswith(prefix) and size(n) == c
                       and workers in n, "ns_per_call")

    lines = ["## Coroutines (CoroutineBench) beside continuations and oneTBB (RecursiveBench) "
             "on two threads: ns per call, median of rounds (min–max)", "",
             "| benchmark | coroutines | spread | continuations | oneTBB | coro / cont "
             "| coro / oneTBB |", "|---|---:|---:|---:|---:|---:|---:|"]
    rows = 0
    for mine, twin in CORO:
        prefix = f"BM_Coro_{mine}/"
        cases = sorted({size(b["name"]) for (l, _), bs in runs.items() if l == "pullsched"
                        for b in bs if b["name"].startswith(prefix)})
        for c in cases:
            k = values("pullsched", prefix, c)
            s = values("pullsched", f"BM_Sched_{twin}/", c, "/workers:2/")
            t = values("tbb", f"BM_Tbb_{twin}/", c, "/workers:2/")
            ratio = lambda a, b: (f"{statistics.median(a) / statistics.median(b):.2f}"
                                  if a and b else "-")
            lines.append(f"| {mine}/{c} | {' | '.join(spread(k, '{:.1f}'))} | "
                         f"{spread(s, '{:.1f}')[0]} | {spread(t, '{:.1f}')[0]} | {ratio(k, s)} "
                         f"| {ratio(k, t)} |")
            rows += 1
    return lines + [""] if rows else []


def summarize(out_dir):
    runs = load_runs(out_dir)
    rounds = sorted({r for (_, r) in runs})
    lines = [f"# scheduler_bench: pullsched vs oneTBB, {len(rounds)} interleaved rounds",
             ""] + measured(runs, out_dir) + [""]
    errors = [f"{l} round {r}: {b['name']}: {b.get('error_message')}"
              for (l, r), bs in sorted(runs.items()) for b in bs if b.get("error_occurred")]
    if errors:
        lines += ["Errors (excluded from the medians):", ""] + [f"- {e}" for e in errors] + [""]

    has_before = any(l == "before" for (l, _) in runs)
    for variant, title in [("Post", "posting timed (post + drain; TBB: build + run)"),
                           ("Batch", "one PostBatch timed (batch + submit + drain; TBB: build + run)"),
                           ("Exec", "execution only (graph posted behind a gate)"),
                           ("BatchExec", "execution of a prebuilt graph (PostBatch built untimed; "
                                         "submit + drain timed; TBB: Exec)")]:
        lines += [f"## {title}: ns/job, median of rounds (min–max)", ""]
        if has_before:
            lines += ["| graph | before | spread | pullsched | spread | TBB | spread | ratio "
                      "| after/before |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        else:
            lines += ["| graph | pullsched | spread | TBB | spread | ratio |",
                      "|---|---:|---:|---:|---:|---:|"]
        for g in GRAPHS:
            name = f"_{variant}_{g}"
            s = collect(runs, "pullsched", lambda n: n.startswith("BM_Sched" + name + "/"),
                        "ns_per_job")
            twin = f"BM_Tbb_{TWIN[variant]}_{g}/"
            t = collect(runs, "tbb", lambda n: n.startswith(twin), "ns_per_job")
            ratio = (f"{statistics.median(s) / statistics.median(t):.2f}" if s and t else "-")
            if has_before:
                b = collect(runs, "before", lambda n: n.startswith("BM_Sched" + name + "/"),
                            "ns_per_job")
                gain = (f"{statistics.median(s) / statistics.median(b):.2f}" if s and b else "-")
                lines.append(f"| {g} | {' | '.join(spread(b))} | {' | '.join(spread(s))} | "
                             f"{' | '.join(spread(t))} | {ratio} | {gain} |")
            else:
                lines.append(f"| {g} | {' | '.join(spread(s))} | {' | '.join(spread(t))} | "
                             f"{ratio} |")
        lines.append("")
        posting = variant in ("Post", "Batch")
        counters = (SCHED_COUNTERS + (POST_COUNTERS if posting else [])
                    + (["gate_ns"] if variant == "Exec" else []))
        # Post runs measure process CPU: cores kept busy per wall second, both libraries.
        cpu = ["cpu/wall", "TBB cpu/wall"] if posting else []
        lines += [f"pullsched counters per graph run ({variant}), median of rounds:", "",
                  "| graph | jobs | " + " | ".join(counters + cpu) + " |",
                  "|---|---:|" + "---:|" * len(counters + cpu)]
        busy = lambda b: float(b["cpu_time"]) / float(b["real_time"])
        for g in GRAPHS:
            pred = lambda n, g=g: n.startswith(f"BM_Sched_{variant}_{g}/")
            jobs = collect(runs, "pullsched", pred, "jobs")
            cells = [spread(collect(runs, "pullsched", pred, c), "{:.2f}")[0] for c in counters]
            if cpu:
                tpred = lambda n, g=g: n.startswith(f"BM_Tbb_{TWIN[variant]}_{g}/")
                cells += [spread(collect(runs, "pullsched", pred, busy), "{:.2f}")[0],
                          spread(collect(runs, "tbb", tpred, busy), "{:.2f}")[0]]
            lines.append(f"| {g} | {spread(jobs)[0]} | " + " | ".join(cells) + " |")
        lines.append("")

    counters = ["ns_per_job"] + SCHED_COUNTERS
    lines += ["## pullsched only: graph behind a gate with a real start (the rig's path)", "",
              "Median of rounds: " + ", ".join(counters) + " per graph run.", "",
              "| graph | jobs | " + " | ".join(counters) + " |",
              "|---|---:|" + "---:|" * len(counters)]
    for g in GRAPHS:
        pred = lambda n, g=g: n.startswith(f"BM_Sched_Timed_{g}/")
        cells = [spread(collect(runs, "pullsched", pred, c), "{:.2f}")[0] for c in counters]
        lines.append(f"| {g} | {spread(collect(runs, 'pullsched', pred, 'jobs'))[0]} | "
                     + " | ".join(cells) + " |")
    lines.append("")

    lines += timed_gate_section(runs, out_dir)
    lines += recursive_section(runs, has_before)
    lines += coroutine_section(runs)
    lines += small_recursions_section(runs)
    lines += loop_section(runs)
    lines += ["## Timing figures, median of rounds (min–max)", "",
              "| benchmark | figure | median | spread |", "|---|---|---:|---:|"]
    # cpu_ms_per_s: the whole process, the benchmark's own thread included;
    # worker_cpu_ms_per_s: the scheduler's threads alone
    idle_keys = ["cpu_ms_per_s", "worker_cpu_ms_per_s", "parks_per_s"]
    timing = [("pullsched", "BM_Sched_PendingLateness", ["p50_us", "p99_us", "max_us",
                                                         "wakeups_per_job", "parks_per_job"]),
              ("tbb", "BM_Ctl_SleepSpinLateness", ["p50_us", "p99_us", "max_us"]),
              # rest_ms:0 (or no rest_ms, runs before it existed): right after activity;
              # rest_ms:6100: idle for a while (see TimingBench.cpp)
              ("pullsched", "BM_Sched_IdleCpu/window_ms:2000/far_job:0/rest_ms:0/",
               idle_keys),
              ("pullsched", "BM_Sched_IdleCpu/window_ms:2000/far_job:1/rest_ms:0/",
               idle_keys),
              ("pullsched", "BM_Sched_IdleCpu/window_ms:2000/far_job:0/rest_ms:6100/",
               idle_keys),
              ("pullsched", "BM_Sched_IdleCpu/window_ms:2000/far_job:1/rest_ms:6100/",
               idle_keys),
              ("tbb", "BM_Tbb_IdleCpu", idle_keys[:2])]
    if has_before:
        timing += [("before", p, k) for (l, p, k) in timing if l == "pullsched"]
    for lib, prefix, keys in timing:
        for k in keys:
            old = prefix.replace("/rest_ms:0/", "/iterations")
            med, sp = spread(collect(runs, lib, lambda n: n.startswith((prefix, old)), k),
                             "{:.2f}")
            label = f"{prefix} (before)" if lib == "before" else prefix
            lines.append(f"| {label} | {k} | {med} | {sp} |")
    lines.append("")

    loads = os.path.join(out_dir, "loads.txt")
    if os.path.exists(loads):
        lines += ["## Load averages (1, 5, 15 min) before/after each process", "", "```"]
        lines += open(loads).read().rstrip().splitlines()
        lines += ["```", ""]
    text = "\n".join(lines)
    with open(os.path.join(out_dir, "summary.md"), "w") as fh:
        fh.write(text)
    print(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default="build/bin/scheduler_bench")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default=os.path.join("out", "bench"))
    ap.add_argument("--summarize", metavar="DIR", help="only print the table of a saved run")
    ap.add_argument("--before", metavar="BINARY",
                    help="an older scheduler_bench: its pullsched benchmarks run in every round too")
    ap.add_argument("--filter", action="append", default=[], metavar="LIB=REGEX",
                    help="run only these benchmarks of LIB (pullsched, also for --before, or "
                         "tbb) instead of its default set, e.g. tbb='^BM_Tbb_Post_'")
    ap.add_argument("--bench-workers", type=int, metavar="N",
                    help="sets PULLSCHED_BENCH_WORKERS=N for every process (1: one worker "
                         "beside the helping caller, 2 threads as oneTBB's arena); default: "
                         "the environment's, recorded in loads.txt either way")
    ap.add_argument("extra", nargs="*", help="passed to the binary (after --)")
    args = ap.parse_args()
    if args.summarize:
        summarize(args.summarize)
        return 0
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"{args.binary}: not found; build the scheduler_bench target first")
    filters = dict(LIBS)
    for f in args.filter:
        lib, _, regex = f.partition("=")
        if lib not in LIBS or not regex:
            sys.exit(f"--filter {f}: expected LIB=REGEX, LIB one of {', '.join(LIBS)}")
        filters[lib] = regex
    if args.bench_workers is not None:
        if args.bench_workers < 1:
            sys.exit(f"--bench-workers {args.bench_workers}: expected 1 or more")
        os.environ["PULLSCHED_BENCH_WORKERS"] = str(args.bench_workers)  # the children's
    workers = os.environ.get("PULLSCHED_BENCH_WORKERS", "unset")
    print(f"compare: PULLSCHED_BENCH_WORKERS={workers}", flush=True)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "loads.txt"), "w") as log:
        commit = subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True,
                                text=True).stdout.strip() or "unknown"
        log.write(f"{datetime.datetime.utcnow():%Y-%m-%d %H:%M:%S} UTC, commit {commit}, "
                  f"{os.cpu_count()} CPUs, {args.rounds} rounds, binary {args.binary}, "
                  f"PULLSCHED_BENCH_WORKERS={workers}\n")
        for rnd in range(1, args.rounds + 1):
            binaries = {lib: args.binary for lib in LIBS}
            if args.before:
                binaries = {"before": args.before, **binaries}
            run_round(binaries, rnd, args.out, args.extra, log, filters)
    summarize(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
