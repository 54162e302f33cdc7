#!/usr/bin/env bash
# device_kernel.sh — one call on a GPU machine for float-kernel work. Builds (sm_90, in
# parallel) the committed tree (git archive HEAD) with the files named in OVERLAY copied
# over it from the working tree ("new", with the CUDA tests), the same tree with
# kernels/src/pairhmm_kernels.cu replaced by BASE_KERNEL ("base", bench only), and one bench
# build of "new" per VARIANTS entry (CUDA flag sets, words joined by commas). Building from
# HEAD keeps other people's uncommitted work out of the measurement. Then: CUDA + engine
# GPU tests, memcheck (MEMCHECK=1), ncu on the float kernels of the synthetic SHAPES for
# every build, FORCED configurations ("shape:cfg;..."), warp-state counters (STALLS=shape:
# raw CSVs to $OUT), kernel times at normal clocks (DPACCEL_CUDA_TIMING events), the --gatk
# per-call latency bench and per-region kernel times (GATK_TIMING=regions), the .in files
# (DATA=dir), and gpuPairHMM's own peak benchmark if GPH names its binary. Log: $OUT/log.txt.
# Usage (repo root): OVERLAY="kernels/src/pairhmm_kernels.cu" bash kernels/tools/device_kernel.sh
set -uo pipefail
OUT=${OUT:-out}; mkdir -p "$OUT"
BASE_KERNEL=${BASE_KERNEL:-.devdata/pk_base/pairhmm_kernels.cu}
SHAPES=${SHAPES:-"128 128 100000;256 256 60000;512 512 40000"}
NREG=${NREG:-300}
K=/tmp/kb
METRICS=gpu__time_duration.sum,smsp__thread_inst_executed.sum,smsp__inst_executed.sum,\
smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,\
launch__registers_per_thread
LOG=$OUT/log.txt
cfg() { cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DDPA_WITH_CUDA=ON -DDPA_CUDA_ARCHITECTURES=90 "${@:3}" >/dev/null; }
ncu_row() { # label, then the command; one line: kernel | ns | thread instr | warp instr | issue % | warps % | regs
  local label=$1; shift
  ncu --metrics $METRICS --csv -k regex:phmm_f32 "$@" 2>/dev/null |
    awk -F'","' -v b="$label" '/phmm_f32/ {k=$5; sub(/\(.*/, "", k); gsub(/"/, "", $NF); v[$(NF-2)]=$NF}
      END {printf "%-28s %-28s %s | %s | %s | %s | %s | %s\n", b, k, v["gpu__time_duration.sum"],
           v["smsp__thread_inst_executed.sum"], v["smsp__inst_executed.sum"],
           v["smsp__issue_active.avg.pct_of_peak_sustained_active"],
           v["sm__warps_active.avg.pct_of_peak_sustained_active"], v["launch__registers_per_thread"]}'
}
{
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
git log -1 --format='HEAD %h %s'; echo "overlay: ${OVERLAY:-none}"
t0=$(date +%s)
rm -rf $K && mkdir -p $K/src_new
git archive HEAD | tar -x -C $K/src_new
for f in ${OVERLAY:-}; do cp "$f" "$K/src_new/$f"; done
builds=()
if [ -f "$BASE_KERNEL" ]; then
  cp -a $K/src_new $K/src_base && cp "$BASE_KERNEL" $K/src_base/kernels/src/pairhmm_kernels.cu
  (cfg $K/src_base $K/base -DDPA_BUILD_TESTS=OFF && cmake --build $K/base -j4 --target dpa_cuda_bench 2>&1 | grep -E " error" | head) &
  builds+=(base)
fi
i=0
for v in ${VARIANTS:-}; do
  i=$((i+1))
  (cfg $K/src_new $K/v$i -DDPA_BUILD_TESTS=OFF "-DCMAKE_CUDA_FLAGS=${v//,/ }" && cmake --build $K/v$i -j4 --target dpa_cuda_bench 2>&1 | grep -E " error" | head) &
  builds+=(v$i)
done
cfg $K/src_new $K/new -DDPA_BUILD_TESTS=ON &&
  cmake --build $K/new -j10 2>&1 | grep -E " error|warning: " | grep -v string_fortified | head -20
builds+=(new)
wait
echo "=== builds done in $(( $(date +%s) - t0 )) s: ${builds[*]}"
i=0
for v in ${VARIANTS:-}; do i=$((i+1)); echo "v$i = ${v//,/ }"; done
echo "=== ctest (cuda|engine_gpu)"
ctest --test-dir $K/new -R 'cuda|engine_gpu' --output-on-failure > $OUT/ctest.txt 2>&1
grep -E "Failure|Expected|Which is|differs|result [0-9]+ =|Test +#|tests passed|SKIP" $OUT/ctest.txt | head -40
if [ "${MEMCHECK:-0}" = 1 ]; then
  echo "=== memcheck (test_cuda_pairhmm Gatk, DoublePass)"
  timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $K/new/kernels/tests/test_cuda_pairhmm \
    --gtest_filter='*Gatk*:*DoublePass*' 2>&1 | tail -3
fi
echo "=== ncu, float kernels (build shape | kernel | ns | thread instr | warp instr | issue % | warps % | regs)"
IFS=';' read -ra SH <<< "$SHAPES"
for s in "${SH[@]}"; do
  for b in "${builds[@]}"; do ncu_row "$b $s" $K/$b/kernels/dpa_cuda_bench --shape $s 0; done
done
if [ -n "${FORCED:-}" ]; then
  IFS=';' read -ra FC <<< "$FORCED"
  for f in "${FC[@]}"; do
    DPACCEL_CUDA_FORCE_CFG=${f##*:} ncu_row "new $f" $K/new/kernels/dpa_cuda_bench --shape ${f%%:*} 0
  done
fi
if [ -n "${STALLS:-}" ]; then
  echo "=== ncu warp-state counters (raw CSV in $OUT)"
  for b in base new; do
    [ -x $K/$b/kernels/dpa_cuda_bench ] || continue
    ncu --section WarpStateStats --section SchedulerStats --page raw --csv -k regex:phmm_f32 \
      $K/$b/kernels/dpa_cuda_bench --shape $STALLS 0 > $OUT/stalls_$b.csv 2>/dev/null
    ncu --section WarpStateStats --section SchedulerStats --page raw --csv -k regex:phmm_f32 -c 3 \
      $K/$b/kernels/dpa_cuda_bench --gatk 3 1 > $OUT/stalls_gatk_$b.csv 2>/dev/null
    wc -c $OUT/stalls_$b.csv $OUT/stalls_gatk_$b.csv
  done
fi
echo "=== GPU event times at normal clocks (DPACCEL_CUDA_TIMING=1, 3 reps, last lines)"
for s in "${SH[@]}"; do
  for b in base new; do
    [ -x $K/$b/kernels/dpa_cuda_bench ] || continue
    echo "--- $b $s"
    DPACCEL_CUDA_TIMING=1 BENCH_CHECK=200 $K/$b/kernels/dpa_cuda_bench --shape $s 3 2>&1 |
      grep -o "gpu ms: .*\|median .*" | tail -2
  done
done
if [ -n "${GATK_TIMING:-}" ]; then
  echo "=== one region per call, float kernel ms (DPACCEL_CUDA_TIMING=1), the same regions: base, new"
  for b in base new; do
    [ -x $K/$b/kernels/dpa_cuda_bench ] && DPACCEL_CUDA_TIMING=1 $K/$b/kernels/dpa_cuda_bench --gatk $GATK_TIMING 1 2>&1 |
      grep -o "float [0-9.]*" | awk -v b=$b '{printf "%s ", $2} END {print "(" b ")"}'
  done
fi
echo "=== gatk latency (1 and 8 threads)"
for b in base new; do
  [ -x $K/$b/kernels/dpa_cuda_bench ] && echo "--- $b" && $K/$b/kernels/dpa_cuda_bench --gatk $NREG 1 8
done
if [ -n "${DATA:-}" ]; then
  echo "=== .in files (wall per call, 30 reps): base then new"
  for f in 10s 1m; do
    for b in base new; do
      [ -x $K/$b/kernels/dpa_cuda_bench ] && $K/$b/kernels/dpa_cuda_bench $DATA/$f.in 30 | grep -o "^[^:]*\|median .*"
    done
  done
fi
if [ -n "${GPH:-}" ] && [ -x "$GPH" ]; then
  echo "=== gpuPairHMM single-tile float peak benchmark, same GPU (G, R, length, min/avg/max GCUPS)"
  timeout 60 "$GPH" 2>&1 | tail -9
fi
echo "=== total $(( $(date +%s) - t0 )) s"
} 2>&1 | tee $LOG
