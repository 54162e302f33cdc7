#!/usr/bin/env bash
# device_run.sh — one call on a GPU machine: build (sm_90 only, fast), CUDA + engine GPU
# tests, compute-sanitizer memcheck, per-phase host timing, benchmarks, ncu kernel times,
# and (VARIANTS="flags ...") the same kernels built with extra CUDA flags.
# Usage (repo root): bash kernels/tools/device_run.sh [data-dir with 10s.in 1m.in]
set -uo pipefail
OUT=${OUT:-out}; mkdir -p "$OUT"
DATA=${1:-.devdata}
B=build/dev
NCU="ncu --metrics gpu__time_duration.sum,smsp__thread_inst_executed.sum --csv"
{
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
cmake -S . -B $B -DDPA_WITH_CUDA=ON -DDPA_BUILD_TESTS=ON -DDPA_CUDA_ARCHITECTURES=90 >/dev/null &&
cmake --build $B -j16 2>&1 | grep -E "error|warning: " | head -40
echo "=== ctest (cuda|engine_gpu)"
ctest --test-dir $B -R 'cuda|engine_gpu' --output-on-failure > $OUT/ctest.txt 2>&1
grep -E "Failure|Expected|Which is|differs|result [0-9]+ =|Test +#|tests passed|SKIP" $OUT/ctest.txt | head -60
echo "=== memcheck"
compute-sanitizer --tool memcheck --error-exitcode 9 $B/kernels/tests/test_cuda_pairhmm \
  --gtest_filter='*Gatk*:*DoublePass*' 2>&1 | tail -3
echo "=== host timing (DPACCEL_CUDA_TIMING=1, last call)"
BN=$B/kernels/dpa_cuda_bench
for f in 10s 1m; do DPACCEL_CUDA_TIMING=1 BENCH_CHECK=0 $BN $DATA/$f.in 5 2>&1 | tail -4; done
echo "=== bench"
$BN $DATA/10s.in 50
$BN $DATA/1m.in 30
for s in "128 128 200000" "512 512 40000"; do $BN --shape $s 5; done
echo "=== ncu kernel times (default)"
for s in "128 128 100000" "512 512 40000"; do
  $NCU $BN --shape $s 0 2>/dev/null | grep -E "phmm_f32" | awk -F'","' '{print $5, $(NF-1), $NF}' | sed 's/"//g' | head -4
done
$NCU $BN $DATA/1m.in 0 2>/dev/null | grep -E "phmm_f" | awk -F'","' '{print $5, $(NF-1), $NF}' | sed 's/"//g' | head -20
} 2>&1 | tee $OUT/log.txt
i=0
for v in ${VARIANTS:-}; do
  i=$((i+1))
  {
  echo "=== variant $i: CMAKE_CUDA_FLAGS=${v//,/ }"
  cmake -S . -B build/dev_v$i -DDPA_WITH_CUDA=ON -DDPA_BUILD_TESTS=ON -DDPA_CUDA_ARCHITECTURES=90 "-DCMAKE_CUDA_FLAGS=${v//,/ }" >/dev/null &&
  cmake --build build/dev_v$i -j16 --target dpa_cuda_bench test_cuda_pairhmm 2>&1 | grep -E "error" | head
  BV=build/dev_v$i/kernels/dpa_cuda_bench
  build/dev_v$i/kernels/tests/test_cuda_pairhmm --gtest_filter='*EveryKernel*:*Gatk*' 2>&1 | grep -E "PASSED|FAILED|Failure" | head -5
  $BV $DATA/1m.in 30
  for s in "128 128 100000" "512 512 40000"; do
    $NCU $BV --shape $s 0 2>/dev/null | grep -E "phmm_f32" | awk -F'","' '{print $5, $(NF-1), $NF}' | sed 's/"//g' | head -4
  done
  } 2>&1 | tee -a $OUT/log.txt
done
