#!/usr/bin/env bash
# device-lat.sh — one device call that measures the latency of one PairHMM region per call
# (issue #4) before and after a backend change, in the same run. Builds (sm_90, in parallel)
# $P/new_src (made on the dev machine: `git archive HEAD CMakeLists.txt cmake native kernels`,
# so other people's uncommitted work stays out; the device's copy of .git may be stale, so
# nothing here asks git) with the OVERLAY files copied over it from the working tree ("new",
# with tests), and the same tree with the files under $P/base copied over it ("base", the
# backend before the change). Then: CUDA + engine GPU tests, memcheck on the direct-path tests, and interleaved
# benches: C ops table (dpa_cuda_bench --gatk, also the new build with
# DPACCEL_CUDA_POLL=0 and DPACCEL_CUDA_DIRECT=0), .in files, and Java through DpaPairHmm
# (1 caller per region, 16 callers, GKL OMP 16 threads in the same run, whole .in files),
# one Java run with DPACCEL_CUDA_TIMING=1 for the phases. Log: $OUT/log.txt.
#
# Carry: .jre, java/bench/target/dpaccel-bench.jar, .devdata (the .in files, $P/new_src,
# $P/base, $P/jdkinc = a JDK's include/). Usage (repo root):
#   OVERLAY="kernels/src/pairhmm_launch.cu ..." bash java/bench/device-lat.sh [.devdata/plat]
set -uo pipefail
OUT=${OUT:-out}; mkdir -p "$OUT"
P=${1:-.devdata/plat}
D=.devdata
J=.jre/bin/java
JAR=java/bench/target/dpaccel-bench.jar
NREG=${NREG:-400}
CHECK="--check-cells 20000000 --no-sweeps --progress off"
build() { # tree name, tests ON/OFF
  cmake -S "/tmp/src_$1" -B "/tmp/b_$1" -DCMAKE_BUILD_TYPE=Release -DDPA_WITH_CUDA=ON \
    -DDPA_CUDA_ARCHITECTURES=90 -DDPA_BUILD_TESTS="$2" -DDPA_JNI_INCLUDE="$PWD/$P/jdkinc" \
    -DDPA_OUTPUT_DIR="/tmp/lib_$1" >/dev/null && cmake --build "/tmp/b_$1" -j8 > "/tmp/build_$1.log" 2>&1
  echo "build $1 rc $?"; grep -E "error|warning: " "/tmp/build_$1.log" | head -20
}
jb() { # tree, out name, bench args... (env is inherited: DPACCEL_* switches)
  local w=$1 name=$2; shift 2
  echo "--- java $w $name: $*"
  timeout 90 $J -Ddpaccel.native.path=/tmp/lib_$w -jar $JAR pairhmm $CHECK --out "/tmp/res/$w-$name" "$@" \
    > "$OUT/$w-$name.txt" 2>&1
  grep -E "^(cuda|gkl|avx|hybrid)|FAIL|Exception|skip" "$OUT/$w-$name.txt" | head -8
}
cb() { # label, tree, args... (C ops table bench)
  local l=$1 w=$2; shift 2
  echo "--- C $l: $*"; timeout 40 /tmp/b_$w/kernels/dpa_cuda_bench "$@" 2>&1 | tail -3
}
{
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
echo "cpus $(nproc)"; date -u; cat "$P/new_src.txt" 2>/dev/null; echo "overlay: ${OVERLAY:-none}"
t0=$(date +%s)
rm -rf /tmp/src_new /tmp/src_base
cp -r "$P/new_src" /tmp/src_new
for f in ${OVERLAY:-}; do cp "$f" "/tmp/src_new/$f"; done
cp -r /tmp/src_new /tmp/src_base
(cd "$P/base" && find . -type f) | while read -r f; do cp "$P/base/$f" "/tmp/src_base/$f"; done
build new ON > "$OUT/build_new.txt" 2>&1 &
build base OFF > "$OUT/build_base.txt" 2>&1 &
wait
cat "$OUT/build_new.txt" "$OUT/build_base.txt" | head -20
ls /tmp/lib_new /tmp/lib_base
echo "build s: $(( $(date +%s) - t0 ))"
echo "=== tests (new)"
timeout 100 ctest --test-dir /tmp/b_new -R 'cuda|engine_gpu' --output-on-failure > "$OUT/ctest.txt" 2>&1
grep -E "Failure|Expected|Which is|differs|Test +#|tests passed|SKIP" "$OUT/ctest.txt" | head -30
echo "=== memcheck: direct path, double pass, GATK shapes (new)"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b_new/kernels/tests/test_cuda_pairhmm \
  --gtest_filter='*Direct*:*DoublePass*:*Gatk*' 2>&1 | tail -2
echo "t s: $(( $(date +%s) - t0 ))"
echo "=== C ops table: --gatk $NREG regions, 1 and 16 threads, twice, interleaved"
for rep in 1 2; do
  cb base base --gatk $NREG 1 16
  cb new new --gatk $NREG 1 16
  DPACCEL_CUDA_POLL=0 cb new-sync new --gatk $NREG 1 16
  DPACCEL_CUDA_DIRECT=0 cb new-copyback new --gatk $NREG 1 16
done
for f in 10s 1m; do for w in base new; do cb "$w $f" $w $D/$f.in 30; done; done
echo "t s: $(( $(date +%s) - t0 ))"
echo "=== Java: one region per call (DpaPairHmm), GKL OMP 16 threads beside it"
G="--dataset gatk --mode gatk --threads 16"
jb new c1gkl $G --regions $NREG --reps 5 --backends cuda,gkl-omp --baseline gkl-omp
jb base c1 $G --regions $NREG --reps 5 --backends cuda
jb new c1 $G --regions $NREG --reps 5 --backends cuda
DPACCEL_CUDA_POLL=0 jb new c1sync $G --regions $NREG --reps 5 --backends cuda
DPACCEL_CUDA_DIRECT=0 jb new c1copyback $G --regions $NREG --reps 5 --backends cuda
echo "t s: $(( $(date +%s) - t0 ))"
jb base c16long $G --regions 3200 --reps 5 --callers 16 --backends cuda
jb new c16long $G --regions 3200 --reps 5 --callers 16 --backends cuda
echo "t s: $(( $(date +%s) - t0 ))"
if [ -n "${JAVA_IN:-}" ]; then # whole .in files through Java (the copy-back path): JAVA_IN=1
  echo "=== Java: whole .in files, one call"
  for f in 10s 1m; do
    for w in base new; do jb $w $f --dataset file:$D/$f.in --batch 100000 --reps 10 --backends cuda; done
  done
fi
echo "=== Java new, 1 caller, phase times of every region (DPACCEL_CUDA_TIMING=1): medians of the timed pass"
DPACCEL_CUDA_TIMING=1 timeout 60 $J -Ddpaccel.native.path=/tmp/lib_new -jar $JAR pairhmm $CHECK \
  --out /tmp/res/new-timing $G --regions $NREG --reps 1 --warmup 1 --backends cuda > "$OUT/new-timing.txt" 2>&1
grep -E "^cuda" "$OUT/new-timing.txt"
grep "dpaccel cuda timing: call" "$OUT/new-timing.txt" | tail -n $NREG | awk '{print $5}' | sort -g \
  | awk '{a[NR]=$1} END {print "backend call ms over " NR " regions: p50 " a[int(NR/2)+1] " p90 " a[int(NR*0.9)+1]}'
for k in pack keys radix desc warps submit wait scatter; do
  grep "dpaccel cuda timing: pairs" "$OUT/new-timing.txt" | tail -n $NREG | sed -E "s/.* $k ([0-9.]+).*/\1/" | sort -g \
    | awk -v k=$k '{a[NR]=$1} END {printf "%s ms p50 %s\n", k, a[int(NR/2)+1]}'
done
for k in h2d float double d2h; do
  grep "dpaccel cuda timing: pairs" "$OUT/new-timing.txt" | tail -n $NREG | sed -E "s/.*gpu ms:.* $k ([0-9.]+).*/\1/" | sort -g \
    | awk -v k=$k '{a[NR]=$1} END {printf "gpu %s ms p50 %s\n", k, a[int(NR/2)+1]}'
done
grep -c " direct " "$OUT/new-timing.txt" | sed 's/^/timed lines on the direct path: /'
grep "dpaccel cuda timing: pairs" "$OUT/new-timing.txt" | tail -n $NREG | grep -vc "flagged 0)" | sed 's/^/regions with flagged pairs: /'
echo "total s: $(( $(date +%s) - t0 ))"
} 2>&1 | tee "$OUT/log.txt"
