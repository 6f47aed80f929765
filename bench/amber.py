#!/usr/bin/env python3
"""spire run on the amber corpus: the time to run it, and the runner's overhead per test.

Usage: bench/amber.py --build <build dir> [--corpus <dir of *.amber, *.vkscript>] [--runs N]
                      [--no-corpus]

Prints, for the Vulkan device spire run picks (lavapipe without a GPU):
  [6a] the corpus: wall time of `spire run -j2` and `-j1` over every script (the CTS side files
       applied), with and without the validation layers, with the pass/skip counts;
  [6b] per test in one process (`spire run -j1 --format json --stats`, one device for every
       script): shader compilation, pipeline creation and commands per test that ran, and the
       instance and device creation of the process spread over the scripts; the overhead per
       test (pipelines and the shared start-up) against the goal;
  [6c] one script per process, as a harness that starts a process per test runs it: the same
       computation as SPIR-V assembly (bench/amber/scale-spvasm.amber) and as GLSL
       (examples/scale.amber), with and without the validation layers, with the default device
       and with --device lavapipe (its driver alone). Wall and CPU time of the whole process
       (user + system, from wait4) and its phases from --stats (wall): instance (the loader
       loading the drivers and layers), device, shaders (glslang's built-in tables on the first
       GLSL compile), pipelines, commands; the overhead is the total less the commands. The main
       thread compiles the shaders while a worker makes the device, so the phases can add up to
       more than the total. Above the table: process start (`spire run --help`) and a floor,
       `spire run --list-devices` (the loader, every driver and an instance, no layers), what
       any Vulkan program pays before its first device;
  [6d] glslang's one-time cost inside a process: the GLSL script run twice in one process,
       its compile time the first time and the second.
The goal (issue 16): under 50 ms of overhead per test on lavapipe.
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
    """(wall seconds, CompletedProcess) of one run."""
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return time.perf_counter() - start, p


def run_cpu(cmd, env=None):
    """(wall s, CPU s, returncode, stdout, stderr) of one run, CPU from wait4."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, p.returncode, out, err


def median_time(cmd, runs, env=None):
    times = []
    last = None
    for _ in range(runs):
        t, last = run(cmd, env)
        times.append(t)
    return statistics.median(times), last


STATS = re.compile(r"instance and device ([0-9.]+) ms \(instance ([0-9.]+), device ([0-9.]+)\), "
                   r"shaders ([0-9.]+) ms, pipelines ([0-9.]+) ms, commands ([0-9.]+) ms")


def stats_line(stderr):
    m = STATS.search(stderr)
    return [float(x) for x in m.groups()] if m else None


def corpus_sections(spire, scripts, side, runs):
    for layers in (False, True):
        flag = [] if layers else ["--no-validation-layers"]
        label = "validation layers on " if layers else "validation layers off"
        for jobs in ("-j2", "-j1"):
            wall, p = median_time([spire, "run", jobs, "--stats"] + flag + side + scripts, runs)
            summary = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else "?"
            print(f"  [6a] corpus {jobs}, {label}: {wall:7.2f} s  ({summary})")
        # Per test in one process.
        wall, p = run([spire, "run", "-j1", "--stats", "--format", "json"] + flag + side + scripts)
        rows = [json.loads(l) for l in p.stdout.splitlines() if l.startswith('{"file"')]
        ran = [r for r in rows if r["status"] != "skip"]
        s = stats_line(p.stderr)
        device_ms = s[0] if s else 0.0
        compile_ms = statistics.mean(r["compile_ms"] for r in ran)
        pipeline_ms = statistics.mean(r["pipeline_ms"] for r in ran)
        run_ms = statistics.mean(r["run_ms"] for r in ran)
        # Overhead: the instance and device (once) and every pipeline, per script of the run.
        total_ms = wall * 1000
        overhead = (device_ms + sum(r["pipeline_ms"] for r in rows)) / max(len(rows), 1)
        print(f"  [6b] per test in one process ({len(ran)} of {len(rows)} scripts run, {label}): "
              f"shaders {compile_ms:.1f} ms, pipelines {pipeline_ms:.1f} ms, commands "
              f"{run_ms:.1f} ms a test run; instance and device {device_ms:.0f} ms once; "
              f"overhead {overhead:.1f} ms a script = {overhead * len(rows) / total_ms:.0%} of "
              f"{total_ms / len(rows):.1f} ms ({'meets' if overhead < 50 else 'misses'} the 50 ms "
              f"goal)")


def process_table(spire, root, runs):
    asm = os.path.join(root, "bench", "amber", "scale-spvasm.amber")
    glsl = os.path.join(root, "examples", "scale.amber")
    n = max(runs, 5)
    starts = [run_cpu([spire, "run", "--help"]) for _ in range(n)]
    start_wall = statistics.median(s[0] for s in starts) * 1000
    start_cpu = statistics.median(s[1] for s in starts) * 1000
    floors = [run_cpu([spire, "run", "--list-devices"]) for _ in range(n)]
    print(f"  [6c] one script per process, median of {n} (ms; wall, CPU of the process in "
          f"brackets; phases are wall, from --stats; the overhead is all but the commands: process "
          f"start and exit, instance, device, shaders, pipelines, as a share of the total):")
    print(f"       process start (spire run --help): {start_wall:.1f} ({start_cpu:.1f}); floor "
          f"(spire run --list-devices: loader, every driver, an instance): "
          f"{statistics.median(f[0] for f in floors) * 1000:.0f} "
          f"({statistics.median(f[1] for f in floors) * 1000:.0f})")
    header = (f"       {'script':11} {'layers':6} {'device':8} {'total':>13} {'instance':>8} "
              f"{'device':>7} {'shaders':>7} {'pipelines':>9} {'commands':>8} {'overhead':>14}")
    print(header)
    for name, script in (("SPIR-V asm", asm), ("GLSL", glsl)):
        for layers in (False, True):
            for device in ("default", "lavapipe"):
                cmd = [spire, "run", "--stats"]
                if not layers:
                    cmd.append("--no-validation-layers")
                if device != "default":
                    cmd += ["--device", device]
                results = [run_cpu(cmd + [script]) for _ in range(n)]
                if any(r[2] != 0 for r in results):
                    print(f"       {name:11} {'on' if layers else 'off':6} {device:8} failed: "
                          f"{results[0][4].strip()[:200]}")
                    continue
                wall = statistics.median(r[0] for r in results) * 1000
                cpu = statistics.median(r[1] for r in results) * 1000
                phases = [stats_line(r[4]) for r in results]
                med = [statistics.median(p[i] for p in phases) for i in range(6)]
                _, inst, dev, shaders, pipes, cmds = med
                overhead = wall - cmds
                print(f"       {name:11} {'on' if layers else 'off':6} {device:8} "
                      f"{wall:6.0f} ({cpu:4.0f}) {inst:8.0f} {dev:7.0f} {shaders:7.0f} "
                      f"{pipes:9.1f} {cmds:8.1f} {overhead:6.0f} = {overhead / wall:4.0%}")


def glslang_once(spire, root):
    glsl = os.path.join(root, "examples", "scale.amber")
    _, p = run([spire, "run", "-j1", "--format", "json", "--no-validation-layers", glsl, glsl])
    rows = [json.loads(l) for l in p.stdout.splitlines() if l.startswith('{"file"')]
    if len(rows) == 2:
        print(f"  [6d] glslang in one process: the GLSL script's shaders took "
              f"{rows[0]['compile_ms']:.1f} ms the first time (glslang's built-in tables), "
              f"{rows[1]['compile_ms']:.1f} ms the second")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--corpus")
    ap.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", "3")))
    ap.add_argument("--no-corpus", action="store_true", help="only [6c] and [6d]")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spire = os.path.join(args.build, "tools", "spire", "spire")
    _, probe = run([spire, "run", "--list-devices"])
    if probe.returncode != 0:
        print(f"bench amber: no Vulkan device: {probe.stderr.strip()}", file=sys.stderr)
        return 0
    device = probe.stdout.strip().splitlines()[0] if probe.stdout.strip() else "?"
    load = os.getloadavg()[0]
    print(f"[6] spire run, device {device}, median of {args.runs} runs, load average {load:.1f} on "
          f"{os.cpu_count()} CPUs{' (busy: wall times are inflated)' if load > os.cpu_count() else ''}")
    corpus = args.corpus or os.path.join(root, "..", "shared", "corpus", "amber")
    if args.no_corpus:
        pass
    elif not os.path.isdir(corpus):
        print(f"  no corpus at {corpus}")
    else:
        scripts = sorted(os.path.join(corpus, f) for f in os.listdir(corpus)
                         if f.endswith(".amber") or f.endswith(".vkscript"))
        side = []
        for name in ("amber-cts-requirements.txt", "amber-driver-bugs.txt"):
            side += ["--requirements", os.path.join(root, "tests", "corpus", name)]
        print(f"  the corpus: {len(scripts)} scripts")
        corpus_sections(spire, scripts, side, args.runs)
    process_table(spire, root, args.runs)
    glslang_once(spire, root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
