#!/bin/sh
# The Vulkan checks again, on Mesa 25's lavapipe from Debian 12's backports
# (scripts/newer-lavapipe.sh; Debian's own Mesa 22.3 runs them in the unit and corpus tests):
# pipelines of mesh, task and ray tracing shaders, bindless and ray query shaders against the
# DXIL oracle, the AmberScript corpus on a driver without Mesa 22's bugs. Skipped, saying so,
# where the driver cannot be fetched (no network, the pinned packages gone from the mirror).
# Usage: tests/newer-lavapipe.sh <build dir> <source dir>
set -eu
build=$1
source=$2
if ! env=$(sh "$source/scripts/newer-lavapipe.sh" --dir "$build/lavapipe-backports" 2>&1); then
  echo "newer-lavapipe: skipped: the driver could not be fetched: $(echo "$env" | tail -n 1)"
  exit 0
fi
eval "$env"
echo "newer-lavapipe: Mesa 25.0.7's lavapipe ($build/lavapipe-backports)"
"$build/tests/spire_unit_tests" --gtest_brief=1 \
  --gtest_filter='Runner.*:GraphicsPipelineTest.*:ExactFeaturesTest.*:DxilExecution*:DxilTranslateRootConstants*'
"$build/tests/spire_corpus_tests" --gtest_brief=1 \
  --gtest_filter='DxilTranslatePipeline*:DxilTranslateRun*:DxilTranslateImageRun*:AmberCorpus*:AmberCommand*:CreatePipelineCommand*'
