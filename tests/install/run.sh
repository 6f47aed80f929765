#!/usr/bin/env bash
# Installs the build into a fresh prefix, builds tests/install/consumer against the installed
# package with find_package(spire), and runs it. Usage: run.sh <build dir> <source dir>.
set -euo pipefail
build=$1
source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
test -x "$work/prefix/bin/spire"
test -f "$work/prefix/lib/cmake/spire/spireConfigVersion.cmake"
launcher=()
if command -v ccache > /dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S "$source/tests/install/consumer" -B "$work/consumer" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" "${launcher[@]}" > "$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/consumer" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/consumer/consumer" > "$work/out.txt"
# A version the package does not satisfy must be refused.
mkdir -p "$work/newer"
cat > "$work/newer/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(newer LANGUAGES NONE)
find_package(spire 99.0 QUIET)
if(spire_FOUND)
  message(FATAL_ERROR "spire 99.0 was found")
endif()
CMAKE
cmake -S "$work/newer" -B "$work/newer/build" -DCMAKE_PREFIX_PATH="$work/prefix" > /dev/null
echo "installed to a prefix; find_package(spire) built and ran a program against it"
