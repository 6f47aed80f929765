#!/usr/bin/env python3
"""How often spire val agrees with spirv-val's recorded verdicts in ../shared/corpus.

  val-agreement.py SPIRE [--set invalid|valid|all] [--filter TEXT] [--show N] [--report FILE]

invalid: the mutated modules of spv-invalid/ (MANIFEST column 4 is spirv-val's verdict);
valid:   every module of spv/*/ that spirv-val accepts in its target environment.
Prints the counts, then the disagreements grouped by spirv-val's first message. A tool for
working on the validator; the corpus test (tests/corpus/ValidatorCorpusTest.cpp) is the check.
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "corpus")


def cases(which):
    if which in ("invalid", "all"):
        d = os.path.join(CORPUS, "spv-invalid")
        for line in open(os.path.join(d, "MANIFEST.tsv")):
            f = line.rstrip("\n").split("\t")
            if len(f) >= 5 and f[0].endswith(".spv"):
                yield os.path.join(d, f[0]), f[4], f[3] == "valid", f[5] if len(f) > 5 else ""
    if which in ("valid", "all"):
        root = os.path.join(CORPUS, "spv")
        for sub in sorted(os.listdir(root)):
            man = os.path.join(root, sub, "MANIFEST.tsv")
            if not os.path.exists(man):
                continue
            for line in open(man):
                f = line.rstrip("\n").split("\t")
                if len(f) < 12 or f[0] == "file" or f[11] != "pass":
                    continue
                yield os.path.join(root, sub, f[0]), f[10], True, ""


def run(spire, path, env):
    p = subprocess.run([spire, "val", "--target-env", env, "--max-errors", "1", path],
                       capture_output=True, text=True)
    first = (p.stderr.splitlines() or [""])[0]
    return p.returncode, first


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("spire")
    ap.add_argument("--set", default="invalid", choices=["invalid", "valid", "all"])
    ap.add_argument("--filter", default="")
    ap.add_argument("--show", type=int, default=3)
    ap.add_argument("--report")
    a = ap.parse_args()
    todo = [c for c in cases(a.set) if a.filter in c[0] or a.filter in c[3]]
    agree = 0
    missed = collections.defaultdict(list)   # spirv-val rejects, spire accepts
    extra = collections.defaultdict(list)    # spirv-val accepts, spire rejects
    crashes = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for (path, env, valid, msg), (rc, first) in zip(
                todo, ex.map(lambda c: run(a.spire, c[0], c[1]), todo)):
            if rc not in (0, 1):
                crashes.append((path, rc, first))
            elif (rc == 0) == valid:
                agree += 1
            elif valid:
                key = re.sub(r"\d+", "N", first.split("]: ")[0].split("): ", 1)[-1])[:90]
                extra[key].append((path, env, first))
            else:
                key = re.sub(r"\d+", "N", msg.split(": ", 1)[-1])[:90]
                missed[key].append((path, env, msg))
    total = len(todo)
    nm = sum(len(v) for v in missed.values())
    ne = sum(len(v) for v in extra.values())
    out = [f"{total} modules: {agree} agree ({100.0 * agree / max(total, 1):.2f}%), "
           f"{nm} invalid ones accepted, {ne} valid ones rejected, {len(crashes)} crashed"]
    for title, groups in (("accepted but spirv-val rejects", missed),
                          ("rejected but spirv-val accepts", extra)):
        if groups:
            out.append(f"\n== {title}")
        for key, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            out.append(f"{len(items):5d}  {key}")
            for path, env, msg in items[:a.show]:
                out.append(f"         {os.path.relpath(path, CORPUS)} [{env}] {msg[:160]}")
    for path, rc, first in crashes:
        out.append(f"CRASH rc={rc} {path}: {first}")
    text = "\n".join(out)
    print(text)
    if a.report:
        open(a.report, "w").write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
