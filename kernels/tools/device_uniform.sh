#!/usr/bin/env bash
# device_uniform.sh — one call on a GPU machine for the uniform-coefficient float kernels:
# builds SRC (sm_90, tests on) and, in parallel, SRC with extra CUDA flags (VARIANT, bench
# only); runs test_cuda_pairhmm (all) and test_cuda_faults, memcheck on the uniform and GATK
# tests, then per synthetic shape (SHAPES, BENCH_SIMILAR_HAPS=1 so that the float path is
# what the wall time measures) the float kernel's GPU time at normal clocks
# (DPACCEL_CUDA_TIMING events, 3 reps) with DPACCEL_CUDA_UNIFORM=1 (default) and =0 in the
# same build, the variant, ncu counters for the 512 shape, gpuPairHMM's own peak benchmark
# (GPH), the --gatk latency bench and 1m.in.
# Usage (repo root of the tree to build): OUT=dir SRC=. GPH=path bash kernels/tools/device_uniform.sh
set -uo pipefail
OUT=${OUT:-out}; mkdir -p "$OUT"
SRC=${SRC:-.}
SHAPES=${SHAPES:-"128 128 100000;256 256 60000;512 512 40000;1024 1024 12000"}
K=/tmp/ku
cfg() { cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DDPA_WITH_CUDA=ON -DDPA_CUDA_ARCHITECTURES=90 "${@:3}" >/dev/null; }
{
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
date -u; t0=$(date +%s)
if [ -n "${VARIANT:-}" ]; then
  (cfg $SRC $K/var -DDPA_BUILD_TESTS=OFF "-DCMAKE_CUDA_FLAGS=$VARIANT" && cmake --build $K/var -j6 --target dpa_cuda_bench 2>&1 | grep -E " error" | head) &
fi
cfg $SRC $K/new -DDPA_BUILD_TESTS=ON && cmake --build $K/new -j10 --target dpaccel_cuda test_cuda_pairhmm test_cuda_faults dpa_cuda_bench 2>&1 | grep -E " error|warning: " | grep -v string_fortified | head -20
wait
echo "=== builds done in $(( $(date +%s) - t0 )) s (variant: ${VARIANT:-none})"
echo "=== test_cuda_pairhmm, test_cuda_faults"
timeout 150 $K/new/kernels/tests/test_cuda_pairhmm > $OUT/test_pairhmm.txt 2>&1; echo "pairhmm rc=$?"
grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) |Failure|Expected|Which is|differs|kernels used" $OUT/test_pairhmm.txt | head -40
timeout 60 $K/new/kernels/tests/test_cuda_faults > $OUT/test_faults.txt 2>&1; echo "faults rc=$?"; tail -1 $OUT/test_faults.txt
echo "=== memcheck (Uniform, Gatk, DoublePass)"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $K/new/kernels/tests/test_cuda_pairhmm \
  --gtest_filter='*Uniform*:*Gatk*:*DoublePass*' > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$?"; tail -2 $OUT/memcheck.txt
echo "=== float kernel at normal clocks: GPU ms of the float launches (3 reps) and wall median"
IFS=';' read -ra SH <<< "$SHAPES"
for s in "${SH[@]}"; do
  for v in "new 1" "new 0" "var 1"; do
    set -- $v
    [ -x $K/$1/kernels/dpa_cuda_bench ] || continue
    echo "--- $1 UNIFORM=$2 $s"
    BENCH_SIMILAR_HAPS=1 DPACCEL_CUDA_UNIFORM=$2 DPACCEL_CUDA_TIMING=1 BENCH_CHECK=200 \
      timeout 60 $K/$1/kernels/dpa_cuda_bench --shape $s 3 2>&1 | grep -o "cfgs [0-9,]*\|gpu ms: .*\|median .*\|max.*dev.*" | tail -4
  done
done
if [ -n "${GPH:-}" ] && [ -x "$GPH" ]; then
  echo "=== gpuPairHMM single-tile float peak benchmark, same GPU"
  timeout 60 "$GPH" 2>&1 | tail -9
fi
echo "=== ncu 512 x 512 (uniform 1 / 0): kernel | ns | warp instr | issue % | warps % | regs"
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
for u in 1 0; do
  BENCH_SIMILAR_HAPS=1 DPACCEL_CUDA_UNIFORM=$u timeout 60 ncu --metrics $M --csv -k regex:phmm_f32 $K/new/kernels/dpa_cuda_bench --shape 512 512 40000 0 2>/dev/null |
    awk -F'","' -v u=$u '/phmm_f32/ {k=$5; sub(/\(.*/, "", k); gsub(/"/, "", $NF); v[$(NF-2)]=$NF}
      END {printf "U=%s %s | %s | %s | %s | %s | %s\n", u, k, v["gpu__time_duration.sum"], v["smsp__inst_executed.sum"],
        v["smsp__issue_active.avg.pct_of_peak_sustained_active"], v["sm__warps_active.avg.pct_of_peak_sustained_active"], v["launch__registers_per_thread"]}'
done
echo "=== gatk latency (1 and 8 threads)"
timeout 60 $K/new/kernels/dpa_cuda_bench --gatk 400 1 8 2>&1 | tail -4
if [ -f "${DATA:-}/1m.in" ]; then
  echo "=== 1m.in (30 reps)"; timeout 60 $K/new/kernels/dpa_cuda_bench $DATA/1m.in 30 | grep -o "^[^:]*\|median .*"
fi
echo "=== total $(( $(date +%s) - t0 )) s"
} 2>&1 | tee $OUT/log.txt
