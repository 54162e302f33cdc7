#!/usr/bin/env bash
# device_sw_run.sh — one call on a GPU machine for the CUDA Smith-Waterman: build (sm_90
# only), test_cuda_sw + the engine's SW GPU tests, the benchmark (GPU vs CPU, same run),
# and compute-sanitizer memcheck + racecheck on a subset of test_cuda_sw.
# Usage (repo root): OUT=dir bash kernels/tools/device_sw_run.sh
#   SW_FILTER   gtest filter for test_cuda_sw (default: all)
#   SW_BENCH    "hap N reps cpu_reps;read N reps cpu_reps" (default below); an entry may start
#               with VAR=value words (e.g. DPACCEL_SW_SPLIT_TB=1) set for that run only
#   SW_SAN      gtest filter for the sanitizer runs (empty: skip them)
#   SW_NCU      1 (default): pipe counters of one sw_kernel launch (ncu), 0: skip
#   SW_BASE     another source tree (e.g. main's, carried in an ignored folder): its CUDA
#               library is built in /tmp/bb beside the tests, and a SW_BENCH entry selects it
#               with DPACCEL_CUDA_LIB=/tmp/bb/kernels/libdpaccel_cuda.so (same-run baseline)
#   SW_NCU_SRC  1: executed count of every SASS instruction of one sw_kernel launch (ncu
#               SourceCounters) in $OUT/ncu_src.csv (address, opcode, count; nonzero only)
#   SW_PHASES   1 (default): DPACCEL_CUDA_TIMING phase lines of hap 100000 and read 1000000
#   SW_DEADLINE seconds after which the remaining steps (sanitizers, ncu) are skipped
#   SW_VARIANT  extra CUDA flags (e.g. -DSW_MIN_BLOCKS=24): a second CUDA library in
#               /tmp/bv/kernels, built beside the tests; a SW_BENCH entry selects it with
#               DPACCEL_CUDA_LIB=/tmp/bv/kernels/libdpaccel_cuda.so; SW_VARIANT2 likewise in /tmp/bv2
set -uo pipefail
OUT=${OUT:-out}; mkdir -p "$OUT"
B=${B:-/tmp/b}
SAN_DEFAULT='CudaSw.EdgeCases:CudaSw.DanglingEndsAllStrategies:CudaSwChunks.*:CudaSwGrid.*:CudaSw.InjectedFaults'
SW_SAN=${SW_SAN-$SAN_DEFAULT}
SW_BENCH=${SW_BENCH:-"hap 100000 5 3;read 1000000 3 1"}
{
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
nproc; grep -m1 "model name" /proc/cpuinfo; grep -o -m1 avx512bw /proc/cpuinfo
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DDPA_WITH_CUDA=ON -DDPA_BUILD_TESTS=ON \
  -DDPA_CUDA_ARCHITECTURES=90 >/dev/null &&
cmake --build $B -j16 --target dpaccel_cuda test_cuda_sw dpaccel_tests dpa_cuda_sw_bench 2>&1 |
  grep -E "error|warning: " | head -30
if [ -n "${SW_BASE:-}" ]; then
  (cmake -S "$SW_BASE" -B /tmp/bb -DCMAKE_BUILD_TYPE=Release -DDPA_WITH_CUDA=ON \
     -DDPA_CUDA_ARCHITECTURES=90 >/dev/null && cmake --build /tmp/bb -j8 --target dpaccel_cuda \
     > $OUT/base_build.txt 2>&1; echo "base build rc=$?" >> $OUT/base_build.txt) &
  BPID=$!
fi
if [ -n "${SW_VARIANT:-}" ]; then
  (cmake -S . -B /tmp/bv -DCMAKE_BUILD_TYPE=Release -DDPA_WITH_CUDA=ON -DDPA_CUDA_ARCHITECTURES=90 \
     -DCMAKE_CUDA_FLAGS="$SW_VARIANT" >/dev/null && cmake --build /tmp/bv -j8 --target dpaccel_cuda \
     > $OUT/variant_build.txt 2>&1; echo "variant build rc=$?" >> $OUT/variant_build.txt) &
  VPID=$!
fi
if [ -n "${SW_VARIANT2:-}" ]; then
  (cmake -S . -B /tmp/bv2 -DCMAKE_BUILD_TYPE=Release -DDPA_WITH_CUDA=ON -DDPA_CUDA_ARCHITECTURES=90 \
     -DCMAKE_CUDA_FLAGS="$SW_VARIANT2" >/dev/null && cmake --build /tmp/bv2 -j8 --target dpaccel_cuda \
     > $OUT/variant2_build.txt 2>&1; echo "variant2 build rc=$?" >> $OUT/variant2_build.txt) &
  VPID2=$!
fi
echo "=== test_cuda_sw"
timeout ${SW_TEST_TIMEOUT:-100} $B/kernels/tests/test_cuda_sw ${SW_FILTER:+--gtest_filter=$SW_FILTER} > $OUT/test_cuda_sw.txt 2>&1
echo "rc=$?"
grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) |Failure|Expected|which is|scalar |gpu  |ref |alt |lengths|seed" $OUT/test_cuda_sw.txt | head -80
echo "=== engine (EngineSwGpu)"
DPACCEL_CUDA_LIB=$B/kernels/libdpaccel_cuda.so timeout 60 $B/native/tests/dpaccel_tests \
  --gtest_filter='EngineSwGpu.*' > $OUT/engine.txt 2>&1
echo "rc=$?"
grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) |Failure|Expected|Which is|differs" $OUT/engine.txt | head -40
[ -n "${BPID:-}" ] && { wait $BPID; tail -1 $OUT/base_build.txt; }
[ -n "${VPID:-}" ] && { wait $VPID; tail -1 $OUT/variant_build.txt; }
[ -n "${VPID2:-}" ] && { wait $VPID2; tail -1 $OUT/variant2_build.txt; }
echo "=== bench"
IFS=';' read -ra runs <<< "$SW_BENCH"
for r in "${runs[@]}"; do
  echo "--- dpa_cuda_sw_bench $r"
  read -ra words <<< "$r"; envs=()
  while [[ ${#words[@]} -gt 0 && ${words[0]} == *=* ]]; do envs+=("${words[0]}"); words=("${words[@]:1}"); done
  env "${envs[@]}" timeout 60 $B/kernels/dpa_cuda_sw_bench "${words[@]}"
done
if [ "${SW_PHASES:-1}" = 1 ]; then
echo "=== phases (DPACCEL_CUDA_TIMING=1: one line per ops->sw call; engine feeders, then the backend alone)"
DPACCEL_CUDA_TIMING=1 timeout 60 $B/kernels/dpa_cuda_sw_bench hap 100000 1 0 > $OUT/phases.txt 2>&1
grep -E "^dpa_cuda sw:" $OUT/phases.txt | tail -10; grep -E "^(gpu|backend)" $OUT/phases.txt
DPACCEL_CUDA_TIMING=1 timeout 60 $B/kernels/dpa_cuda_sw_bench read 1000000 1 0 > $OUT/phases_read.txt 2>&1
grep -E "^dpa_cuda sw:" $OUT/phases_read.txt | tail -10; grep -E "^(gpu|backend)" $OUT/phases_read.txt
fi
cuobjdump -sass $B/kernels/CMakeFiles/dpaccel_cuda.dir/src/sw_kernels.cu.o > $OUT/sw_sass.txt 2>&1
echo "sass lines: $(wc -l < $OUT/sw_sass.txt)"
late() { [ -n "${SW_DEADLINE:-}" ] && [ $SECONDS -ge "$SW_DEADLINE" ] && { echo "=== $1 skipped: past SW_DEADLINE"; return 0; }; return 1; }
if [ -n "$SW_SAN" ]; then
  for tool in memcheck racecheck; do
    late "sanitizer $tool" && continue
    echo "=== compute-sanitizer $tool ($SW_SAN)"
    timeout ${SW_SAN_TIMEOUT:-150} compute-sanitizer --tool $tool --error-exitcode 9 \
      $B/kernels/tests/test_cuda_sw --gtest_filter="$SW_SAN" > $OUT/san_$tool.txt 2>&1
    echo "rc=$?"; tail -4 $OUT/san_$tool.txt
  done
fi
if [ "${SW_NCU_SRC:-0}" = 1 ] && ! late "ncu source counters"; then
  echo "=== ncu SourceCounters (one sw_kernel launch of hap 20000, backend alone)"
  timeout 200 ncu --kernel-name sw_kernel --launch-skip 3 --launch-count 1 --section SourceCounters \
    -o /tmp/src $B/kernels/dpa_cuda_sw_bench hap 20000 1 0 > $OUT/ncu_src_run.txt 2>&1
  echo "rc=$?"; tail -3 $OUT/ncu_src_run.txt
  ncu -i /tmp/src.ncu-rep --page source --print-source sass --csv 2>/dev/null > /tmp/src.csv
  head -2 /tmp/src.csv > $OUT/ncu_src_head.csv; wc -l /tmp/src.csv
  # keep address, source text and the executed-instruction columns of executed lines only
  python3 - /tmp/src.csv $OUT/ncu_src.csv <<'PY' || echo "python reduce failed"
import csv, sys
rows = csv.reader(open(sys.argv[1], newline=''))
hdr = next(rows)
while hdr and hdr[0] != 'Address':  # a "Kernel Name" line comes first
    hdr = next(rows)
keep = [i for i, h in enumerate(hdr) if h in ('Address', 'Source') or 'Instructions Executed' in h
        or h == 'Warp Stall Sampling (All Samples)']
out = csv.writer(open(sys.argv[2], 'w', newline=''))
out.writerow([hdr[i] for i in keep])
for r in rows:
    v = [r[i] if i < len(r) else '' for i in keep]
    if any(x not in ('', '0') for x in v[2:]):
        out.writerow(v)
PY
  wc -l $OUT/ncu_src.csv
fi
if [ "${SW_NCU:-1}" = 1 ] && ! late "ncu"; then
  echo "=== ncu (one sw_kernel launch of hap 20000, backend alone)"
  M=smsp__inst_executed.sum,smsp__inst_executed_pipe_alu.sum,smsp__inst_executed_pipe_fma.sum
  M=$M,smsp__inst_executed_pipe_fmaheavy.sum,smsp__inst_executed_pipe_lsu.sum
  M=$M,smsp__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active
  M=$M,smsp__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
  M=$M,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
  M=$M,smsp__average_warp_latency_issue_stalled_wait.ratio,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second
  M=$M,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio
  M=$M,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
  M=$M,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
  M=$M,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
  M=$M,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio
  M=$M,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
  M=$M,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio
  timeout 150 ncu --kernel-name sw_kernel --launch-skip 3 --launch-count 1 --metrics $M \
    $B/kernels/dpa_cuda_sw_bench hap 20000 1 0 > $OUT/ncu.txt 2>&1
  echo "rc=$?"; grep -E "^ +(smsp|sm__|gpu__)" $OUT/ncu.txt | sed 's/  */ /g'
fi
} 2>&1 | tee "$OUT/log.txt"
