#!/usr/bin/env bash
# The demo: spire on the bundled examples, side by side with SPIRV-Tools.
set -euo pipefail
spire=${1:-build/tools/spire/spire}
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for src in examples/*.spvasm; do
  name=$(basename "$src" .spvasm)
  echo "== $src"
  "$spire" as "$src" -o "$out/$name.spv"
  spirv-as "$src" -o "$out/$name.ref.spv"
  if cmp -s "$out/$name.spv" "$out/$name.ref.spv"; then
    echo "spire as: $(stat -c %s "$out/$name.spv") bytes, identical to spirv-as"
  else
    echo "spire as: output differs from spirv-as"
  fi
  "$spire" dis "$out/$name.spv" -o "$out/$name.dis"
  spirv-dis "$out/$name.spv" -o "$out/$name.ref.dis"
  if cmp -s "$out/$name.dis" "$out/$name.ref.dis"; then
    echo "spire dis: $(wc -l < "$out/$name.dis") lines, identical to spirv-dis"
  else
    echo "spire dis: text differs from spirv-dis"
  fi
  sed -n '1,12p' "$out/$name.dis"
  echo "   ..."
done
