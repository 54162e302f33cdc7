#!/usr/bin/env bash
# device-host.sh — one device call that measures the PairHMM host path before and after a
# change, in the same run: builds two source trees (sm_90, JNI headers carried, no JDK on
# the device), runs the new tree's CUDA + engine GPU tests, then interleaves base and new
# benches: C ops table (dpa_cuda_bench --gatk, .in files) and Java (dpaccel-bench through
# DpaPairHmm with 1 and 16 callers, GKL OMP 16 threads, whole .in files), and one Java run
# with DPACCEL_CUDA_TIMING=1 for the phase times of a few regions.
#
# Layout (carry .jre and .devdata): $P/{new,base}_src (CMakeLists.txt cmake native kernels),
# $P/{new,base}.jar (dpaccel-bench.jar of each tree), $P/jdkinc (a JDK's include/),
# .devdata/{10s,1m}.in.  Usage: bash java/bench/device-host.sh [.devdata/phh]
set -uo pipefail
OUT=${OUT:-out}; mkdir -p "$OUT"
P=${1:-.devdata/phh}
D=.devdata
J=.jre/bin/java
NREG=${NREG:-400}
CHECK="--check-cells 20000000 --no-sweeps --progress off"
build() { # tree name, tests ON/OFF
  cmake -S "$P/$1_src" -B "/tmp/b_$1" -DCMAKE_BUILD_TYPE=Release -DDPA_WITH_CUDA=ON \
    -DDPA_CUDA_ARCHITECTURES=90 -DDPA_BUILD_TESTS="$2" -DDPA_JNI_INCLUDE="$PWD/$P/jdkinc" \
    -DDPA_OUTPUT_DIR="/tmp/lib_$1" >/dev/null && cmake --build "/tmp/b_$1" -j8 2>&1 | grep -E "error|warning: " | head -20
}
jb() { # tree name, out name, bench args...
  local w=$1 name=$2; shift 2
  echo "--- java $w $name: $*"
  timeout 120 $J -Ddpaccel.native.path=/tmp/lib_$w -jar "$P/$w.jar" pairhmm $CHECK --out "/tmp/res/$w-$name" "$@" \
    > "$OUT/$w-$name.txt" 2>&1
  grep -E "^(cuda|gkl|avx|hybrid)|FAIL|Exception|skip" "$OUT/$w-$name.txt" | head -8
}
{
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
echo "cpus $(nproc)"; date -u
t0=$(date +%s)
build new ON > "$OUT/build_new.txt" 2>&1 &
build base OFF > "$OUT/build_base.txt" 2>&1 &
wait
cat "$OUT/build_new.txt" "$OUT/build_base.txt" | head -20
ls /tmp/lib_new /tmp/lib_base
echo "build s: $(( $(date +%s) - t0 ))"
echo "=== tests (new)"
timeout 100 ctest --test-dir /tmp/b_new -R 'cuda|engine_gpu' --output-on-failure > "$OUT/ctest.txt" 2>&1
grep -E "Failure|Expected|Which is|differs|Test +#|tests passed|SKIP" "$OUT/ctest.txt" | head -30
echo "=== memcheck: host team test (new)"
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b_new/kernels/tests/test_cuda_pairhmm \
  --gtest_filter='*HostTeam*' 2>&1 | tail -2
echo "=== C ops table: --gatk $NREG regions 1 and 16 threads; .in files (base, new)"
for w in base new; do
  echo "--- $w"; timeout 60 /tmp/b_$w/kernels/dpa_cuda_bench --gatk $NREG 1 16 2>&1 | tail -3
  for f in 10s 1m; do timeout 60 /tmp/b_$w/kernels/dpa_cuda_bench $D/$f.in 30 2>&1 | tail -1; done
done
echo "=== Java: one region per call (DpaPairHmm), GKL OMP 16 threads beside it"
G="--dataset gatk --mode gatk --threads 16"
jb new c1gkl $G --regions $NREG --reps 5 --backends cuda,gkl-omp --baseline gkl-omp
jb base c1 $G --regions $NREG --reps 5 --backends cuda
jb new c1 $G --regions $NREG --reps 5 --backends cuda
jb base c16 $G --regions 800 --reps 3 --callers 16 --backends cuda
jb new c16 $G --regions 800 --reps 3 --callers 16 --backends cuda
# the 800-region pass lasts ~35 ms: also a longer one (3200 regions, 5 reps)
jb base c16long $G --regions 3200 --reps 5 --callers 16 --backends cuda
jb new c16long $G --regions 3200 --reps 5 --callers 16 --backends cuda
echo "=== Java: whole .in files, one call"
for f in 10s 1m; do
  for w in base new; do jb $w $f --dataset file:$D/$f.in --batch 100000 --reps 10 --backends cuda; done
done
echo "=== Java new, 1 caller, phase times of every region (DPACCEL_CUDA_TIMING=1): medians of the timed pass"
DPACCEL_CUDA_TIMING=1 timeout 90 $J -Ddpaccel.native.path=/tmp/lib_new -jar "$P/new.jar" pairhmm $CHECK \
  --out /tmp/res/new-timing $G --regions $NREG --reps 1 --warmup 1 --backends cuda > "$OUT/new-timing.txt" 2>&1
grep -E "^cuda" "$OUT/new-timing.txt"
grep "dpaccel cuda timing: call" "$OUT/new-timing.txt" | tail -n $NREG | awk '{print $5}' | sort -g \
  | awk '{a[NR]=$1} END {print "backend call ms over " NR " regions: p50 " a[int(NR/2)+1] " p90 " a[int(NR*0.9)+1]}'
for k in pack submit wait; do
  grep "dpaccel cuda timing: pairs" "$OUT/new-timing.txt" | tail -n $NREG | sed -E "s/.* $k ([0-9.]+).*/\1/" | sort -g \
    | awk -v k=$k '{a[NR]=$1} END {print k " ms p50 " a[int(NR/2)+1]}'
done
echo "=== C phase times 1m.in (base, new)"
DPACCEL_CUDA_TIMING=1 timeout 60 /tmp/b_base/kernels/dpa_cuda_bench $D/1m.in 3 2>&1 | tail -4
DPACCEL_CUDA_TIMING=1 timeout 60 /tmp/b_new/kernels/dpa_cuda_bench $D/1m.in 3 2>&1 | tail -4
echo "total s: $(( $(date +%s) - t0 ))"
} 2>&1 | tee "$OUT/log.txt"
