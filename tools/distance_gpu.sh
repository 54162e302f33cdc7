#!/usr/bin/env bash
# tools/distance_gpu.sh — the genotype distance on a GPU machine (docs/distance.md, "CUDA";
# docs/BENCHMARKS.md, "Genotype distance on one H200, end to end"): the CUDA distance tests,
# the engine's distance GPU tests, then dpa_distance_bench on the GPU with phase times and a
# check of random pairs against the .bed codes. Logs under $OUT (default ./out).
#
# From a clean clone, on the GPU machine (builds first, ~3 min on 16 cores):
#   OUT=out tools/distance_gpu.sh
# With binaries built elsewhere (a directory holding libdpaccel_cuda.so, dpa_distance_bench,
# test_cuda_distance, dpaccel_tests):
#   OUT=out tools/distance_gpu.sh --bin DIR [--base-lib OLD/libdpaccel_cuda.so]
# Options: --shape "N M" (default "20000 100000"), --reps R (3), --threads T (16),
# --no-tests, --check K (random pairs checked, 200), --label L (log name), --base-lib (an older CUDA library timed
# first with the same bench binary, for a before/after in one call).
set -uo pipefail
OUT=${OUT:-out}
mkdir -p "$OUT"
BIN="" BASE="" SHAPE="20000 100000" REPS=3 THREADS=16 TESTS=1 CHECK=200 LABEL=new
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --base-lib) BASE=$2; shift 2 ;;
    --shape) SHAPE=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --check) CHECK=$2; shift 2 ;;
    --no-tests) TESTS=0; shift ;;
    --label) LABEL=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -z "$BIN" ]; then
  NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  cmake -S . -B build/dist -DCMAKE_BUILD_TYPE=Release -DDPA_WITH_CUDA=ON \
    -DCMAKE_CUDA_COMPILER="$NVCC" -DDPA_CUDA_ARCHITECTURES=90 >"$OUT/build.log" 2>&1 &&
    cmake --build build/dist -j"$(nproc)" --target dpaccel_cuda dpa_distance_bench \
      test_cuda_distance dpaccel_tests >>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
  BIN=build/dist/bin
  mkdir -p "$BIN"
  cp build/dist/kernels/libdpaccel_cuda.so build/dist/native/dpa_distance_bench \
    build/dist/kernels/tests/test_cuda_distance build/dist/native/tests/dpaccel_tests "$BIN"/
fi
export LD_LIBRARY_PATH="$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export DPACCEL_CUDA_LIB="$BIN/libdpaccel_cuda.so"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw --format=csv; nproc;
  free -g | head -2; } 2>&1 | tee "$OUT/info.txt"
rc=0
if [ "$TESTS" = 1 ]; then
  "$BIN/test_cuda_distance" >"$OUT/test_cuda_distance.log" 2>&1; r=$?; rc=$((rc | r))
  echo "test_cuda_distance rc=$r: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/test_cuda_distance.log" | tr '\n' ' ')"
  "$BIN/dpaccel_tests" --gtest_filter='EngineDistGpu*' >"$OUT/engine_dist_gpu.log" 2>&1; r=$?; rc=$((rc | r))
  echo "dpaccel_tests EngineDistGpu* rc=$r: $(grep -E '^\[  (PASSED|FAILED)|SKIPPED \]' "$OUT/engine_dist_gpu.log" | sort | uniq -c | tr '\n' ' ')"
  # the CPU suites as CTest runs them (their no-GPU case expects DPACCEL_GPU_DISABLE=1)
  DPACCEL_GPU_DISABLE=1 "$BIN/dpaccel_tests" --gtest_filter='Distance*' >"$OUT/distance_cpu.log" 2>&1; r=$?; rc=$((rc | r))
  echo "dpaccel_tests Distance* (GPU disabled) rc=$r: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/distance_cpu.log" | tr '\n' ' ')"
fi
run_bench() { # label, cuda lib
  DPACCEL_CUDA_LIB=$2 DPACCEL_TIMING=1 DPACCEL_CUDA_TIMING=1 DPA_BENCH_CHECK=$CHECK \
    "$BIN/dpa_distance_bench" $SHAPE 7 "$THREADS" "$REPS" gpu >"$OUT/bench_$1.log" 2>&1
  local r=$?
  echo "== $1 (rc $r)"; grep -E "^distance|^check|dpa_cuda distance:|distance: .*tasks" "$OUT/bench_$1.log" | tail -8
  return $r
}
[ -n "$BASE" ] && { run_bench base "$BASE" || rc=1; }
run_bench "$LABEL" "$BIN/libdpaccel_cuda.so" || rc=1
exit $rc
