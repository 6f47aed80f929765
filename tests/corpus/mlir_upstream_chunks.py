#!/usr/bin/env python3
"""Counts the chunks of MLIR's own SPIR-V tests (../shared/corpus/mlir-upstream) that pass with
spire in place of mlir-translate / mlir-opt, per file and per folder.

A file whose RUN lines split their input (--split-input-file / -split-input-file) has one chunk
per `// -----` part, any other file one chunk. Each chunk is written to a file of its own, at
its own line numbers (the lines before it left blank, so that diagnostics and CHECK lines keep
their lines), and every RUN line of the file is run on it as MlirUpstreamCorpusTest runs them
(%s, %t, `%if spirv-tools`, FileCheck-14, not-14, split-file-14); a chunk without CHECK lines
skips FileCheck, which refuses an empty check file (the lines of the prefix the RUN line's
FileCheck reads: --check-prefix, or CHECK). A chunk passes when every RUN line exits 0.

Usage: tests/corpus/mlir_upstream_chunks.py --spire build/tools/spire/spire
           [--corpus ../shared/corpus/mlir-upstream] [--spirv-tools ../shared/tools/spirv-tools/bin]
           [--files] [--json out.json]
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile


def run_lines(text):
    lines, pending = [], ""
    for line in text.split("\n"):
        at = line.find("RUN:")
        if at < 0:
            continue
        body = line[at + 4:].rstrip(" \r")
        if body.endswith("\\"):
            pending += body[:-1] + " "
            continue
        lines.append(pending + body)
        pending = ""
    if pending:
        lines.append(pending)
    return lines


def expand_if(cmd, feature, present):
    opening = "%if " + feature + " %{"
    while opening in cmd:
        at = cmd.index(opening)
        close = cmd.find("%}", at)
        if close < 0:
            break
        then = cmd[at + len(opening):close]
        rest = close + 2
        otherwise = ""
        m = re.match(r"\s*%else %\{", cmd[rest:])
        if m:
            else_close = cmd.find("%}", rest + m.end())
            otherwise = cmd[rest + m.end():else_close]
            rest = else_close + 2
        cmd = cmd[:at] + (then if present else otherwise) + cmd[rest:]
    return cmd


def replace_word(cmd, word, by):
    return re.sub(r"(?<![\w./-])" + re.escape(word) + r"(?![\w-])", lambda _: by, cmd)


def chunks(text, split):
    """(first line index, text with the lines before it blank) per chunk."""
    lines = text.split("\n")
    if not split:
        return [text]
    out, start = [], 0
    for i, line in enumerate(lines + ["// -----"]):
        if i == len(lines) or re.match(r"^\s*// -----", line):
            out.append("\n" * start + "\n".join(lines[start:i]) + "\n")
            start = i + 1
    return out


def command(line, path, temp, args, has_checks):
    tools = args.spirv_tools
    cmd = expand_if(line, "spirv-tools", os.path.exists(os.path.join(tools, "spirv-val")))
    cmd = replace_word(cmd, "mlir-translate", shlex.quote(args.spire) + " translate")
    cmd = replace_word(cmd, "mlir-opt", shlex.quote(args.spire) + " opt")
    if not has_checks:
        cmd = re.sub(r"\|\s*FileCheck\S*[^|]*", "| cat > /dev/null", cmd)
    cmd = replace_word(cmd, "FileCheck", "FileCheck-14")
    cmd = replace_word(cmd, "split-file", "split-file-14")
    cmd = replace_word(cmd, "not", "not-14")
    for tool in ("spirv-val", "spirv-as", "spirv-dis"):
        cmd = replace_word(cmd, tool, shlex.quote(os.path.join(tools, tool)))
    return cmd.replace("%s", shlex.quote(path)).replace("%t", shlex.quote(temp))


def count_file(path, args, work):
    text = open(path, encoding="utf-8").read()
    lines = run_lines(text)
    split = any("split-input-file" in l for l in lines)
    results = []
    for i, chunk in enumerate(chunks(text, split)):
        name = os.path.join(work, "chunk%d%s" % (i, os.path.splitext(path)[1]))
        with open(name, "w", encoding="utf-8") as f:
            f.write(chunk)
        ok = bool(lines)
        for line in lines:
            # A RUN line's FileCheck reads the lines of its own prefix (CHECK unless told).
            prefix = re.search(r"--?check-prefix[=\s]+(\w+)", line)
            prefix = prefix.group(1) if prefix else "CHECK"
            has_checks = re.search(r"\b" + prefix + r"[\w-]*:", chunk) is not None
            cmd = command(line, name, name + ".tmp", args, has_checks)
            r = subprocess.run(["/bin/bash", "-c", "set -o pipefail; cd %s && %s" %
                                (shlex.quote(work), cmd)], capture_output=True, timeout=120)
            if r.returncode != 0:
                ok = False
                break
        results.append(ok)
    return results


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--spire", required=True)
    p.add_argument("--corpus", default=os.path.join(here, "../../../shared/corpus/mlir-upstream"))
    p.add_argument("--spirv-tools", default=os.path.join(here, "../../../shared/tools/spirv-tools/bin"))
    p.add_argument("--files", action="store_true", help="print each file's count")
    p.add_argument("--json", help="write {file: [passed, chunks]} here")
    args = p.parse_args()
    args.spire = os.path.abspath(args.spire)
    args.spirv_tools = os.path.abspath(args.spirv_tools)
    per_file = {}
    for folder in ("Target", "IR"):
        root = os.path.join(args.corpus, folder)
        passed = total = files_passed = 0
        for name in sorted(os.listdir(root)):
            if not name.endswith((".mlir", ".spvasm")):
                continue
            with tempfile.TemporaryDirectory() as work:
                r = count_file(os.path.join(root, name), args, work)
            per_file[folder + "/" + name] = [sum(r), len(r)]
            passed += sum(r)
            total += len(r)
            files_passed += all(r) and bool(r)
            if args.files:
                print("  %-50s %3d of %3d" % (folder + "/" + name, sum(r), len(r)))
        print("%s: %d of %d chunks pass (files whose every chunk passes: %d)" %
              (folder, passed, total, files_passed))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(per_file, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
