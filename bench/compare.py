#!/usr/bin/env python3
"""Runs spire against SPIRV-Tools and prints the comparison table (bench/run.sh calls it).

Command line (one process per module, start-up included): spirv-dis / spire dis, with and without
--raw-id, spirv-as / spire as on spirv-dis's text, and spirv-val / spire val (--target-env spv1.6,
compared by verdict), over the corpus and the generated large modules, through `spire_bench run`
(wall time, peak memory, output hashes, exit status, time limit).
In-process (no start-up): `spire_bench measure`, spire's functions against SPIRV-Tools' library.

Environment: BENCH_RUNS (runs per large-module measurement, default 3), BENCH_CORPUS_RUNS (runs
per corpus module, default 1: the sum over hundreds of modules averages the noise out),
BENCH_FULL=1 (the command-line corpus table on every module, not every 4th: 4x longer),
BENCH_TIMEOUT (CPU seconds before a run is stopped, default 20), BENCH_QUICK=1 (every 8th corpus
module only). bench/run.sh also reads BENCH_SIZES (the large modules' sizes in MB).
"""

import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import subprocess
import sys
import time

# The reading of ratios, printed above the tables.
LEGEND = """\
Times are CPU time (user + system) of the measured process, medians: other jobs on the machine
inflate them much less than wall time (wall times are in results.json).
ratio = SPIRV-Tools time / spire time: above 1 spire is faster.
'pending': spire's output is still a placeholder (dis and as are being written), so its time
means nothing yet; 'differs': spire's output is not byte-identical to SPIRV-Tools' for some
modules (the ratio is shown with a *). val (--target-env spv1.6 for both) is checked by verdict
(exit status 0 valid, 1 invalid), not output; its times count every module both tools ran."""

SPIRE_TASKS = ("dis", "dis --raw-id", "as", "val")
# The environment both validators are given: a universal one, so that a verdict is about SPIR-V
# itself (vulkan environments reject many corpus modules for environment reasons).
VAL_ENV = "spv1.6"


def ran_val(result):
    """Whether a validator ran to a verdict: exit status 0 (valid) or 1 (invalid)."""
    return bool(result) and not result.get("timed_out") and result.get("rc") in (0, 1)


def log(message):
    print("bench: " + message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Formatting


def fmt_time(seconds, timed_out=False, timeout=None):
    if timed_out:
        return ">%gs" % timeout
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return "%.0f us" % (seconds * 1e6)
    if seconds < 1:
        return "%.1f ms" % (seconds * 1e3)
    return "%.2f s" % seconds


def fmt_ratio(ref, spire, status="ok", ref_timed_out=False):
    if status == "pending":
        return "pending"
    if spire is None or spire <= 0 or ref is None:
        return "-"
    mark = "*" if status == "differs" else ""
    prefix = ">" if ref_timed_out else ""
    return "%s%.1fx%s" % (prefix, ref / spire, mark)


def fmt_mb(nbytes):
    return "%.2f" % (nbytes / 1e6)


def table(headers, rows):
    """Left-aligned first column, right-aligned others."""
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(str(cell)))
    lines = []
    for row in [headers] + rows:
        cells = []
        for i, cell in enumerate(row):
            cell = str(cell)
            cells.append(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]))
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Running spire_bench


class Bench:
    def __init__(self, build, data):
        self.build = build
        self.data = data
        self.spire = os.path.join(build, "tools", "spire", "spire")
        self.spire_bench = os.path.join(build, "bench", "spire_bench")
        self.scratch = os.path.join(data, "scratch")
        os.makedirs(self.scratch, exist_ok=True)

    def run_jobs(self, name, jobs, runs=1, timeout=0, single_above=2.0, parallel=1):
        """jobs: list of (key, stdout_path or '-', argv). Returns {key: result dict}."""
        path = os.path.join(self.scratch, name + ".jobs.tsv")
        with open(path, "w") as f:
            for key, out, argv in jobs:
                f.write("\t".join([key, out] + list(argv)) + "\n")
        cmd = [self.spire_bench, "run", "--jobs", str(parallel), "--runs", str(runs),
               "--timeout", str(timeout), "--single-above", str(single_above), path]
        results = {}
        with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) as proc:
            for line in proc.stdout:
                r = json.loads(line)
                results[r["key"]] = r
                if len(results) % 2000 == 0:
                    log("%s: %d of %d runs" % (name, len(results), len(jobs)))
        if proc.returncode != 0:
            raise SystemExit("bench: spire_bench run failed (%s)" % " ".join(cmd))
        return results

    def measure(self, args):
        cmd = [self.spire_bench, "measure"] + args
        out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True).stdout
        return [json.loads(line) for line in out.splitlines() if line.strip()]


# ---------------------------------------------------------------------------------------------
# Inputs


def corpus_modules(corpus, quick):
    files = []
    for dirpath, _, names in os.walk(corpus):
        files += [os.path.join(dirpath, n) for n in names if n.endswith(".spv")]
    files.sort()
    if quick:
        files = files[::8]
    return files


def corpus_texts(files, corpus, cache):
    """spirv-dis text of each module (cached); None where spirv-dis fails."""
    def one(spv):
        rel = os.path.relpath(spv, corpus)
        out = os.path.join(cache, rel + ".spvasm")
        failed = out + ".failed"
        mtime = os.path.getmtime(spv)
        if os.path.exists(out) and os.path.getmtime(out) >= mtime:
            return out
        if os.path.exists(failed) and os.path.getmtime(failed) >= mtime:
            return None
        os.makedirs(os.path.dirname(out), exist_ok=True)
        tmp = out + ".tmp"
        r = subprocess.run(["spirv-dis", "--no-color", spv, "-o", tmp],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode == 0:
            os.replace(tmp, out)
            return out
        if os.path.exists(tmp):
            os.remove(tmp)
        open(failed, "w").close()
        return None

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        return list(pool.map(one, files))


def count_functions(raw_text_path):
    n = 0
    with open(raw_text_path) as f:
        for line in f:
            if " OpFunction " in line:
                n += 1
    return n


def tool_version(tool):
    try:
        out = subprocess.run([tool, "--version"], stdout=subprocess.PIPE, text=True).stdout
        return out.splitlines()[0] if out else "?"
    except OSError:
        return "not found"


def placeholder_probe(bench, spv, text):
    """Which of spire's dis and as are still the placeholders."""
    pending = set()
    dis = subprocess.run([bench.spire, "dis", spv], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, errors="replace")
    if "not implemented" in dis.stdout.split("\n", 1)[0]:
        pending.update(["dis", "dis --raw-id"])
    if text:
        as_ = subprocess.run([bench.spire, "as", "-o", "-", text], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        if b"not implemented" in as_.stderr:
            pending.add("as")
    return pending


# ---------------------------------------------------------------------------------------------
# Command-line measurements


def cli_commands(bench, task, spv, text):
    """(SPIRV-Tools argv, spire argv) for a task, or None when the input is missing."""
    if task == "dis":
        return ["spirv-dis", "--no-color", spv], [bench.spire, "dis", "--no-color", spv]
    if task == "dis --raw-id":
        return (["spirv-dis", "--no-color", "--raw-id", spv],
                [bench.spire, "dis", "--no-color", "--raw-id", spv])
    if task == "as" and text:
        return ["spirv-as", "-o", "-", text], [bench.spire, "as", "-o", "-", text]
    if task == "val":
        return (["spirv-val", "--target-env", VAL_ENV, spv],
                [bench.spire, "val", "--target-env", VAL_ENV, spv])
    return None


def cli_jobs(bench, prefix, modules, texts):
    """Interleaved jobs: for each module and task the reference and spire, alternating which
    goes first so that neither always runs with warmer caches."""
    jobs = []
    ref_out = os.path.join(bench.scratch, prefix + ".ref.out")
    spire_out = os.path.join(bench.scratch, prefix + ".spire.out")
    for i, (spv, text) in enumerate(zip(modules, texts)):
        for task in SPIRE_TASKS:
            cmds = cli_commands(bench, task, spv, text)
            if not cmds:
                continue
            pair = [("%s|%s|ref|%d" % (prefix, task, i), ref_out, cmds[0]),
                    ("%s|%s|spire|%d" % (prefix, task, i), spire_out, cmds[1])]
            jobs += pair if i % 2 == 0 else pair[::-1]
    return jobs


def summarize_corpus_cli(results, num_modules, pending):
    rows = []
    summary = {}
    for task in SPIRE_TASKS:
        ran = ref_ok = spire_ok = both = same = 0
        ref_sum = spire_sum = 0.0
        for i in range(num_modules):
            ref = results.get("corpus|%s|ref|%d" % (task, i))
            spire = results.get("corpus|%s|spire|%d" % (task, i))
            if not ref or not spire:
                continue
            ran += 1
            if task == "val":
                # Verdicts, not outputs: timed over every module both validators ran.
                if ran_val(ref) and ran_val(spire):
                    both += 1
                    ref_ok += ref["rc"] == 0
                    spire_ok += spire["rc"] == 0
                    ref_sum += ref["cpu_s"]
                    spire_sum += spire["cpu_s"]
                    same += ref["rc"] == spire["rc"]
                continue
            rok = ref.get("rc") == 0
            sok = spire.get("rc") == 0
            ref_ok += rok
            spire_ok += sok
            if rok and sok:
                both += 1
                ref_sum += ref["cpu_s"]
                spire_sum += spire["cpu_s"]
                same += ref.get("out_hash") == spire.get("out_hash")
        if task in pending:
            status = "pending"
            check = "placeholder output"
        elif task == "val":
            # A differing verdict does not make the time meaningless (the validators are
            # different programs), so no '*'; the count is in the check column.
            status = "ok"
            check = "%d same verdicts, %d differ (valid: spirv-val %d, spire %d)" % (
                same, both - same, ref_ok, spire_ok)
            if both < ran:
                check += "; %d runs without a verdict" % (ran - both)
        elif both < ref_ok:
            status = "differs"
            check = "spire failed on %d the reference read" % (ref_ok - both)
        elif same < both:
            status = "differs"
            check = "%d of %d outputs differ" % (both - same, both)
        else:
            status = "ok"
            check = "%d identical outputs" % same
        summary[task] = dict(modules=ran, ref_ok=ref_ok, spire_ok=spire_ok, both_ok=both,
                             identical=same, ref_s=ref_sum, spire_s=spire_sum, status=status)
        rows.append([task, ran, both, fmt_time(ref_sum) if both else "-",
                     fmt_time(spire_sum) if both else "-", fmt_ratio(ref_sum, spire_sum, status),
                     check])
    return rows, summary


def large_cli(bench, large, runs, timeout):
    """Each task on each large module, reference then spire; outputs go to two files whose
    hashes are taken right after each run."""
    jobs = []
    for m in large:
        for task in SPIRE_TASKS:
            ref, spire = cli_commands(bench, task, m["spv"], m["text"])
            jobs.append(("large|%s|%s|ref" % (m["name"], task),
                         os.path.join(bench.scratch, "large.ref.out"), ref))
            jobs.append(("large|%s|%s|spire" % (m["name"], task),
                         os.path.join(bench.scratch, "large.spire.out"), spire))
    return bench.run_jobs("large", jobs, runs, timeout)


def linearity(values, sizes):
    """Time (or memory) per MB at each size relative to the smallest size's."""
    base = None
    out = []
    for v, s in zip(values, sizes):
        if not v:
            out.append(None)
            continue
        per_mb = v / s
        if base is None:
            base = per_mb
        out.append(per_mb / base)
    return out


def fmt_lin(x, timed_out=False):
    if x is None:
        return "-"
    return ("%s%.2f" % (">" if timed_out else "", x))


# ---------------------------------------------------------------------------------------------
# The report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", help="build directory (spire, spire_bench)")
    parser.add_argument("--data", help="cache and scratch directory")
    parser.add_argument("--corpus", help="directory searched for *.spv")
    parser.add_argument("--large", nargs="*", default=[],
                        help="large modules (each with its --raw-id text beside it, .raw.spvasm)")
    parser.add_argument("--render", metavar="RESULTS_JSON",
                        help="print the table of a saved results.json instead of measuring")
    args = parser.parse_args()
    if args.render:
        with open(args.render) as f:
            print(render(json.load(f)))
        return
    if not (args.build and args.data and args.corpus):
        parser.error("--build, --data and --corpus are needed to measure")
    raw = collect(args)
    results_dir = os.path.join(os.path.abspath(args.build), "bench-results")
    os.makedirs(results_dir, exist_ok=True)
    # Saved before rendering, so that a rendering problem does not lose the measurements.
    with open(os.path.join(results_dir, "results.json"), "w") as f:
        json.dump(raw, f, indent=1)
    report = render(raw)
    print(report)
    with open(os.path.join(results_dir, "results.txt"), "w") as f:
        f.write(report + "\n")
    log("saved %s/results.txt and results.json" % results_dir)


def machine_description():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d cores, %s" % (cpu, os.cpu_count() or 0, platform.system())


def collect(args):
    """Runs every measurement; returns them with what the report needs to know about them."""
    raw = dict(
        date=datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        machine=machine_description(),
        cores=os.cpu_count() or 1,
        revision=subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)),
                                 "describe", "--always", "--dirty"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True).stdout.strip() or "?",
        reference=tool_version("spirv-dis"),
        runs=int(os.environ.get("BENCH_RUNS", "3")),
        corpus_runs=int(os.environ.get("BENCH_CORPUS_RUNS", "1")),
        timeout=float(os.environ.get("BENCH_TIMEOUT", "20")),
        quick=os.environ.get("BENCH_QUICK", "") not in ("", "0"),
        cli_stride=1 if os.environ.get("BENCH_FULL", "") not in ("", "0") else 4,
        corpus=args.corpus,
        load_start=os.getloadavg()[0],
    )
    timeout = raw["timeout"]
    bench = Bench(os.path.abspath(args.build), os.path.abspath(args.data))
    began = time.monotonic()
    phases = raw["phases"] = {}
    mark = [began]

    def phase_done(name):
        now = time.monotonic()
        phases[name] = now - mark[0]
        mark[0] = now

    # Inputs.
    modules = corpus_modules(args.corpus, raw["quick"])
    if not modules:
        raise SystemExit("bench: no modules under %s" % args.corpus)
    log("corpus: %d modules under %s; making spirv-dis texts (cached)" % (len(modules), args.corpus))
    texts = corpus_texts(modules, args.corpus, os.path.join(bench.data, "corpus-text"))
    raw["corpus_modules"] = len(modules)
    raw["corpus_bytes"] = sum(os.path.getsize(f) for f in modules)
    large = []
    for spv in args.large:
        base = spv[: -len(".spv")] if spv.endswith(".spv") else spv
        text = base + ".raw.spvasm"
        large.append(dict(name=os.path.basename(base), spv=spv, text=text,
                          bytes=os.path.getsize(spv), functions=count_functions(text)))
    large.sort(key=lambda m: m["bytes"])
    raw["large"] = large
    raw["pending"] = sorted(placeholder_probe(bench, modules[0],
                                              next((t for t in texts if t), None)))
    phase_done("inputs")

    log("process start-up")
    startup_jobs = [("startup|spire", "-", [bench.spire, "--version"]),
                    ("startup|spirv-dis", "-", ["spirv-dis", "--version"]),
                    ("startup|spirv-as", "-", ["spirv-as", "--version"]),
                    ("startup|spirv-val", "-", ["spirv-val", "--version"])]
    raw["startup"] = bench.run_jobs("startup", startup_jobs, runs=21)
    phase_done("start-up")

    # Every module in one process costs little; one process per module costs ~12 ms of CPU
    # each on a small VM, 18 000 starts for the whole corpus. By default [1] takes every 4th
    # module (start-up dominates those numbers anyway); BENCH_FULL=1 takes all.
    stride = raw["cli_stride"]
    cli_modules, cli_texts = modules[::stride], texts[::stride]
    raw["cli_modules"] = len(cli_modules)
    raw["cli_bytes"] = sum(os.path.getsize(f) for f in cli_modules)
    jobs = cli_jobs(bench, "corpus", cli_modules, cli_texts)
    log("corpus, command line: %d runs of one process each" % (len(jobs) * raw["corpus_runs"]))
    # One module per core at a time: CPU times change little, the wall time is halved or better.
    raw["corpus_cli"] = bench.run_jobs("corpus", jobs, runs=raw["corpus_runs"], timeout=timeout,
                                       parallel=raw["cores"])
    phase_done("[1]")

    log("corpus, in-process (spire_bench measure --all)")
    listing = os.path.join(bench.scratch, "corpus.tsv")
    with open(listing, "w") as f:
        for spv, text in zip(modules, texts):
            f.write(spv + ("\t" + text if text else "") + "\n")
    raw["corpus_inprocess"] = bench.measure(["--all", "--per-file-lines", "--timeout", "300",
                                             "--list", listing])
    phase_done("[2]")

    log("large modules, command line (limit %gs of CPU per run)" % timeout)
    raw["large_cli"] = large_cli(bench, large, raw["runs"], timeout)
    phase_done("[3]")

    log("large modules, in-process (spire_bench measure)")
    listing = os.path.join(bench.scratch, "large.tsv")
    with open(listing, "w") as f:
        for m in large:
            f.write(m["spv"] + "\t" + m["text"] + "\n")
    # SPIRV-Tools' friendly-name disassembly of the biggest modules takes minutes; the command
    # line table shows how long, so the in-process one stops it sooner.
    raw["inprocess_timeout"] = min(timeout, 10.0)
    raw["large_inprocess"] = bench.measure(["--timeout", str(raw["inprocess_timeout"]),
                                            "--single-above", "2", "--list", listing])
    phase_done("[4]")
    raw["elapsed_s"] = time.monotonic() - began
    return raw


def inproc_index(lines, scope):
    """{(file or '*', op): line}."""
    out = {}
    for d in lines:
        if d.get("scope") == scope:
            out[(d.get("file", "*"), d["op"])] = d
    return out


INPROC_PAIRS = [
    # (label, spire op, reference op, what the reference does)
    ("read+write", "read+write", "ref-read+write", "opt IR build + write"),
    ("read", "read", "ref-read", "spvBinaryParse"),
    ("dis", "dis", "ref-dis", "spvBinaryToText"),
    ("dis --raw-id", "dis-raw", "ref-dis-raw", "spvBinaryToText"),
    ("as", "as", "ref-as", "spvTextToBinary"),
    # Validation, environment spv1.6 for both. spvValidate parses the words itself, so read+val
    # (spire reading included) is the like-for-like row; val times spire's validation alone.
    ("read+val", "read+val", "ref-val", "spvValidate"),
    ("val", "val", "ref-val", "spvValidate"),
]


def differs_statuses(label):
    """The statuses that mark a ratio with '*'. A validator's differing verdict does not (the
    check column counts them); its failing to run does."""
    return ("failed",) if label in VAL_LABELS else ("differs", "failed")


VAL_LABELS = ("read+val", "val")


def val_check(d):
    """The check cell of a validation on one module: whether the verdicts agree, and spire's."""
    if d.get("status") not in ("ok", "differs", "unchecked") or "verdict" not in d:
        return d.get("status", "-")
    return "%s (%s)" % ({"ok": "same verdict", "differs": "different verdict",
                         "unchecked": "unchecked"}[d["status"]], d["verdict"])


def inproc_cell(d):
    if not d:
        return None, "-"
    if d.get("status") in ("timeout",):
        return None, ">%gs" % d.get("timeout_s", 0)
    if d.get("status") in ("crashed", "unavailable"):
        return None, d["status"]
    if "median_s" not in d:
        return None, d.get("status", "-")
    return d["median_s"], fmt_time(d["median_s"])


def check_text(d):
    """The check counts of an --all line, in words."""
    if not d:
        return "-"
    if "n_ok" not in d:
        return d.get("status", "-")
    ok_words = {"read+write": "same bytes written", "read": "read", "val": "same verdicts",
                "read+val": "same verdicts"}.get(d["op"], "same as SPIRV-Tools")
    parts = []
    for key in ("ok", "unchecked", "pending", "differs", "failed"):
        n = d.get("n_" + key, 0)
        if n:
            parts.append("%d %s" % (n, ok_words if key == "ok" else key))
    if "n_valid" in d:
        parts.append("spire: %d valid" % d["n_valid"])
    return ", ".join(parts)


def per_file_ratios(lines, spire_op, ref_op):
    """Each module's own ratio (wall-clock medians within the passes): the ratio of the summed
    medians, the median ratio and the worst."""
    spire = {d["file"]: d["median_wall_s"] for d in lines
             if d.get("scope") == "file-in-all" and d["op"] == spire_op}
    ref = {d["file"]: d["median_wall_s"] for d in lines
           if d.get("scope") == "file-in-all" and d["op"] == ref_op}
    common = [f for f in spire if f in ref and spire[f] > 0]
    if not common:
        return "-"
    ratios = sorted(ref[f] / spire[f] for f in common)
    summed = sum(ref[f] for f in common) / sum(spire[f] for f in common)
    return "%.1fx / %.1fx / %.1fx" % (summed, ratios[len(ratios) // 2], ratios[0])


def render(raw):
    large = raw["large"]
    pending = set(raw["pending"])
    startup = raw["startup"]
    corpus_inproc = raw["corpus_inprocess"]
    large_cli_results = raw["large_cli"]
    large_inproc = raw["large_inprocess"]
    runs, timeout = raw["runs"], raw["timeout"]
    # Results saved before [1] took a sample have no cli_* keys: they ran every module.
    raw.setdefault("cli_stride", 1)
    raw.setdefault("cli_modules", raw["corpus_modules"])
    raw.setdefault("cli_bytes", raw["corpus_bytes"])
    cli_rows, cli_summary = summarize_corpus_cli(raw["corpus_cli"], raw["cli_modules"], pending)
    out = []
    out.append("spire benchmarks, %s" % raw["date"])
    out.append("machine: %s; spire %s; %s" % (raw["machine"], raw["revision"], raw["reference"]))
    cores = raw["cores"]
    load = raw["load_start"]
    out.append("load average (1 min) before the run: %.1f; the run took %s" % (
        load, fmt_time(raw.get("elapsed_s"))))
    if load > 0.75 * cores:
        out.append("BUSY MACHINE: other jobs shared the %d cores; expect noise of tens of percent"
                   % cores)
    phases = raw.get("phases", {})
    if phases:
        out.append("time per part: " + ", ".join("%s %s" % (k, fmt_time(v)) for k, v in phases.items()))
    out.append(LEGEND)
    if pending:
        out.append("placeholders found in this build: spire %s" % ", ".join(sorted(pending)))

    # Start-up.
    st = {k.split("|")[1]: v["cpu_s"] for k, v in startup.items()}
    startup_line = ("process start-up ('--version', median of 21): spire %s, spirv-dis %s, "
                    "spirv-as %s, spirv-val %s" % (
                        fmt_time(st.get("spire")), fmt_time(st.get("spirv-dis")),
                        fmt_time(st.get("spirv-as")), fmt_time(st.get("spirv-val"))))

    # 1. Corpus, CLI.
    out.append("")
    out.append("[1] Corpus, COMMAND LINE: one process per module, CPU times summed over the "
               "modules both tools accept (start-up included; val: both ran to a verdict, --target-env "
               "%s)" % VAL_ENV)
    stride = raw["cli_stride"] * (8 if raw["quick"] else 1)
    out.append("    %d modules, %s MB, %s%s; %d run(s) per module, %d at a time" % (
        raw["cli_modules"], fmt_mb(raw["cli_bytes"]), raw["corpus"],
        " (every %s module%s)" % (
            {1: "", 2: "2nd", 3: "3rd"}.get(stride, "%dth" % stride),
            ": BENCH_FULL=1 for all" if raw["cli_stride"] > 1 else "") if stride > 1 else "",
        raw["corpus_runs"], raw["cores"]))
    out.append(table(["task", "modules", "both ok", "SPIRV-Tools", "spire", "ratio", "outputs"],
                     cli_rows))
    both = max((s["both_ok"] for s in cli_summary.values()), default=0)
    out.append(startup_line)
    if st.get("spire"):
        out.append("    (start-up alone is ~%s of each sum over %d modules: small modules are "
                   "start-up bound)" % (fmt_time(st["spire"] * both), both))

    # 2. Corpus, in-process.
    out.append("")
    out.append("[2] Corpus, IN-PROCESS: all modules in one process (spire_bench measure --all; "
               "SPIRV-Tools called as a library)%s" % (
                   "; every 8th module (BENCH_QUICK)" if raw["quick"] else ""))
    idx = inproc_index(corpus_inproc, "all")
    excluded = [d for d in corpus_inproc if d.get("scope") == "excluded"]
    any_all = next(iter(idx.values()), {})
    out.append("    %d modules, %s MB (%d left out: spire or spirv-dis's SPIRV-Tools cannot read "
               "them); one repetition = one pass over all modules" % (
                   any_all.get("files", 0), fmt_mb(any_all.get("bytes", 0)), len(excluded)))
    rows = []
    inproc_summary = {}
    for label, sop, rop, what in INPROC_PAIRS:
        s = idx.get(("*", sop))
        r = idx.get(("*", rop))
        st_status = (s or {}).get("status", "-")
        status = "pending" if (st_status == "pending" or label in pending) else (
            "differs" if st_status in differs_statuses(label) else "ok")
        s_t, s_txt = inproc_cell(s)
        r_t, r_txt = inproc_cell(r)
        mbps = "%.0f" % s["mb_per_s"] if s and s.get("mb_per_s") else "-"
        pf = per_file_ratios(corpus_inproc, sop, rop) if status != "pending" else "pending"
        inproc_summary[label] = dict(spire_s=s_t, ref_s=r_t, status=status,
                                     mb_per_s=(s or {}).get("mb_per_s"))
        if status == "pending":
            s_txt, mbps = "(%s)" % s_txt, "-"
        check = check_text(s)
        if label in VAL_LABELS and r and "n_valid" in r:
            check += ", SPIRV-Tools: %d valid" % r["n_valid"]
        rows.append([label, "%s (%s)" % (r_txt, what), s_txt, fmt_ratio(r_t, s_t, status), mbps,
                     pf, check])
    out.append(table(["task", "SPIRV-Tools", "spire", "ratio", "spire MB/s",
                      "per module: summed/median/worst", "spire check"], rows))
    out.append("    (spire) = the placeholder's time. Per-module ratios: each module timed alone "
               "within the passes (wall clock).")

    # 3. Large modules, CLI.
    out.append("")
    out.append("[3] Large modules, COMMAND LINE (bench/gen_large_modules.py + glslangValidator -V; "
               "median of %d runs, 1 when a run takes over 2 s; limit %gs)" % (runs, timeout))
    out.append("    lin. = time per MB relative to the smallest module (1.00 = linear); "
               "as reads spirv-dis --raw-id text")
    sizes = [m["bytes"] / 1e6 for m in large]
    rows = []
    large_summary = {}
    for task in SPIRE_TASKS:
        ref_t, spire_t, ref_to, rss_r, rss_s = [], [], [], [], []
        for m in large:
            r = large_cli_results.get("large|%s|%s|ref" % (m["name"], task), {})
            s = large_cli_results.get("large|%s|%s|spire" % (m["name"], task), {})
            ref_t.append(None if r.get("timed_out") else r.get("cpu_s"))
            ref_to.append(bool(r.get("timed_out")))
            spire_done = ran_val(s) if task == "val" else s.get("rc") == 0
            spire_t.append(s.get("cpu_s") if spire_done else None)
            rss_r.append(r.get("maxrss_kb"))
            rss_s.append(s.get("maxrss_kb"))
        # A timed-out reference run counts as the limit for linearity (a lower bound).
        ref_for_lin = [timeout if to else t for t, to in zip(ref_t, ref_to)]
        lin_r = linearity(ref_for_lin, sizes)
        lin_s = linearity(spire_t, sizes)
        for i, m in enumerate(large):
            r = large_cli_results.get("large|%s|%s|ref" % (m["name"], task), {})
            s = large_cli_results.get("large|%s|%s|spire" % (m["name"], task), {})
            if task in pending:
                status, check = "pending", "placeholder"
            elif task == "val":
                if not ran_val(s):
                    status, check = "differs", "spire failed: %s" % s.get("stderr", "?")[:60]
                elif r.get("timed_out"):
                    status, check = "ok", "reference timed out; spire: %s" % (
                        "valid" if s["rc"] == 0 else "invalid")
                elif r.get("rc") == s.get("rc"):
                    status, check = "ok", "same verdict (%s)" % (
                        "valid" if s["rc"] == 0 else "invalid")
                else:
                    status, check = "ok", "verdicts differ (spirv-val rc %s, spire rc %s)" % (
                        r.get("rc"), s.get("rc"))
            elif s.get("rc") != 0:
                status, check = "differs", "spire failed: %s" % s.get("stderr", "?")[:60]
            elif r.get("timed_out"):
                status, check = "ok", "reference timed out"
            elif r.get("out_hash") != s.get("out_hash"):
                status, check = "differs", "output differs"
            else:
                status, check = "ok", "identical"
            large_summary[(m["name"], task)] = dict(ref_s=ref_t[i], spire_s=spire_t[i],
                                                    ref_timed_out=ref_to[i], status=status,
                                                    spire_lin=lin_s[i], ref_lin=lin_r[i],
                                                    spire_rss_kb=rss_s[i], ref_rss_kb=rss_r[i])
            spire_txt = fmt_time(spire_t[i])
            if status == "pending" and spire_t[i] is not None:
                spire_txt = "(%s)" % spire_txt
            rows.append([m["name"] if task == "dis" else "", "%.2f" % sizes[i] if task == "dis" else "",
                         m["functions"] if task == "dis" else "", task,
                         fmt_time(ref_t[i], ref_to[i], timeout), spire_txt,
                         fmt_ratio(ref_for_lin[i], spire_t[i], status, ref_to[i]),
                         fmt_lin(lin_r[i], ref_to[i]), fmt_lin(lin_s[i]),
                         "%.0f / %.0f" % ((rss_r[i] or 0) / 1024, (rss_s[i] or 0) / 1024),
                         check])
    out.append(table(["module", "MB", "functions", "task", "SPIRV-Tools", "spire", "ratio",
                      "ref lin.", "spire lin.", "peak RSS MB ref/spire", "outputs"],
                     regroup(rows, len(large))))

    # 4. Large modules, in-process.
    out.append("")
    itimeout = raw.get("inprocess_timeout", timeout)
    out.append("[4] Large modules, IN-PROCESS (spire_bench measure; median of repeated calls for "
               "at least 0.3 s, one call when it takes over 2 s; limit %gs)" % itimeout)
    out.append("    Repeated calls reuse freed memory; the first call in a fresh process also pays "
               "the page faults of touching new memory (1st call).")
    out.append("    heap = bytes the result keeps (module index, text, words) per byte of module")
    fidx = inproc_index(large_inproc, "file")
    rows = []
    for label, sop, rop, what in INPROC_PAIRS:
        s_times, r_times, r_to = [], [], []
        for m in large:
            s = fidx.get((m["spv"], sop))
            r = fidx.get((m["spv"], rop))
            s_times.append(s.get("median_s") if s and "median_s" in s else None)
            r_times.append(r.get("median_s") if r and "median_s" in r else None)
            r_to.append(bool(r and r.get("status") == "timeout"))
        lin_s = linearity(s_times, sizes)
        lin_r = linearity([itimeout if to else t for t, to in zip(r_times, r_to)], sizes)
        for i, m in enumerate(large):
            s = fidx.get((m["spv"], sop)) or {}
            r = fidx.get((m["spv"], rop)) or {}
            status = "pending" if (s.get("status") == "pending" or label in pending) else (
                "differs" if s.get("status") in differs_statuses(label) else "ok")
            _, s_txt = inproc_cell(s)
            _, r_txt = inproc_cell(r)
            # A validation keeps only its report: no heap figure for it.
            heap = "%.1fx" % (s["heap_bytes"] / m["bytes"]) if (
                s.get("heap_bytes") and label not in VAL_LABELS) else "-"
            mbps = "%.0f" % s["mb_per_s"] if s.get("mb_per_s") else "-"
            if status == "pending" and s_times[i] is not None:
                s_txt, mbps, heap = "(%s)" % s_txt, "-", "-"
            large_summary[(m["name"], "inproc " + label)] = dict(
                spire_s=s_times[i], ref_s=r_times[i], status=status, spire_lin=lin_s[i],
                mb_per_s=s.get("mb_per_s"), heap=s.get("heap_bytes"))
            first = "-"
            if s.get("first_s") and status != "pending":
                first = "%s / %s" % (fmt_time(r.get("first_s")) if r.get("first_s") else "-",
                                     fmt_time(s["first_s"]))
            large_summary[(m["name"], "inproc " + label)]["first_s"] = s.get("first_s")
            rows.append([m["name"] if label == "read+write" else "", label, r_txt, s_txt,
                         fmt_ratio(itimeout if r_to[i] else r_times[i], s_times[i], status,
                                   r_to[i]),
                         mbps, fmt_lin(lin_r[i], r_to[i]), fmt_lin(lin_s[i]), first, heap,
                         val_check(s) if label in VAL_LABELS else s.get("status", "-")])
    out.append(table(["module", "task", "SPIRV-Tools", "spire", "ratio", "spire MB/s",
                      "ref lin.", "spire lin.", "1st call ref/spire", "spire heap",
                      "spire check"], regroup(rows, len(large))))

    # 5. Targets.
    out.append("")
    out.append("[5] Targets")
    out += targets(large, cli_summary, inproc_summary, large_summary, pending)
    return "\n".join(out)


def regroup(rows, per_group):
    """Rows come task-major (all modules of one task, then the next); print them module-major."""
    if per_group == 0:
        return rows
    groups = len(rows) // per_group
    ordered = []
    for i in range(per_group):
        for g in range(groups):
            ordered.append(rows[g * per_group + i])
    # The module name is on the first task's row of each module only.
    return ordered


def speedup_target(task, tool, factor, inproc_summary, cli_summary, pending):
    """'<task> >= <factor>x <tool> on the corpus', judged on the in-process ratio (the command
    line one is start-up bound)."""
    what = "%s >= %dx %s on the corpus" % (task, factor, tool)
    inproc = inproc_summary.get(task, {})
    cli = cli_summary.get(task, {})
    if task in pending or inproc.get("status") == "pending":
        return what + ": pending (placeholder)"
    if not (inproc.get("ref_s") and inproc.get("spire_s")):
        return what + ": not measured"
    r_in = inproc["ref_s"] / inproc["spire_s"]
    r_cli = cli["ref_s"] / cli["spire_s"] if cli.get("spire_s") else 0
    return "%s: %.1fx in-process, %.1fx command line (start-up bound): %s%s" % (
        what, r_in, r_cli, "met" if r_in >= factor else "NOT MET",
        "" if inproc["status"] == "ok" else " (outputs differ)")


def val_speed_target(inproc_summary, cli_summary):
    """'val at least 3x faster than spirv-val on the corpus', judged in-process on read+val
    against spvValidate (both parse the words); the command line ratio is start-up bound."""
    what = "val >= 3x spirv-val on the corpus"
    inproc = inproc_summary.get("read+val", {})
    alone = inproc_summary.get("val", {})
    cli = cli_summary.get("val", {})
    if not (inproc.get("ref_s") and inproc.get("spire_s")):
        return what + ": not measured"
    r_in = inproc["ref_s"] / inproc["spire_s"]
    r_alone = (alone["ref_s"] / alone["spire_s"]) if alone.get("ref_s") and alone.get(
        "spire_s") else 0
    r_cli = cli["ref_s"] / cli["spire_s"] if cli.get("spire_s") else 0
    return ("%s: %.1fx in-process (read+val; %.1fx validation alone), %.1fx command line "
            "(start-up bound): %s" % (what, r_in, r_alone, r_cli,
                                      "met" if r_in >= 3 else "NOT MET"))


def val_linear_targets(large, large_summary):
    """spire val linear on the command line too, against spirv-val's growth."""
    if len(large) < 2:
        return []
    biggest, smallest = large[-1]["name"], large[0]["name"]
    v = large_summary.get((biggest, "val"), {})
    if v.get("spire_lin") is None:
        return ["linear time, spire val command line: not measured on %s" % biggest]
    ref = "spirv-val %s" % fmt_lin(v.get("ref_lin"), v.get("ref_timed_out"))
    return ["linear time, spire val command line: time per MB at %s = %.2fx that at %s (%s): %s"
            % (biggest, v["spire_lin"], smallest, ref, "met" if v["spire_lin"] <= 1.5 else
               "NOT MET")]


def targets(large, cli_summary, inproc_summary, large_summary, pending):
    lines = []

    def verdict(ok):
        return "met" if ok else "NOT MET"

    biggest = large[-1]["name"] if large else None
    smallest = large[0]["name"] if large else None
    rw = large_summary.get((biggest, "inproc read+write"), {}) if biggest else {}
    corpus_rw = inproc_summary.get("read+write", {})
    if rw.get("mb_per_s"):
        first = ""
        if rw.get("first_s"):
            first = " (first call in a fresh process: %.2f GB/s)" % (
                large[-1]["bytes"] / 1e9 / rw["first_s"])
        lines.append("read+write >= 1 GB/s: %.2f GB/s on %s%s, %.2f GB/s over the corpus: %s" % (
            rw["mb_per_s"] / 1e3, biggest, first, (corpus_rw.get("mb_per_s") or 0) / 1e3,
            verdict(rw["mb_per_s"] >= 1000 and (corpus_rw.get("mb_per_s") or 0) >= 1000)))
    lines.append(speedup_target("dis", "spirv-dis", 5, inproc_summary, cli_summary, pending))
    d10 = large_summary.get((biggest, "dis"), {}) if biggest else {}
    if "dis" in pending:
        lines.append("dis of the %s module under 1 s: pending (placeholder)" % biggest)
    elif d10.get("spire_s") is not None:
        lines.append("dis of the %s module under 1 s: %s (spire dis, command line): %s" % (
            biggest, fmt_time(d10["spire_s"]), verdict(d10["spire_s"] < 1)))
    lines.append(speedup_target("as", "spirv-as", 3, inproc_summary, cli_summary, pending))
    lines.append(val_speed_target(inproc_summary, cli_summary))
    for label in ("read+write", "dis", "dis --raw-id", "as", "read+val", "val"):
        if label in pending and label != "read+write":
            lines.append("linear time, spire %s: pending (placeholder)" % label)
            continue
        key = "inproc " + label
        lin = large_summary.get((biggest, key), {}).get("spire_lin")
        if lin is not None:
            lines.append("linear time, spire %s in-process: time per MB at %s = %.2fx that at %s: %s"
                         % (label, biggest, lin, smallest, verdict(lin <= 1.5)))
    lines += val_linear_targets(large, large_summary)
    heaps = [(m["bytes"], large_summary.get((m["name"], "inproc read"), {}).get("heap"))
             for m in large]
    heaps = [(b, h) for b, h in heaps if h]
    if len(heaps) >= 2:
        per = [h / b for b, h in heaps]
        lines.append("linear memory, spire module: %s bytes of heap per byte of module from %s to "
                     "%s: %s" % (" / ".join("%.1f" % p for p in per), smallest, biggest,
                                 verdict(max(per) <= 1.5 * min(per))))
    return lines


if __name__ == "__main__":
    main()
