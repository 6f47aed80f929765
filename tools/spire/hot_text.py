#!/usr/bin/env python3
"""Writes hot-text.txt: the functions `spire dis` runs on a DXIL container, in the order the
linker should place them at the start of the program's text (lld --symbol-ordering-file).

A command run once per small file spends most of its time on first touches of the program's
pages (see CommandLine.cpp, populateHotText); with the functions it runs packed together, one
madvise maps them all. The list is a profile: a function missing from it (new, renamed) is only
placed elsewhere, and a name no longer in the program is skipped by the linker. Rerun this after
larger changes to the DXIL reader or printer:

  python3 tools/spire/hot_text.py --build build --corpus ../shared/corpus/dxil --every 1 \
      > tools/spire/hot-text.txt

It runs `spire --version` and `spire dis` on every --every'th container (and on one program's
bare bitcode) under callgrind, takes every function that ran, and orders them: the program's start
first, then the rest, each group by address in the profiled program (which keeps each object
file's functions together). Callgrind's simulated processor picks other variants of the C
library's string functions than a real one, so every variant of a string function that ran is
listed. Local names that the libraries compiled without a section per function also define are
left out (see whole_text_names). The two markers spire_hot_text_begin and spire_hot_text_end come first and last.

Then, between spire_translate_text_begin and spire_translate_text_end, the functions
`spire translate --deserialize-spirv` runs on small valid modules that the DXIL list does not
have; those it has go to its end, after spire_shared_text_begin. TranslateCommand.cpp maps
from spire_shared_text_begin to spire_translate_text_end for an input under 64 KB.
To rewrite that part alone, keeping the DXIL list as it is:

  python3 tools/spire/hot_text.py --build build --keep-dxil tools/spire/hot-text.txt \
      --spirv-corpus ../shared/corpus/spv > hot-text.new && mv hot-text.new tools/spire/hot-text.txt
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def functions_run(spire, argv):
    """Mangled names of the functions a run of spire executes."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'callgrind.out')
        subprocess.run(['valgrind', '--tool=callgrind', '--demangle=no',
                        '--callgrind-out-file=' + out, spire] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        names = set()
        with open(out) as f:
            for line in f:
                m = re.match(r'c?fn=\(\d+\) (.*)', line)
                if m:
                    names.add(m.group(1).strip())
        return names


def text_symbols(spire):
    """Name -> address of the program's function symbols."""
    out = subprocess.run(['nm', '--defined-only', spire], capture_output=True, text=True,
                         check=True).stdout
    symbols = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'tTwWiI':
            symbols.setdefault(parts[2], int(parts[0], 16))
    return symbols


def whole_text_names(build):
    """The local function names of the libraries compiled without a section per function. The
    linker moves every definition of a name in the order, and such a file's definition takes the
    whole text of its file along: a clone such as `insert.constprop.0`, which many files define,
    would bring the validator and the dialect into the packed range."""
    names = set()
    for lib in ('transforms', 'translate', 'asm'):
        path = os.path.join(build, 'src', 'libspire_%s.a' % lib)
        if not os.path.exists(path):
            continue
        out = subprocess.run(['nm', '--defined-only', path], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] == 't':
                names.add(parts[2])
    return names


# Multi-variant string functions of the C library: __memmove_avx_unaligned_erms and the like.
VARIANT = re.compile(r'^(__(?:mem|str|stp|wcs|wmem|raw)[a-z]*)_(?:sse|avx|evex|erms|ssse)')


def extract_bitcode(path):
    """The DXIL part's bitcode of a container, as bench/dxil.py extracts it."""
    import struct
    data = open(path, 'rb').read()
    count = struct.unpack_from('<I', data, 28)[0]
    for i in range(count):
        offset = struct.unpack_from('<I', data, 32 + 4 * i)[0]
        if data[offset:offset + 4] == b'DXIL':
            body = offset + 8
            bc_offset, bc_size = struct.unpack_from('<II', data, body + 16)
            return data[body + 8 + bc_offset:body + 8 + bc_offset + bc_size]
    return None


def small_modules(spire, corpus, count):
    """Up to `count` valid modules of the corpus's glslang/ folder from 4 to 32 KB, spread over
    that range, and the one bench/dialect.py's D3 row measures (nearest 14 KB)."""
    root = os.path.join(corpus, 'glslang')
    files = sorted(os.path.join(root, f) for f in os.listdir(root) if f.endswith('.spv'))
    sized = [f for f in files if 4096 <= os.path.getsize(f) <= 32768]
    picked = sized[::max(1, len(sized) // (2 * count))]
    nearest = sorted(files, key=lambda f: (abs(os.path.getsize(f) - 14000), f))[:50]
    valid = []
    for f in nearest[:50] + picked:
        if len(valid) > count:
            break
        if f not in valid and subprocess.run([spire, 'val', f], stdout=subprocess.DEVNULL,
                                             stderr=subprocess.DEVNULL).returncode == 0:
            valid.append(f)
    return valid


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--build', required=True, help='the build folder')
    parser.add_argument('--corpus', help='the folder of .dxil containers')
    parser.add_argument('--every', type=int, default=2)
    parser.add_argument('--keep-dxil', help='a hot-text.txt whose DXIL list is kept as it is')
    parser.add_argument('--spirv-corpus', help='the corpus folder of .spv modules (its glslang/)')
    parser.add_argument('--spirv-count', type=int, default=12)
    args = parser.parse_args()
    args.spire = os.path.join(args.build, 'tools', 'spire', 'spire')
    symbols = text_symbols(args.spire)
    for name in whole_text_names(args.build):
        symbols.pop(name, None)
    markers = ('spire_hot_text_begin', 'spire_hot_text_end')

    def listed(ran, start):
        families = {m.group(1) for name in ran if (m := VARIANT.match(name))}
        for name in symbols:
            m = VARIANT.match(name)
            if m and m.group(1) in families:
                ran.add(name)
        known = [n for n in ran if n in symbols and not n.startswith('spire_hot_text_') and
                 not n.startswith('spire_translate_text_') and
                 not n.startswith('spire_shared_text_')]
        known.sort(key=lambda n: (n not in start, symbols[n], n))
        return known

    if args.keep_dxil:
        lines = open(args.keep_dxil).read().split()
        dxil = lines[:lines.index(markers[1]) + 1]
    else:
        if not args.corpus:
            sys.exit('say --corpus (or --keep-dxil)')
        containers = sorted(os.path.join(args.corpus, f) for f in os.listdir(args.corpus)
                            if f.endswith('.dxil'))[::args.every]
        if not containers:
            sys.exit('no .dxil files in ' + args.corpus)
        start = functions_run(args.spire, ['--version'])
        ran = set(start)
        with tempfile.TemporaryDirectory() as tmp:
            bitcode = os.path.join(tmp, 'program.bc')
            with open(bitcode, 'wb') as f:
                f.write(extract_bitcode(containers[0]) or b'')
            runs = [[c, '-o', '/dev/null'] for c in containers] + [[bitcode, '-o', '/dev/null']]
            for argv in runs:
                ran |= functions_run(args.spire, ['dis'] + argv)
        dxil = [markers[0]] + listed(ran, start) + [markers[1]]
    if not args.spirv_corpus:
        for name in dxil:
            print(name)
        return
    ran = set()
    for f in small_modules(args.spire, args.spirv_corpus, args.spirv_count):
        ran |= functions_run(args.spire,
                             ['translate', '--deserialize-spirv', f, '-o', '/dev/null'])
    translated = set(listed(ran, set()))
    # The DXIL list's functions that translation runs too (the start, the C library, support/)
    # go to its end, after spire_shared_text_begin, so that each command's functions are one
    # range: the DXIL list for `spire dis`, from spire_shared_text_begin to
    # spire_translate_text_end for translate.
    body = [n for n in dxil[1:-1] if n != 'spire_shared_text_begin']
    print(markers[0])
    for name in body:
        if name not in translated:
            print(name)
    print('spire_shared_text_begin')
    for name in body:
        if name in translated:
            print(name)
    print(markers[1])
    print('spire_translate_text_begin')
    taken = set(dxil)
    for name in sorted(translated - taken, key=lambda n: (symbols[n], n)):
        print(name)
    print('spire_translate_text_end')


if __name__ == '__main__':
    main()
