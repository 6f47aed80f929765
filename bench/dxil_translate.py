#!/usr/bin/env python3
"""DXIL -> SPIR-V translation: spire against the oracle (dxil-spirv) on the DXIL corpus.

[7a] per file: one process per container, `spire translate --dxil-to-spirv <file> -o <dir>/`
     (which validates every module before writing it) against `dxil-spirv <file> --output
     <file.spv>` (its default options), CPU time (user + system, from wait4) and wall time,
     process start included, summed over the containers both translate, median of BENCH_RUNS
     passes; the ratio is the oracle's time over spire's (above 1: spire is faster).
[7b] batch: the whole set in one spire process (`spire_bench dxil-translate`, median pass,
     translation and then validation of every module) against the oracle's batch, which is one
     process per container (dxil-spirv has no batch mode: its scripts/batch.sh loops), on the
     same containers.
Goals (issue 15): faster than the oracle per file, at most half its time in batch.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from dxil_common import parse_arguments, run_once


def main():
    args, spire, bench, files = parse_arguments(
        __doc__, [('--oracle', 'the dxil-spirv program')])
    work = tempfile.mkdtemp(prefix='spire-bench-dxil-translate-')
    try:
        def spire_argv(f):
            return [spire, 'translate', '--dxil-to-spirv', f, '-o', os.path.join(work, 's') + '/']

        def oracle_argv(f):
            return [args.oracle, f, '--output', os.path.join(work, 'o.spv')]

        # Which containers each translates (the first pass decides; both are deterministic).
        times = {f: ([], [], [], []) for f in files}  # spire cpu, wall, oracle cpu, wall
        spire_ok, oracle_ok = set(), set()
        for run in range(args.runs):
            for f in files:
                sc, sw, scode = run_once(spire_argv(f), quiet=True)
                oc, ow, ocode = run_once(oracle_argv(f), quiet=True)
                if run == 0:
                    if scode == 0:
                        spire_ok.add(f)
                    if ocode == 0 and os.path.exists(os.path.join(work, 'o.spv')):
                        oracle_ok.add(f)
                for i, v in enumerate((sc, sw, oc, ow)):
                    times[f][i].append(v)
                path = os.path.join(work, 'o.spv')
                if os.path.exists(path):
                    os.remove(path)
                shutil.rmtree(os.path.join(work, 's'), ignore_errors=True)
        both = sorted(spire_ok & oracle_ok)
        n = len(both)
        print(f'[7] DXIL -> SPIR-V: {len(files)} containers; spire translates {len(spire_ok)}, '
              f'the oracle {len(oracle_ok)}, both {n}')
        if n == 0:
            print('  nothing to compare')
            return 0

        def pass_sums(index):
            return [sum(times[f][index][r] for f in both) for r in range(args.runs)]

        sc, sw = statistics.median(pass_sums(0)), statistics.median(pass_sums(1))
        oc, ow = statistics.median(pass_sums(2)), statistics.median(pass_sums(3))
        print(f'[7a] per file, one process each, process start included ({n} containers both '
              f'translate, median of {args.runs} passes)')
        print(f'  dxil-spirv        cpu {oc * 1e3 / n:7.2f} ms/file   wall {ow * 1e3 / n:7.2f} '
              f'ms/file')
        print(f'  spire translate   cpu {sc * 1e3 / n:7.2f} ms/file   wall {sw * 1e3 / n:7.2f} '
              f'ms/file')
        print(f'  ratio             cpu {oc / sc:6.2f}x             wall {ow / sw:6.2f}x'
              f'   (goal: above 1x)')
        start = [statistics.median(run_once(argv, quiet=True)[0] for _ in range(9))
                 for argv in ([spire, '--version'], [args.oracle, '--help'])]
        print(f'  process start alone (--version / --help, cpu): spire {start[0] * 1e3:.2f} ms, '
              f'dxil-spirv {start[1] * 1e3:.2f} ms')

        out = subprocess.run([bench, 'dxil-translate', '--passes', str(max(5, args.runs))] + both,
                             capture_output=True, text=True)
        rows = {json.loads(l)['task']: json.loads(l) for l in out.stdout.splitlines()}
        batch = rows.get('dxil translate+val', {}).get('seconds')
        alone = rows.get('dxil translate', {}).get('seconds')
        print(f'[7b] batch, the same {n} containers')
        print(f'  dxil-spirv (one process per file: it has no batch mode)   wall {ow * 1e3:8.1f} ms')
        if batch:
            print(f'  spire, one process (spire_bench dxil-translate)         wall '
                  f'{batch * 1e3:8.1f} ms (translation alone {alone * 1e3:.1f} ms)')
            print(f'  ratio {ow / batch:8.1f}x   (goal: at least 2x)')
        else:
            print(f'  spire_bench dxil-translate failed: {out.stderr.strip()}')
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
