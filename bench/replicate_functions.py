#!/usr/bin/env python3
"""Makes a larger module out of a generated one by copying its functions, for the benchmarks'
largest rows: glslangValidator takes tens of minutes on the 12 MB shader gen_large_modules.py
writes for a 50 MB module, this takes seconds.

The module is disassembled with raw ids (`spire dis --raw-id`); every function but the entry
point is copied `--copies - 1` more times, each copy's own ids (its results, parameters and
labels) moved past the module's bound, so that a copy calls the copies made with it and uses the
module's types, constants and globals; then it is assembled again (`spire as`). The copies are
not called from the entry point: they are what a reader, validator and printer work through,
not what a shader runs. Names and decorations are not copied (a generated module has none on
function-local ids but the originals').

Usage: replicate_functions.py --spire build/tools/spire/spire large_10.spv --copies 7 -o large_50.spv
"""
import argparse
import re
import subprocess
import sys
import tempfile

DEFINITION = re.compile(r'\s*%(\d+) = ')
ID = re.compile(r'%(\d+)')


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('module')
    ap.add_argument('--spire', required=True)
    ap.add_argument('--copies', type=int, required=True, help='how many of each function in all')
    ap.add_argument('-o', dest='output', required=True)
    args = ap.parse_args()
    text = subprocess.run([args.spire, 'dis', '--raw-id', args.module], check=True,
                          capture_output=True, text=True).stdout.split('\n')
    bound = int(next(line for line in text if line.startswith('; Bound:')).split()[-1])
    entries = {m.group(1) for line in text if 'OpEntryPoint' in line
               for m in [re.search(r'OpEntryPoint \w+ %(\d+)', line)] if m}
    first = next((i for i, line in enumerate(text) if ' = OpFunction ' in line), None)
    if first is None:
        sys.exit('replicate_functions.py: %s has no function' % args.module)
    functions, current = [], None
    for line in text[first:]:
        if ' = OpFunction ' in line:
            current = [line]
            functions.append(current)
        elif current is not None:
            current.append(line)
    copied = [f for f in functions if DEFINITION.match(f[0]).group(1) not in entries]
    local = {m.group(1) for f in copied for line in f for m in [DEFINITION.match(line)] if m}
    out = [line for line in text if not line.startswith('; Bound:')]
    for k in range(1, args.copies):
        shift = k * bound

        def moved(m):
            return '%' + str(int(m.group(1)) + shift) if m.group(1) in local else m.group(0)
        for f in copied:
            out.extend(ID.sub(moved, line) for line in f)
    with tempfile.NamedTemporaryFile('w', suffix='.spvasm') as tmp:
        tmp.write('\n'.join(out) + '\n')
        tmp.flush()
        subprocess.run([args.spire, 'as', tmp.name, '-o', args.output], check=True)


if __name__ == '__main__':
    main()
