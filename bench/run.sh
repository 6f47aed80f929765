#!/usr/bin/env bash
# make bench: spire against SPIRV-Tools, on the test corpus and on generated large modules, in one
# run; prints the table and saves it in <build>/bench-results/. Usage: bench/run.sh [<build dir>]
# Environment: see bench/compare.py (BENCH_RUNS, BENCH_CORPUS_RUNS, BENCH_TIMEOUT, BENCH_QUICK,
# BENCH_FULL), BENCH_SIZES (sizes of the large modules in MB, default "0.3 1 3 10") and
# SPIRE_BENCH_CORPUS (a directory of *.spv instead of ../shared/corpus/spv).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=${1:-build}
[ -d "$build" ] || { echo "bench: no build directory '$build' (run 'make build')" >&2; exit 1; }
build=$(cd "$build" && pwd)

for tool in spirv-dis spirv-as spirv-val glslangValidator python3; do
  command -v "$tool" > /dev/null || { echo "bench: $tool not found (run 'make deps')" >&2; exit 1; }
done
for program in "$build/bench/spire_bench" "$build/tools/spire/spire"; do
  [ -x "$program" ] || { echo "bench: $program is missing (build with -DSPIRE_BUILD_BENCH=ON)" >&2; exit 1; }
done

# The large modules, generated and compiled once per build directory (again when the generator
# changes), with their --raw-id text, the input of the assembler measurements.
data=$build/bench-data
mkdir -p "$data/large"
large=()
for size in ${BENCH_SIZES:-0.3 1 3 10}; do
  base=$data/large/large_${size}mb
  large+=("$base.spv")
  if [ ! -s "$base.spv" ] || [ "$here/gen_large_modules.py" -nt "$base.spv" ]; then
    echo "bench: generating $base.spv" >&2
    python3 "$here/gen_large_modules.py" --size-mb "$size" --seed 1 -o "$base.comp"
    glslangValidator -V "$base.comp" -o "$base.spv.tmp" > /dev/null
    mv "$base.spv.tmp" "$base.spv"
  fi
  if [ ! -s "$base.raw.spvasm" ] || [ "$base.spv" -nt "$base.raw.spvasm" ]; then
    spirv-dis --raw-id --no-color "$base.spv" -o "$base.raw.spvasm.tmp"
    mv "$base.raw.spvasm.tmp" "$base.raw.spvasm"
  fi
done

corpus=${SPIRE_BENCH_CORPUS:-}
if [ -z "$corpus" ]; then
  if [ -d "$root/../shared/corpus/spv" ]; then
    corpus=$(cd "$root/../shared/corpus/spv" && pwd)
  elif [ -d "$build/tests/generated-corpus" ]; then
    corpus=$build/tests/generated-corpus
  else
    echo "bench: no corpus (../shared/corpus/spv or $build/tests/generated-corpus)" >&2
    exit 1
  fi
fi

python3 "$here/compare.py" --build "$build" --data "$data" --corpus "$corpus" \
  --large "${large[@]}"
# The structured IR against mlir-translate-16 (BENCH_DIALECT=0 leaves it out), on the large
# modules and a 53 MB one made of the 10 MB module's functions copied 7 times (the size issue 17
# names; glslangValidator would take tens of minutes to compile it; BENCH_HUGE=0 leaves it out).
if [ "${BENCH_DIALECT:-1}" != 0 ]; then
  dialect_large=("${large[@]}")
  ten=$data/large/large_10mb.spv
  huge=$data/large/large_53mb.spv
  if [ "${BENCH_HUGE:-1}" != 0 ] && [ -s "$ten" ]; then
    if [ ! -s "$huge" ] || [ "$ten" -nt "$huge" ] || [ "$here/replicate_functions.py" -nt "$huge" ]; then
      echo "bench: making $huge" >&2
      python3 "$here/replicate_functions.py" --spire "$build/tools/spire/spire" "$ten" \
        --copies 7 -o "$huge.tmp"
      mv "$huge.tmp" "$huge"
    fi
    dialect_large+=("$huge")
  fi
  python3 "$here/dialect.py" --build "$build" --corpus "$corpus" --large "${dialect_large[@]}"
fi
# DXIL: reading into the module model in process, and spire dis against llvm-dis-14 per file
# (BENCH_DXIL=0 leaves it out; it needs ../shared/corpus/dxil and llvm-dis-14).
if [ "${BENCH_DXIL:-1}" != 0 ] && [ -d "$root/../shared/corpus/dxil" ] &&
    command -v llvm-dis-14 > /dev/null; then
  python3 "$here/dxil.py" --build "$build" --corpus "$(cd "$root/../shared/corpus/dxil" && pwd)"
fi
# DXIL -> SPIR-V: spire translate against the oracle dxil-spirv, per file and in batch
# (BENCH_DXIL_TRANSLATE=0 leaves it out; it needs ../shared/corpus/dxil and the oracle).
oracle="$root/../shared/tools/dxil-spirv/bin/dxil-spirv"
if [ "${BENCH_DXIL_TRANSLATE:-1}" != 0 ] && [ -d "$root/../shared/corpus/dxil" ] &&
    [ -x "$oracle" ]; then
  python3 "$here/dxil_translate.py" --build "$build" \
    --corpus "$(cd "$root/../shared/corpus/dxil" && pwd)" --oracle "$oracle"
fi
# spire run on the amber corpus: the time to run it and the runner's overhead per test
# (BENCH_AMBER=0 leaves it out).
if [ "${BENCH_AMBER:-1}" != 0 ]; then
  python3 "$here/amber.py" --build "$build"
fi
