#!/usr/bin/env bash
# A short, fixed-length run of every fuzz target: the same number of runs from the same seed on
# every machine, starting from small seed inputs (the examples, the regression inputs, and a
# sample of the generated corpus, or of the DXIL corpus, when there is one).
set -euo pipefail
build=${1:-build-sanitize}
runs=${FUZZ_RUNS:-20000}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seeds() { # $1: target
  local dir="$work/$1"
  mkdir -p "$dir"
  cp "$root"/fuzz/regressions/"$1"/* "$dir"/ 2>/dev/null || true
  case "$1" in
    assembler) cp "$root"/examples/*.spvasm "$dir"/ ;;
    dialect_text) ;; # its regression inputs are MLIR modules of every op family
    dxil_bitcode) # DXIL containers from the corpus when present, else the regression inputs
      find "$root/../shared/corpus/dxil" -name '*.dxil' -size -6k 2>/dev/null | head -40 |
        while read -r f; do cp "$f" "$dir/"; done
      ;;
    dxil_container) # its regression inputs hold the built containers; add a sample of the corpus
      find "$root/../shared/corpus/dxil" -name '*.dxil' 2>/dev/null | sort | awk 'NR % 20 == 1' |
        while read -r f; do cp "$f" "$dir/"; done || true
      ;;
    script) cp "$root"/examples/*.amber "$dir"/ ;;
    *)
      for f in "$root"/examples/*.spvasm; do
        "$build"/tools/spire/spire as "$f" -o "$dir/$(basename "$f").spv" || true
      done
      find "$build/tests/generated-corpus" -name '*.spv' -size -8k 2>/dev/null | head -40 |
        while read -r f; do cp "$f" "$dir/"; done || true
      ;;
  esac
  echo "$dir"
}

status=0
for target in binary_reader assembler disassembler validator dialect dialect_text script \
    dxil_bitcode dxil_container; do
  exe="$build/fuzz/${target}_fuzzer"
  dir=$(seeds "$target")
  echo "fuzz $target: $runs runs from $(ls "$dir" | wc -l) seeds"
  if ! "$exe" -runs="$runs" -seed=1 -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -artifact_prefix="$work/crash-$target-" "$dir" > "$work/$target.log" 2>&1; then
    echo "fuzz $target FAILED; the input that broke it:"
    ls "$work"/crash-"$target"-* 2>/dev/null || true
    tail -30 "$work/$target.log"
    for c in "$work"/crash-"$target"-*; do
      [ -f "$c" ] && cp "$c" "$root/fuzz/regressions/$target/" &&
        echo "copied to fuzz/regressions/$target/: add it to the repository as a regression test"
    done
    status=1
  else
    grep -E "^#[0-9]+.*(DONE|pulse)" "$work/$target.log" | tail -1 || true
  fi
done
exit $status
