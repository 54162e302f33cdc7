#!/usr/bin/env bash
# Builds the native libraries for Maven:
#   build-native.sh <build-dir> <output-dir> <AUTO|ON|OFF> [java-home] [cuda-archs] [skip-tests]
# cuda-archs: default (short list, kernels/CMakeLists.txt), all (release list) or a CMake list.
# skip-tests: true (Maven's -DskipTests) leaves the GoogleTest executables out of the build,
# which shortens a first build; a later run without it builds them incrementally.
# With CUDA AUTO/ON, nvcc comes from the PATH or is installed from NVIDIA's PyPI wheels by
# .ci/install-nvcc.sh (cached); without it, AUTO gives a CPU-only build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
out=$2
cuda=${3:-AUTO}
java_home=${4:-${JAVA_HOME:-}}
archs=${5:-default}
skip_tests=${6:-false}
args=(-DCMAKE_BUILD_TYPE=Release "-DDPA_OUTPUT_DIR=$out" "-DDPA_WITH_CUDA=$cuda" "-DDPA_CUDA_ARCHITECTURES=$archs")
if [ -n "$java_home" ] && [ -f "$java_home/include/jni.h" ]; then
  args+=("-DDPA_JNI_INCLUDE=$java_home/include")
fi
if [ "$skip_tests" = true ]; then
  args+=(-DDPA_BUILD_TESTS=OFF)
else
  args+=(-DDPA_BUILD_TESTS=ON)
fi
mkdir -p "$build" "$out"
if [ "$cuda" != OFF ]; then
  if nvcc_path=$(bash "$root/.ci/install-nvcc.sh" 2>"$build.nvcc.log" | tail -n 1) && [ -x "$nvcc_path" ]; then
    args+=("-DCMAKE_CUDA_COMPILER=$nvcc_path")
  elif [ "$cuda" = ON ]; then
    echo "dpaccel: CUDA required (dpaccel.cuda=ON) but nvcc could not be installed; see $build.nvcc.log" >&2
    cat "$build.nvcc.log" >&2 || true
    exit 1
  else
    echo "dpaccel: no CUDA compiler (see $build.nvcc.log): building the CPU-only library" >&2
  fi
fi
cmake -S "$root" -B "$build" "${args[@]}"
cmake --build "$build" -j "$(nproc)"
