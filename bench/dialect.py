#!/usr/bin/env python3
"""spire translate against mlir-translate-16 (the structured IR, issue #4), in one run.

[D1] Corpus, command line: every module that mlir-translate-16 deserializes (it fails or crashes
     on most) and spire too: CPU time of `mlir-translate-16 --deserialize-spirv` against
     `spire translate --deserialize-spirv --mlir16` (validation included), and of
     `--serialize-spirv` on mlir-translate-16's own text where mlir-translate-16 serializes it.
     Outputs are compared: spire's text must equal mlir-translate-16's. Parse + verify + print:
     `mlir-opt-16` against `spire opt --mlir16` (no passes) on mlir-translate-16's text.
[D2] Large modules (the generated 0.3 to 10 MB compute modules), in-process (spire_bench
     measure): to-mlir (read + deserialize + print) and from-mlir (parse + verify + serialize),
     with linearity, the peak resident memory of `spire translate --deserialize-spirv` per
     module byte and the in-process MB/s; mlir-translate-16 is tried on them on the command
     line.
[D3] A small valid module (the one of the corpus's spv/ nearest 14 KB that spire val accepts):
     `spire translate --deserialize-spirv` against `spire dis`, median CPU time per process.

Results are printed and saved as <build>/bench-results/dialect.txt.
Usage: bench/dialect.py --build <dir> --corpus <dir> --large <spv>... [--parts D2,D3]
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile


def cpu_run(cmd, timeout=20, stdin=None):
    """(cpu seconds, exit status, stdout) of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, input=stdin,
                           timeout=timeout)
        status, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        status, out = 124, b""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return used, status, out


GNU_TIME = "/usr/bin/time"


def peak_run(cmd):
    """(cpu seconds, peak resident bytes, exit status) of one child, from its own rusage.

    Linux keeps a process's peak resident size across exec, so a child forked from this Python
    process starts with Python's (about 13 MB), which swamps a small module's figure. Where GNU
    time is installed, the command runs under it: it forks the command from a small process and
    reports that child's peak (%M, in KiB) on the last line of its standard error."""
    timed = os.access(GNU_TIME, os.X_OK)
    full = [GNU_TIME, "-f", "%M"] + cmd if timed else cmd
    p = subprocess.Popen(full, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE if timed else subprocess.DEVNULL)
    err = p.stderr.read() if timed else b""
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    peak = usage.ru_maxrss * 1024
    if timed:
        lines = err.decode(errors="replace").strip().splitlines()
        if lines and lines[-1].strip().isdigit():
            peak = int(lines[-1].strip()) * 1024
    return usage.ru_utime + usage.ru_stime, peak, p.returncode


def fix_invalid_names(text):
    """mlir-translate-16 writes names like %40entryPointOutput_addr, which MLIR cannot parse;
    spire writes %_40entryPointOutput_addr."""
    out, i = [], 0
    while i < len(text):
        out.append(text[i])
        if text[i] == "%":
            j = i + 1
            while j < len(text) and text[j].isdigit():
                j += 1
            if j > i + 1 and j < len(text) and (text[j].isalnum() or text[j] in "_$.-"):
                out.append("_")
        i += 1
    return "".join(out)


def corpus_rows(spire, corpus, lines):
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs
                   if f.endswith(".spv"))
    tot = {"ref_de": 0.0, "spire_de": 0.0, "ref_se": 0.0, "spire_se": 0.0, "ref_pp": 0.0,
           "spire_pp": 0.0}
    n_de = n_se = n_pp = same = 0
    ref_only = spire_only = 0
    with tempfile.TemporaryDirectory() as tmp:
        ref_text_path = os.path.join(tmp, "ref.mlir")
        for f in files:
            t_ref, rc_ref, ref_text = cpu_run(["mlir-translate-16", "--deserialize-spirv", f])
            t_sp, rc_sp, sp_text = cpu_run([spire, "translate", "--deserialize-spirv", "--mlir16", f])
            if rc_ref != 0 or not ref_text:
                spire_only += rc_sp == 0
                continue
            if rc_sp != 0:
                ref_only += 1
                continue
            n_de += 1
            tot["ref_de"] += t_ref
            tot["spire_de"] += t_sp
            same += fix_invalid_names(ref_text.decode(errors="replace")) == \
                sp_text.decode(errors="replace")
            with open(ref_text_path, "wb") as out:
                out.write(ref_text)
            t_rs, rc_rs, _ = cpu_run(["mlir-translate-16", "--no-implicit-module",
                                      "--serialize-spirv", ref_text_path, "-o",
                                      os.path.join(tmp, "ref.spv")])
            t_ss, rc_ss, _ = cpu_run([spire, "translate", "--serialize-spirv", ref_text_path,
                                      "-o", os.path.join(tmp, "spire.spv")])
            if rc_rs == 0 and rc_ss == 0:
                n_se += 1
                tot["ref_se"] += t_rs
                tot["spire_se"] += t_ss
            # Parse + verify + print of the same text (mlir-opt-16 without passes, spire opt
            # without passes), both writing to a pipe.
            t_rp, rc_rp, _ = cpu_run(["mlir-opt-16", ref_text_path])
            t_sp2, rc_sp2, _ = cpu_run([spire, "opt", "--mlir16", ref_text_path])
            if rc_rp == 0 and rc_sp2 == 0:
                n_pp += 1
                tot["ref_pp"] += t_rp
                tot["spire_pp"] += t_sp2
    start_ref = min(cpu_run(["mlir-translate-16", "--version"])[0] for _ in range(5))
    start_sp = min(cpu_run([spire, "--version"])[0] for _ in range(5))
    lines.append("[D1] corpus, command line (%d modules in %s)" % (len(files), corpus))
    lines.append("  deserialized by both: %d; by spire only: %d; by mlir-translate-16 only: %d"
                 % (n_de, spire_only, ref_only))
    if n_de:
        lines.append("  deserialize: mlir-translate-16 %.3f s, spire %.3f s (validation "
                     "included): %.1fx; spire's --mlir16 text identical on %d of %d"
                     % (tot["ref_de"], tot["spire_de"], tot["ref_de"] / tot["spire_de"], same,
                        n_de))
    if n_se:
        lines.append("  serialize (mlir-translate-16's text, %d modules it serializes): "
                     "mlir-translate-16 %.3f s, spire %.3f s: %.1fx"
                     % (n_se, tot["ref_se"], tot["spire_se"], tot["ref_se"] / tot["spire_se"]))
    if n_pp:
        lines.append("  parse + verify + print (mlir-translate-16's text, %d modules mlir-opt-16 "
                     "reads): mlir-opt-16 %.3f s, spire opt %.3f s: %.1fx"
                     % (n_pp, tot["ref_pp"], tot["spire_pp"], tot["ref_pp"] / tot["spire_pp"]))
    lines.append("  start-up (--version): mlir-translate-16 %.1f ms, spire %.1f ms"
                 % (start_ref * 1e3, start_sp * 1e3))
    return {"modules": n_de, **tot}


def large_rows(build, spire, large, lines):
    """Command line (what a user sees) and in-process (spire_bench) times per module."""
    bench = os.path.join(build, "bench", "spire_bench")
    # Repeated calls on every module, the largest too (spire_bench measures a call slower than 2 s
    # once by default: a first call, which pays a fault for each fresh page, 3x on this VM).
    p = subprocess.run([bench, "measure", "--ops", "to-mlir,from-mlir", "--single-above", "60",
                        "--timeout", "600"] + large,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    inproc = {}
    for line in p.stdout.splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("scope") == "file" and d.get("median_s"):
            inproc[(d["op"], d["file"])] = d["median_s"]
    lines.append("[D2] large modules: spire translate on the command line (CPU time, best of 3) "
                 "and in-process (median); lin. = time per MB / that of the smallest; peak = "
                 "the deserializing process's peak resident memory per module byte (goal: at "
                 "most 10); MB/s = in-process to-mlir (goal: at least 20)")
    lines.append("  %-18s %7s %11s %11s %6s %6s %11s %11s %7s %7s  %s" % (
        "module", "MB", "deser.", "ser.", "lin.d", "lin.s", "to-mlir", "from-mlir", "peak",
        "MB/s", "mlir-translate-16"))
    base, peaks = {}, []
    with tempfile.TemporaryDirectory() as tmp:
        text = os.path.join(tmp, "m.mlir")
        for f in large:
            mb = os.path.getsize(f) / 1e6
            runs = [peak_run([spire, "translate", "--deserialize-spirv", f, "-o", text])
                    for _ in range(3)]
            de = min(r[0] for r in runs)
            peaks.append((os.path.getsize(f), min(r[1] for r in runs)))
            peak = peaks[-1][1] / os.path.getsize(f)
            se = min(cpu_run([spire, "translate", "--serialize-spirv", text, "-o",
                              os.path.join(tmp, "m.spv")], timeout=120)[0] for _ in range(3))
            base.setdefault("de", de / mb)
            base.setdefault("se", se / mb)
            t_ref, rc_ref, _ = cpu_run(["mlir-translate-16", "--deserialize-spirv", f],
                                       timeout=60)
            ref = "%.2f s" % t_ref if rc_ref == 0 else "fails (exit %d)" % rc_ref
            ti = inproc.get(("to-mlir", f))
            fi = inproc.get(("from-mlir", f))
            lines.append("  %-18s %7.2f %8.1f ms %8.1f ms %6.2f %6.2f %11s %11s %7.1f %7s  %s" % (
                os.path.basename(f), mb, de * 1e3, se * 1e3, (de / mb) / base["de"],
                (se / mb) / base["se"], "%.1f ms" % (ti * 1e3) if ti else "-",
                "%.1f ms" % (fi * 1e3) if fi else "-", peak,
                "%.1f" % (mb / ti) if ti else "-", ref))
    if len(peaks) >= 2:
        # What each module byte adds between successive rows, and the process's own part (its code
        # and tables, whatever the module), where the line through the two smallest rows meets
        # zero: a small module's bytes-per-byte is mostly that part.
        peaks.sort()
        slopes = [(y1 - y0) / (x1 - x0) for (x0, y0), (x1, y1) in zip(peaks, peaks[1:])
                  if x1 > x0]
        if slopes:
            lines.append("  peak memory: the process's own %.1f MB, and each module byte adds %s "
                         "bytes from one row to the next" % (
                             (peaks[0][1] - slopes[0] * peaks[0][0]) / 1e6,
                             ", ".join("%.2f" % d for d in slopes)))


def small_row(spire, corpus, lines, target=14000, runs=21):
    """A small valid module (the module of the corpus's spv/ nearest `target` bytes that spire
    val accepts: an invalid one would also be verified whole, which is not the case measured):
    spire translate --deserialize-spirv against spire dis, median CPU time of `runs` processes
    each, run in alternation so that both see the same machine (goal: within 2 ms)."""
    root = os.path.join(corpus, "spv")
    files = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".spv")]
    files.sort(key=lambda x: (abs(os.path.getsize(x) - target), x))
    f = next((x for x in files[:50]
              if subprocess.run([spire, "val", x], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL).returncode == 0), None)
    if not f:
        return
    de, dis = [], []
    for _ in range(runs):
        de.append(peak_run([spire, "translate", "--deserialize-spirv", f, "-o", os.devnull])[0])
        dis.append(peak_run([spire, "dis", f, "-o", os.devnull])[0])
    de, dis = sorted(de)[runs // 2], sorted(dis)[runs // 2]
    lines.append("[D3] small module %s (%d bytes), median CPU of %d processes: spire translate "
                 "--deserialize-spirv %.2f ms, spire dis %.2f ms, difference %.2f ms (goal: at "
                 "most 2)" % (os.path.relpath(f, corpus), os.path.getsize(f), runs, de * 1e3,
                              dis * 1e3, (de - dis) * 1e3))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--large", nargs="*", default=[])
    ap.add_argument("--parts", default="D1,D2,D3",
                    help="which parts to run, comma-separated (D1 takes minutes: the whole corpus)")
    args = ap.parse_args()
    parts = set(args.parts.upper().split(","))
    spire = os.path.join(args.build, "tools", "spire", "spire")
    for tool in ("mlir-translate-16",):
        if subprocess.run(["which", tool], stdout=subprocess.DEVNULL).returncode != 0:
            print("bench/dialect.py: %s not found, skipped" % tool)
            return 0
    lines = ["spire translate vs mlir-translate-16"]
    if "D1" in parts:
        corpus_rows(spire, args.corpus, lines)
    if "D3" in parts:
        small_row(spire, args.corpus, lines)
    if args.large and "D2" in parts:
        large_rows(args.build, spire, args.large, lines)
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    out_dir = os.path.join(args.build, "bench-results")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "dialect.txt"), "w") as out:
        out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
