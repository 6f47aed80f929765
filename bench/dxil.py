#!/usr/bin/env python3
"""DXIL reading and printing: spire against llvm-dis-14 on the DXIL corpus.

[6a] in process: `spire_bench dxil` reads every container's bitcode into the module model, reads
     it and decodes the DXIL model (metadata records, every dx.op call resolved), and reads and
     prints it; thread CPU time of the median pass (and the fastest), MB/s of bitcode.
[6c] instructions (when valgrind is installed): `spire_bench dxil --model-once` under callgrind, the
     instructions readBitcode and decodeDxil execute a byte of bitcode: what the MB/s rows
     measure, without the machine's speed and load (a noisy or slower machine moves the MB/s, not
     these).
[6b] command line: one process per container, `spire dis <file.dxil>` against `llvm-dis-14
     <file.bc>` on the same program's bitcode (extracted once into the build tree), CPU time
     (user + system, from wait4) and wall time summed over the corpus, median of BENCH_RUNS
     passes; the ratio is llvm-dis-14's time over spire's. `spire --version` in the same loop
     gives the part of spire dis that is the process's start.
"""
import json
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile

from dxil_common import parse_arguments, run_once


def extract_bitcode(path):
    data = open(path, 'rb').read()
    if data[:4] != b'DXBC':
        return None
    count = struct.unpack_from('<I', data, 28)[0]
    for i in range(count):
        offset = struct.unpack_from('<I', data, 32 + 4 * i)[0]
        if data[offset:offset + 4] in (b'DXIL',):
            body = offset + 8
            bc_offset, bc_size = struct.unpack_from('<II', data, body + 16)
            start = body + 8 + bc_offset
            return data[start:start + bc_size]
    return None


def instructions_per_byte(bench, corpus, total_bytes):
    """[6c]: readBitcode's and decodeDxil's instructions (inclusive) a byte of bitcode."""
    if not shutil.which('valgrind') or not shutil.which('callgrind_annotate'):
        print('[6c] instructions: skipped (no valgrind)')
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'callgrind.out')
        # Only the second of two passes is collected: the first fills the per-thread memos.
        run = subprocess.run(['valgrind', '--tool=callgrind', f'--callgrind-out-file={out}',
                              '--collect-atstart=no', '--toggle-collect=*dxilModelPass*',
                              bench, 'dxil', '--model-once', corpus],
                             capture_output=True, text=True)
        if run.returncode != 0 or not os.path.exists(out):
            print(f'[6c] instructions: callgrind failed ({run.returncode})')
            return
        report = subprocess.run(['callgrind_annotate', '--inclusive=yes', '--threshold=100',
                                 out], capture_output=True, text=True).stdout
    counts = {}
    for line in report.splitlines():
        for name in ('readBitcode', 'decodeDxil'):
            if f'spire::dxil::{name}(' in line and name not in counts:
                counts[name] = int(line.split()[0].replace(',', ''))
    if len(counts) != 2:
        print('[6c] instructions: readBitcode or decodeDxil not in the profile')
        return
    read, model = (counts[k] / total_bytes for k in ('readBitcode', 'decodeDxil'))
    print(f'[6c] instructions a byte of bitcode (callgrind): read {read:.1f}, model {model:.1f},'
          f' read+model {read + model:.1f}')


def main():
    args, spire, bench, files = parse_arguments(__doc__)
    work = os.path.join(args.build, 'bench-data', 'dxil-bitcode')
    os.makedirs(work, exist_ok=True)
    pairs = []
    for f in files:
        bitcode = extract_bitcode(f)
        if bitcode is None:
            continue
        bc = os.path.join(work, os.path.basename(f)[:-5] + '.bc')
        if not os.path.exists(bc) or open(bc, 'rb').read() != bitcode:
            with open(bc, 'wb') as out:
                out.write(bitcode)
        pairs.append((f, bc))
    total_bytes = sum(os.path.getsize(bc) for _, bc in pairs)

    print(f'[6a] DXIL in process: {len(pairs)} programs, {total_bytes} bytes of bitcode')
    out = subprocess.run([bench, 'dxil', args.corpus], capture_output=True, text=True)
    for line in out.stdout.splitlines():
        r = json.loads(line)
        print(f"  {r['task']:<16} {r['seconds'] * 1e3:8.2f} ms CPU per pass   {r['mb_per_s']:8.1f} MB/s"
              f"   (fastest pass {r['best_mb_per_s']:.1f} MB/s)")

    instructions_per_byte(bench, args.corpus, total_bytes)

    spire_cpu, spire_wall, ref_cpu, ref_wall, start_cpu = [], [], [], [], []
    failures = 0
    for _ in range(args.runs):
        sc = sw = rc = rw = st = 0.0
        for dxil, bc in pairs:
            cpu, wall, code = run_once([spire, 'dis', dxil, '-o', '/dev/null'])
            failures += code != 0
            sc, sw = sc + cpu, sw + wall
            cpu, wall, code = run_once(['llvm-dis-14', bc, '-o', '/dev/null'])
            rc, rw = rc + cpu, rw + wall
            # The same process doing nothing: what of spire dis is the program's start.
            st += run_once([spire, '--version'], quiet=True)[0]
        spire_cpu.append(sc)
        spire_wall.append(sw)
        ref_cpu.append(rc)
        ref_wall.append(rw)
        start_cpu.append(st)
    sc, sw = statistics.median(spire_cpu), statistics.median(spire_wall)
    rc, rw = statistics.median(ref_cpu), statistics.median(ref_wall)
    st = statistics.median(start_cpu)
    n = len(pairs)
    print(f'[6b] DXIL command line, one process per program ({n} programs, median of '
          f'{args.runs} passes)')
    print(f'  llvm-dis-14   cpu {rc * 1e3 / n:7.2f} ms/file   wall {rw * 1e3 / n:7.2f} ms/file')
    print(f'  spire dis     cpu {sc * 1e3 / n:7.2f} ms/file   wall {sw * 1e3 / n:7.2f} ms/file'
          f'   ({failures} failed runs)')
    print(f'  ratio         cpu {rc / sc:6.1f}x              wall {rw / sw:6.1f}x'
          f'   (goal: 20x)')
    print(f'  spire --version cpu {st * 1e3 / n:5.2f} ms/file: the start-up is {st / sc:.0%} of '
          f'spire dis')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
