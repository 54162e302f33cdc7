#!/usr/bin/env bash
# device_run.sh — one call on a GPU machine: build (sm_90 only, fast), CUDA tests,
# compute-sanitizer memcheck + racecheck, benchmarks. Output under $OUT (or ./out).
# Usage (repo root): bash kernels/tools/device_run.sh [data-dir with 10s.in 1m.in]
set -uo pipefail
OUT=${OUT:-out}; mkdir -p "$OUT"
DATA=${1:-.devdata}
B=build/dev
{
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
nvcc --version | tail -2; cmake --version | head -1; ls -d /usr/src/googletest 2>&1
cmake -S . -B $B -DDPA_WITH_CUDA=ON -DDPA_BUILD_TESTS=ON -DDPA_CUDA_ARCHITECTURES=90 >/dev/null &&
cmake --build $B -j16 2>&1 | grep -E "error|warning: |Error" | head -40
echo "=== ctest"
ctest --test-dir $B -R cuda --output-on-failure > $OUT/ctest.txt 2>&1; grep -E "Failure|Expected|Which is|result [0-9]+ =|Test +#|tests passed" $OUT/ctest.txt | head -60
echo "=== memcheck"
compute-sanitizer --tool memcheck --error-exitcode 9 $B/kernels/tests/test_cuda_pairhmm \
  --gtest_filter='*Gatk*:*DoublePass*' 2>&1 | tail -6
compute-sanitizer --tool memcheck --error-exitcode 9 $B/kernels/tests/test_cuda_faults 2>&1 | tail -4
echo "=== racecheck"
compute-sanitizer --tool racecheck --error-exitcode 9 $B/kernels/tests/test_cuda_pairhmm \
  --gtest_filter='*Gatk*:*DoublePass*' 2>&1 | tail -4
echo "=== bench"
BN=$B/kernels/dpa_cuda_bench
$BN $DATA/10s.in 50
$BN $DATA/1m.in 30
for s in "128 128 200000" "256 256 100000" "512 512 40000" "250 400 40000"; do $BN --shape $s 5; done
echo "=== forced configs, 256x256"
for c in 0 1 2 3 4 5 6 7 8 9; do echo -n "cfg $c: "; DPACCEL_CUDA_FORCE_CFG=$c BENCH_CHECK=20 $BN --shape 256 256 60000 3 | grep -o "median.*GCUPS median"; done
echo "=== ncu kernel times"
ncu --metrics gpu__time_duration.sum,sm__inst_executed.sum,smsp__thread_inst_executed.sum --csv $BN --shape 128 128 100000 0 2>/dev/null | grep -E "phmm" | cut -c1-400 | head -12
ncu --metrics gpu__time_duration.sum --csv $BN --shape 512 512 40000 0 2>/dev/null | grep -E "phmm" | cut -c1-300 | head -6
} 2>&1 | tee $OUT/log.txt
# variant: 3 resident blocks of the R = 16 kernels (register cap 170, small spills)
{
echo "=== variant MINB16=3"
cmake -S . -B build/dev3 -DDPA_WITH_CUDA=ON -DDPA_BUILD_TESTS=OFF -DDPA_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_FLAGS=-DDPA_PHMM_MINB16=3 >/dev/null && cmake --build build/dev3 -j16 --target dpa_cuda_bench 2>&1 | grep -E "error" | head
B3=build/dev3/kernels/dpa_cuda_bench
$B3 $DATA/10s.in 50; $B3 $DATA/1m.in 30
for s in "128 128 200000" "256 256 100000" "512 512 40000"; do $B3 --shape $s 5; done
ncu --metrics gpu__time_duration.sum --csv $B3 --shape 128 128 100000 0 2>/dev/null | grep -E "phmm_f32" | cut -c1-300 | head -3
ncu --metrics gpu__time_duration.sum --csv $B3 --shape 512 512 40000 0 2>/dev/null | grep -E "phmm_f32" | cut -c1-300 | head -3
} 2>&1 | tee -a $OUT/log.txt
