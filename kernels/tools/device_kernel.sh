#!/usr/bin/env bash
# device_kernel.sh — one call on a GPU machine for float-kernel work. Builds this tree
# (sm_90, with the CUDA tests), a baseline backend whose kernels/src is BASE_SRC (default
# .devdata/pk_base, e.g. a copy of kernels/src at an older commit), and one bench build
# per VARIANTS entry (CUDA flag sets, words joined by commas), all in parallel; then runs
# the CUDA + engine GPU tests, ncu on the float kernels of the synthetic SHAPES for every
# build, kernel times at normal clocks (DPACCEL_CUDA_TIMING events), and the --gatk
# per-call latency bench of the baseline and this tree. Everything goes to $OUT/log.txt.
# Usage (repo root): [VARIANTS="-DX=1 -DY=2,-DZ"] bash kernels/tools/device_kernel.sh
set -uo pipefail
OUT=${OUT:-out}; mkdir -p "$OUT"
BASE_SRC=${BASE_SRC:-.devdata/pk_base}
SHAPES=${SHAPES:-"128 128 100000;256 256 60000;512 512 40000"}
NREG=${NREG:-300}
TESTS=${TESTS:-1}
K=/tmp/kb
METRICS=gpu__time_duration.sum,smsp__thread_inst_executed.sum,smsp__inst_executed.sum,\
smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,\
launch__registers_per_thread
LOG=$OUT/log.txt
cfg() { cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DDPA_WITH_CUDA=ON -DDPA_CUDA_ARCHITECTURES=90 "${@:3}" >/dev/null; }
{
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
git log -1 --format='tree at %h %s' 2>/dev/null; git status --short kernels | head
mkdir -p $K
t0=$(date +%s)
builds=()
if [ -d "$BASE_SRC" ]; then
  rm -rf $K/base_tree && mkdir -p $K/base_tree &&
  cp -a CMakeLists.txt cmake native kernels $K/base_tree/ &&
  rm -rf $K/base_tree/kernels/src && cp -a "$BASE_SRC" $K/base_tree/kernels/src
  (cfg $K/base_tree $K/base -DDPA_BUILD_TESTS=OFF && cmake --build $K/base -j4 --target dpa_cuda_bench 2>&1 | grep -E " error" | head) &
  builds+=(base)
fi
i=0
for v in ${VARIANTS:-}; do
  i=$((i+1))
  (cfg . $K/v$i -DDPA_BUILD_TESTS=OFF "-DCMAKE_CUDA_FLAGS=${v//,/ }" && cmake --build $K/v$i -j4 --target dpa_cuda_bench 2>&1 | grep -E " error" | head) &
  builds+=(v$i)
done
if [ "$TESTS" = 1 ]; then
  # target by target: a test binary of someone else's work in progress must not stop ours
  cfg . $K/new -DDPA_BUILD_TESTS=ON &&
  for tg in dpa_cuda_bench test_cuda_pairhmm test_cuda_faults dpaccel_tests; do
    cmake --build $K/new -j8 --target $tg 2>&1 | grep -E " error|warning: " | head -10
  done
else
  cfg . $K/new -DDPA_BUILD_TESTS=OFF && cmake --build $K/new -j8 --target dpa_cuda_bench 2>&1 | grep -E " error" | head
fi
builds+=(new)
wait
echo "=== builds done in $(( $(date +%s) - t0 )) s: ${builds[*]}"
i=0
for v in ${VARIANTS:-}; do i=$((i+1)); echo "v$i = ${v//,/ }"; done
if [ "$TESTS" = 1 ]; then
  echo "=== ctest (cuda|engine_gpu)"
  ctest --test-dir $K/new -R 'cuda|engine_gpu' --output-on-failure > $OUT/ctest.txt 2>&1
  grep -E "Failure|Expected|Which is|differs|result [0-9]+ =|Test +#|tests passed|SKIP" $OUT/ctest.txt | head -40
fi
echo "=== ncu, float kernels (name | duration ns | thread instr | warp instr | issue % | warps % | regs)"
IFS=';' read -ra SH <<< "$SHAPES"
for s in "${SH[@]}"; do
  for b in "${builds[@]}"; do
    ncu --metrics $METRICS --csv -k regex:phmm_f32 $K/$b/kernels/dpa_cuda_bench --shape $s 0 2>/dev/null |
      awk -F'","' -v b=$b -v s="$s" '/phmm_f32/ {k=$5; sub(/\(.*/, "", k); gsub(/"/, "", $NF); v[$(NF-2)]=$NF}
        END {printf "%-5s %-16s %-28s %s | %s | %s | %s | %s | %s\n", b, s, k, v["gpu__time_duration.sum"],
             v["smsp__thread_inst_executed.sum"], v["smsp__inst_executed.sum"],
             v["smsp__issue_active.avg.pct_of_peak_sustained_active"],
             v["sm__warps_active.avg.pct_of_peak_sustained_active"], v["launch__registers_per_thread"]}'
  done
done
if [ -n "${FORCED:-}" ]; then
  echo "=== ncu, forced configurations of this tree (shape:cfg)"
  IFS=';' read -ra FC <<< "$FORCED"
  for f in "${FC[@]}"; do
    DPACCEL_CUDA_FORCE_CFG=${f##*:} ncu --metrics $METRICS --csv -k regex:phmm_f32 $K/new/kernels/dpa_cuda_bench --shape ${f%%:*} 0 2>/dev/null |
      awk -F'","' -v s="$f" '/phmm_f32/ {k=$5; sub(/\(.*/, "", k); gsub(/"/, "", $NF); v[$(NF-2)]=$NF}
        END {printf "new   %-18s %-28s %s | %s | %s | %s | %s | %s\n", s, k, v["gpu__time_duration.sum"],
             v["smsp__thread_inst_executed.sum"], v["smsp__inst_executed.sum"],
             v["smsp__issue_active.avg.pct_of_peak_sustained_active"],
             v["sm__warps_active.avg.pct_of_peak_sustained_active"], v["launch__registers_per_thread"]}'
  done
fi
if [ -n "${STALLS:-}" ]; then
  echo "=== ncu warp states (stall reasons, cycles per issued instruction) at $STALLS"
  for b in base new; do
    [ -x $K/$b/kernels/dpa_cuda_bench ] || continue
    ncu --section WarpStateStats --section SchedulerStats --csv -k regex:phmm_f32 \
      $K/$b/kernels/dpa_cuda_bench --shape $STALLS 0 2>/dev/null |
      awk -F'","' -v b=$b '/phmm_f32/ {gsub(/"/, "", $NF); if ($NF+0 >= 0.05 || $(NF-2) ~ /Eligible|Issued|Active Warps/) printf "%s | %s | %s\n", b, $(NF-2), $NF}'
  done
fi
echo "=== GPU event times at normal clocks (DPACCEL_CUDA_TIMING=1, 3 reps, last lines)"
for s in "${SH[@]}"; do
  for b in base new; do
    [ -x $K/$b/kernels/dpa_cuda_bench ] || continue
    echo "--- $b $s"
    DPACCEL_CUDA_TIMING=1 BENCH_CHECK=200 $K/$b/kernels/dpa_cuda_bench --shape $s 3 2>&1 | grep -E "GPU|float|synthetic" | tail -3
  done
done
echo "=== gatk latency (1 and 8 threads)"
for b in base new; do
  [ -x $K/$b/kernels/dpa_cuda_bench ] && echo "--- $b" && $K/$b/kernels/dpa_cuda_bench --gatk $NREG 1 8
done
if [ -n "${DATA:-}" ]; then
  echo "=== .in files (wall per call, 30 reps): base then new"
  for f in 10s 1m; do
    for b in base new; do
      [ -x $K/$b/kernels/dpa_cuda_bench ] && $K/$b/kernels/dpa_cuda_bench $DATA/$f.in 30
    done
  done
fi
if [ -n "${GATK_TIMING:-}" ]; then
  echo "=== one region per call, GPU event times (DPACCEL_CUDA_TIMING=1): base then new"
  for b in base new; do
    [ -x $K/$b/kernels/dpa_cuda_bench ] && DPACCEL_CUDA_TIMING=1 $K/$b/kernels/dpa_cuda_bench --gatk $GATK_TIMING 1 2>&1 |
      grep -o "pairs [0-9]* .*cfgs [0-9,]*\|float [0-9.]*" | paste - - | tail -8
  done
fi
echo "=== total $(( $(date +%s) - t0 )) s"
} 2>&1 | tee $LOG
