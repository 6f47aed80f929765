#!/usr/bin/env bash
# Installs the Debian packages spire needs to build, test and benchmark, when any are missing.
# Uses sudo only when not root. A second run with everything present does nothing.
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ ccache python3 pkg-config
  # the SPIR-V grammar (generated tables) and the reference tools (tests, benchmarks)
  spirv-headers spirv-tools glslang-tools
  # OpenCL C kernels for the test corpus
  clang-15 llvm-spirv-15
  # MLIR 16's SPIR-V dialect: the reference of the structured IR (mlir-translate-16, mlir-opt-16)
  mlir-16-tools
  # tests and benchmarks
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  # sanitizer and libFuzzer builds
  clang-14 libclang-rt-14-dev
  # LLVM 14's bitcode tools: the reference of the DXIL reader and printer (llvm-as-14, llvm-dis-14)
  llvm-14
  # spire run: the Vulkan loader and headers, lavapipe (Vulkan on the CPU), the validation
  # layers, glslang's library for GLSL shaders in scripts; vulkaninfo and hyperfine for bench/
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers glslang-dev vulkan-tools hyperfine
  # tests/newer-lavapipe.sh: fetches a newer lavapipe from Debian's backports (not installed)
  curl
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
