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
  for env in vulkan1.3 spv1.6; do
    spirv-val --target-env "$env" "$out/$name.ref.spv" > /dev/null 2>&1 && ref=valid || ref=invalid
    "$spire" val --target-env "$env" "$out/$name.spv" || true
    echo "   (spirv-val: $ref)"
  done
done

# A broken module: an id used but never defined. Both validators reject it.
cat > "$out/broken.spvasm" <<'ASM'
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpStore %nowhere %nothing
OpReturn
OpFunctionEnd
ASM
echo "== a module with an undefined id"
"$spire" as "$out/broken.spvasm" -o "$out/broken.spv"
"$spire" val "$out/broken.spv" || echo "   (spire val exit status $?)"

# The structured IR: deserialize, print in MLIR's syntax, run passes, serialize back.
for src in examples/*.spvasm; do
  name=$(basename "$src" .spvasm)
  echo "== $name.spv as the structured IR (spire translate --deserialize-spirv)"
  if "$spire" translate --deserialize-spirv "$out/$name.spv" -o "$out/$name.mlir"; then
    sed -n '1,14p' "$out/$name.mlir"
    echo "   ..."
    if command -v mlir-translate-16 > /dev/null; then
      "$spire" translate --deserialize-spirv --mlir16 "$out/$name.spv" -o "$out/$name.16.mlir"
      if mlir-translate-16 --deserialize-spirv "$out/$name.spv" -o "$out/$name.ref.mlir" 2>/dev/null; then
        cmp -s "$out/$name.16.mlir" "$out/$name.ref.mlir" &&
          echo "   (--mlir16: identical to mlir-translate-16)" ||
          echo "   (--mlir16: differs from mlir-translate-16)"
      else
        echo "   (mlir-translate-16 cannot deserialize this module)"
      fi
    fi
    "$spire" opt --passes canonicalize,update-vce "$out/$name.mlir" -o "$out/$name.opt.spv" --emit spirv
    "$spire" translate --serialize-spirv "$out/$name.mlir" -o "$out/$name.rt.spv"
    "$spire" val "$out/$name.rt.spv" > /dev/null && echo "   serialized back: valid" ||
      echo "   serialized back: INVALID"
  fi
done

# spire run: an AmberScript test and a raw shader on a Vulkan device (lavapipe when there is no
# GPU), with every shader also passed through the structured IR (--via roundtrip).
echo "== spire run examples/scale.amber (AmberScript)"
"$spire" run examples/scale.amber || true
"$spire" run --via roundtrip examples/scale.amber || true
echo "== spire run examples/compute.spvasm: the shader's interface, then a dispatch"
"$spire" run --reflect examples/compute.spvasm
"$spire" run examples/compute.spvasm --buffer 0:0=series:float:0:1:128 --dispatch 2 \
  --dump 0:0:float --timed | head -6 || true

# DXIL: a compute shader written as LLVM assembly (examples/abs_double.ll), assembled with
# llvm-as-14, translated to Vulkan SPIR-V (validated before it is written), then run.
echo "== examples/abs_double.ll: DXIL to SPIR-V (spire translate --dxil-to-spirv)"
if command -v llvm-as-14 > /dev/null; then
  llvm-as-14 examples/abs_double.ll -o "$out/abs_double.bc"
  "$spire" translate --dxil-to-spirv "$out/abs_double.bc" -o "$out/abs_double.spv" \
    --bindings json | tr -d ' \n' | sed 's/},{/},\n  {/g; s/$/\n/'
  spirv-val --target-env vulkan1.3 "$out/abs_double.spv" && echo "   spirv-val (vulkan1.3): valid"
  "$spire" translate --dxil-to-spirv "$out/abs_double.bc" --emit spvasm | sed -n '/OpFunction /,$p' |
    head -24
  echo "   ..."
  echo "   run: input t0 = -4, -3.5, ..., output u0 = 2 * |input|"
  "$spire" run "$out/abs_double.spv" --buffer 0:0=series:float:-4:0.5:64 \
    --buffer 0:1000=zero:256 --dump 0:1000:float | head -6 || true
else
  echo "   (llvm-as-14 is not installed: skipped)"
fi
