#!/usr/bin/env python3
"""spire run on the amber corpus: the time to run it, and the runner's overhead per test.

Usage: bench/amber.py --build <build dir> [--corpus <dir of *.amber, *.vkscript>] [--runs N]

Prints, for the Vulkan device spire run picks (lavapipe without a GPU), with and without the
validation layers:
  - the corpus: wall time of `spire run -j2` over every script (the CTS side files applied), and
    of `spire run -j1`, with the pass/skip counts;
  - per test, from `spire run --format json` (one process, one device for all scripts): time in
    shader compilation, pipeline creation and commands; the instance and device creation of the
    process (from --stats), spread over the scripts;
  - one test in its own process (`spire run examples/scale.amber`, like a CTS-style harness
    that starts a process per test): wall time, and what of it is overhead: process start
    (`spire-run --help`), instance and device creation, pipeline creation, each as a share.
The goal: under 50 ms of overhead per test on lavapipe.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time


def run(cmd, env=None):
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return time.perf_counter() - start, p


def median_time(cmd, runs, env=None):
    times = []
    last = None
    for _ in range(runs):
        t, last = run(cmd, env)
        times.append(t)
    return statistics.median(times), last


def stats_line(stderr):
    m = re.search(r"instance and device ([0-9.]+) ms \(instance ([0-9.]+), device ([0-9.]+)\), "
                  r"shaders ([0-9.]+) ms, pipelines ([0-9.]+) ms, commands ([0-9.]+) ms", stderr)
    return [float(x) for x in m.groups()] if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--corpus")
    ap.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", "3")))
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spire = os.path.join(args.build, "tools", "spire", "spire")
    runner = os.path.join(args.build, "tools", "spire", "spire-run")
    corpus = args.corpus or os.path.join(root, "..", "shared", "corpus", "amber")
    if not os.path.isdir(corpus):
        print(f"bench amber: no corpus at {corpus}", file=sys.stderr)
        return 0
    scripts = sorted(os.path.join(corpus, f) for f in os.listdir(corpus)
                     if f.endswith(".amber") or f.endswith(".vkscript"))
    side = []
    for name in ("amber-cts-requirements.txt", "amber-driver-bugs.txt"):
        side += ["--requirements", os.path.join(root, "tests", "corpus", name)]
    t, probe = run([spire, "run", "--list-devices"])
    if probe.returncode != 0:
        print(f"bench amber: no Vulkan device: {probe.stderr.strip()}", file=sys.stderr)
        return 0
    device = probe.stdout.strip().splitlines()[0] if probe.stdout.strip() else "?"
    print(f"[6] spire run on the amber corpus ({len(scripts)} scripts), device {device}, "
          f"median of {args.runs} runs")
    example = os.path.join(root, "examples", "scale.amber")
    results = {}
    for layers in (False, True):
        flag = [] if layers else ["--no-validation-layers"]
        label = "validation layers on " if layers else "validation layers off"
        for jobs in ("-j2", "-j1"):
            wall, p = median_time([spire, "run", jobs, "--stats"] + flag + side + scripts, args.runs)
            summary = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else "?"
            print(f"  corpus {jobs}, {label}: {wall:7.2f} s  ({summary})")
            results[(layers, jobs)] = wall
        # Per test in one process.
        _, p = run([spire, "run", "-j1", "--stats", "--format", "json"] + flag + side + scripts)
        rows = [json.loads(l) for l in p.stdout.splitlines() if l.startswith('{"file"')]
        ran = [r for r in rows if r["status"] != "skip"]
        s = stats_line(p.stderr)
        device_ms = s[0] if s else 0.0
        compile_ms = statistics.mean(r["compile_ms"] for r in ran)
        pipeline_ms = statistics.mean(r["pipeline_ms"] for r in ran)
        run_ms = statistics.mean(r["run_ms"] for r in ran)
        print(f"  per test in one process ({len(ran)} run, {label}): shaders {compile_ms:.1f} ms, "
              f"pipelines {pipeline_ms:.1f} ms, commands {run_ms:.1f} ms; instance and device "
              f"{device_ms:.0f} ms once ({device_ms / max(len(rows), 1):.1f} ms a script)")
        # One test, one process.
        wall, p = median_time([spire, "run", "--stats"] + flag + [example], max(args.runs, 5))
        start, _ = median_time([runner, "--help"], max(args.runs, 5))
        startd, _ = median_time([spire, "run", "--help"], max(args.runs, 5))
        _, pj = run([spire, "run", "--format", "json", "--stats"] + flag + [example])
        row = json.loads(pj.stdout.splitlines()[0])
        sj = stats_line(pj.stderr)
        dev = sj[0] if sj else 0.0
        overhead = startd * 1000 + dev + row["pipeline_ms"]
        total = wall * 1000
        print(f"  one test, one process ({label}): {total:.1f} ms; process start {startd * 1000:.1f}"
              f" ms (spire-run alone {start * 1000:.1f} ms) = {startd * 1000 / total:.0%}, instance "
              f"and device {dev:.1f} ms = {dev / total:.0%}, pipeline {row['pipeline_ms']:.1f} ms = "
              f"{row['pipeline_ms'] / total:.0%}; overhead {overhead:.1f} ms = {overhead / total:.0%}"
              f" (goal: under 50 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
