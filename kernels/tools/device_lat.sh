#!/usr/bin/env bash
# device_lat.sh — one call on a GPU machine for per-call latency work: builds this tree
# (sm_90), runs the CUDA + engine GPU tests and memcheck, then the --gatk latency bench
# (one pairhmm call per HaplotypeCaller-sized region, 1 and 8 host threads) and the .in
# benches, and the same benches on a baseline backend whose sources are in BASE_SRC
# (default .devdata/base_src, e.g. `git show REV:kernels/src/...`), built beside it.
# Usage (repo root): bash kernels/tools/device_lat.sh [data-dir with 10s.in 1m.in]
set -uo pipefail
OUT=${OUT:-out}; mkdir -p "$OUT"
DATA=${1:-.devdata}
BASE_SRC=${BASE_SRC:-.devdata/base_src}
NREG=${NREG:-400}
B=build/lat
BB=/tmp/lat_base/build
{
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
nproc
cmake -S . -B $B -DDPA_WITH_CUDA=ON -DDPA_BUILD_TESTS=ON -DDPA_CUDA_ARCHITECTURES=90 >/dev/null &&
cmake --build $B -j16 2>&1 | grep -E "error|warning: " | head -40
if [ -d "$BASE_SRC" ]; then
  rm -rf /tmp/lat_base && mkdir -p /tmp/lat_base &&
  cp -a CMakeLists.txt cmake native kernels /tmp/lat_base/ &&
  rm -rf /tmp/lat_base/kernels/src && cp -a "$BASE_SRC" /tmp/lat_base/kernels/src &&
  cmake -S /tmp/lat_base -B $BB -DDPA_WITH_CUDA=ON -DDPA_BUILD_TESTS=OFF -DDPA_CUDA_ARCHITECTURES=90 >/dev/null &&
  cmake --build $BB -j16 --target dpa_cuda_bench 2>&1 | grep -E "error" | head -20
fi
echo "=== ctest (cuda|engine_gpu)"
ctest --test-dir $B -R 'cuda|engine_gpu' --output-on-failure > $OUT/ctest.txt 2>&1
grep -E "Failure|Expected|Which is|differs|result [0-9]+ =|Test +#|tests passed|SKIP" $OUT/ctest.txt | head -40
echo "=== memcheck"
timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 $B/kernels/tests/test_cuda_pairhmm \
  --gtest_filter='*Gatk*:*DoublePass*:*Split*' 2>&1 | tail -3
BN=$B/kernels/dpa_cuda_bench
BO=$BB/kernels/dpa_cuda_bench
echo "=== phase times, 3 regions, 1 thread (base then new)"
[ -x $BO ] && DPACCEL_CUDA_TIMING=1 $BO --gatk 13 1 2>&1 | grep -v "^gatk" | tail -4
DPACCEL_CUDA_TIMING=1 $BN --gatk 13 1 2>&1 | grep -v "^gatk" | tail -6
echo "=== gatk latency: base"
[ -x $BO ] && $BO --gatk $NREG 1 8
echo "=== gatk latency: new"
$BN --gatk $NREG 1 4 8 16
echo "=== gatk latency: new, 2% random reads (most regions then have a double pass)"
BENCH_RANDOM_PERMILLE=20 $BN --gatk $NREG 1 8
echo "=== gatk latency: new, fewest-instruction configurations forced (DPACCEL_CUDA_LATENCY=0)"
DPACCEL_CUDA_LATENCY=0 $BN --gatk $NREG 1 8
echo "=== phase times 10s.in (base then new)"
[ -x $BO ] && DPACCEL_CUDA_TIMING=1 BENCH_CHECK=0 $BO $DATA/10s.in 3 2>&1 | tail -3
DPACCEL_CUDA_TIMING=1 BENCH_CHECK=0 $BN $DATA/10s.in 3 2>&1 | tail -4
echo "=== .in files: base, new"
for f in 10s 1m; do
  [ -x $BO ] && $BO $DATA/$f.in 30
  $BN $DATA/$f.in 30
done
} 2>&1 | tee $OUT/log.txt
