#!/usr/bin/env python3
"""Writes hot-text.txt: the functions `spire dis` and `spire translate --dxil-to-spirv` run on a
DXIL container and `spire translate --deserialize-spirv` runs on a small module, in the order
the linker should place them at the start of the program's text (lld --symbol-ordering-file).

A command run once per small file spends most of its time on first touches of the program's
pages (see CommandLine.cpp, populateHotText); with the functions it runs packed together, one
madvise or two map them all. The list is a profile: a function missing from it (new, renamed) is
only placed elsewhere, and a name no longer in the program is skipped by the linker. Rerun this
after larger changes to the DXIL reader, printer or translator, the validator or the dialect:

  python3 tools/spire/hot_text.py --build build --corpus ../shared/corpus/dxil --every 1 \
      --spirv-corpus ../shared/corpus/spv > tools/spire/hot-text.txt

It runs, under callgrind, `spire --version`, `spire dis` on every --every'th container (and on
one program's bare bitcode), `spire translate --dxil-to-spirv` on the same containers and `spire
translate --deserialize-spirv` on --spirv-count small valid glslang modules (and the one
bench/dialect.py's D3 row measures), takes every function that ran, and writes them in groups
between markers (CommandLine.cpp lists them): what dis runs and the SPIR-V translation does not,
what both run, what only the SPIR-V translation runs, what both translations run besides, what
only the DXIL translation runs. After the last marker come the functions that only a large
module's translation runs (a 0.3 MB module made by bench/gen_large_modules.py and
glslangValidator; skipped without glslangValidator): no command maps them ahead, but packed
they take a few pages of memory instead of a 64 KB window of the program each. Each group is in the order of the profiled program's addresses
(which keeps each object file's functions together), the program's start first. Callgrind's
simulated processor picks other variants of the C library's string functions than a real one,
so every variant of a string function that ran is listed. Local names that the libraries
compiled without a section per function also define are left out (see whole_text_names).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def functions_run(spire, argv, check=True):
    """Mangled names of the functions a run of spire executes (a failing run's too, unless
    `check`)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'callgrind.out')
        subprocess.run(['valgrind', '--tool=callgrind', '--demangle=no',
                        '--callgrind-out-file=' + out, spire] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=check)
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
    for lib in ('transforms', 'asm'):
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
    for f in nearest + picked:
        if len(valid) > count:
            break
        if f not in valid and subprocess.run([spire, 'val', f], stdout=subprocess.DEVNULL,
                                             stderr=subprocess.DEVNULL).returncode == 0:
            valid.append(f)
    return valid


def large_module(tmp):
    """A 0.3 MB module made as the benchmarks make their large ones, or None without
    glslangValidator."""
    here = os.path.dirname(os.path.abspath(__file__))
    generator = os.path.join(here, '..', '..', 'bench', 'gen_large_modules.py')
    shader, module = os.path.join(tmp, 'large.comp'), os.path.join(tmp, 'large.spv')
    try:
        subprocess.run([sys.executable, generator, '--size-mb', '0.3', '-o', shader], check=True)
        subprocess.run(['glslangValidator', '-V', shader, '-o', module], check=True,
                       stdout=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError):
        print('hot_text.py: no large module (glslangValidator?); its functions are not placed',
              file=sys.stderr)
        return None
    return module


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--build', required=True, help='the build folder')
    parser.add_argument('--corpus', required=True, help='the folder of .dxil containers')
    parser.add_argument('--every', type=int, default=2)
    parser.add_argument('--spirv-corpus', required=True,
                        help='the corpus folder of .spv modules (its glslang/)')
    parser.add_argument('--spirv-count', type=int, default=12)
    args = parser.parse_args()
    args.spire = os.path.join(args.build, 'tools', 'spire', 'spire')
    containers = sorted(os.path.join(args.corpus, f) for f in os.listdir(args.corpus)
                        if f.endswith('.dxil'))[::args.every]
    if not containers:
        sys.exit('no .dxil files in ' + args.corpus)

    start = functions_run(args.spire, ['--version'])
    ran = set(start)
    translated, spirv = set(), set()
    with tempfile.TemporaryDirectory() as tmp:
        bitcode = os.path.join(tmp, 'program.bc')
        with open(bitcode, 'wb') as f:
            f.write(extract_bitcode(containers[0]) or b'')
        runs = [[c, '-o', '/dev/null'] for c in containers] + [[bitcode, '-o', '/dev/null']]
        for argv in runs:
            ran |= functions_run(args.spire, ['dis'] + argv)
        out = os.path.join(tmp, 'out') + '/'
        for c in containers:
            translated |= functions_run(args.spire, ['translate', '--dxil-to-spirv', c, '-o', out],
                                        check=False)

        for f in small_modules(args.spire, args.spirv_corpus, args.spirv_count):
            spirv |= functions_run(args.spire,
                                   ['translate', '--deserialize-spirv', f, '-o', '/dev/null'])
        large = set()
        module = large_module(tmp)
        if module:
            large = functions_run(args.spire,
                                  ['translate', '--deserialize-spirv', module, '-o', '/dev/null'])

    symbols = text_symbols(args.spire)
    for name in whole_text_names(args.build):
        symbols.pop(name, None)
    for group in (ran, translated, spirv, large):
        families = {m.group(1) for name in group if (m := VARIANT.match(name))}
        for name in symbols:
            m = VARIANT.match(name)
            if m and m.group(1) in families:
                group.add(name)
    markers = ['spire_hot_text_begin', 'spire_shared_text_begin', 'spire_hot_text_dis_end',
               'spire_translate_text_begin', 'spire_translations_text_begin',
               'spire_translate_text_end', 'spire_hot_text_end']

    def ordered(names):
        names = [n for n in names if n in symbols and n not in markers]
        return sorted(names, key=lambda n: (n not in start, symbols[n], n))

    groups = [ordered(ran - spirv), ordered(ran & spirv), ordered(spirv - ran - translated),
              ordered((spirv & translated) - ran), ordered(translated - spirv - ran)]
    print(markers[0])
    for group, marker in zip(groups, [markers[1], markers[2] + '\n' + markers[3], markers[4],
                                      markers[5], markers[6]]):
        for name in group:
            print(name)
        print(marker)
    for name in ordered(large - spirv - ran - translated):
        print(name)


if __name__ == '__main__':
    main()
