#!/usr/bin/env bash
# device_check.sh — the GPU machine's verification pass, one device call: builds this tree
# (sm_90, tests on), runs every CUDA and engine GPU test, compute-sanitizer memcheck, racecheck
# and synccheck over the CUDA PairHMM and Smith-Waterman tests, and the README's main job
# (dpaccel-bench on its default dataset) with the CUDA backend present. Needs .jre (jlink, see
# java/bench/make-jre.sh) and the bench jar carried, plus $JDKINC (a JDK's include/ folder,
# carried) for the JNI library. Usage (repo root): bash kernels/tools/device_check.sh [jdkinc]
set -uo pipefail
OUT=${OUT:-out}; mkdir -p "$OUT"
JDKINC=${1:-.devfinal/jdkinc}
B=/tmp/check
rc=0
{
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
date -u; t0=$(date +%s)
cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DDPA_WITH_CUDA=ON -DDPA_BUILD_TESTS=ON \
  -DDPA_CUDA_ARCHITECTURES=90 -DDPA_JNI_INCLUDE="$PWD/$JDKINC" -DDPA_OUTPUT_DIR=/tmp/check_lib >/dev/null &&
cmake --build $B -j16 2>&1 | grep -E "error:|warning: " | head -20
echo "build s: $(( $(date +%s) - t0 ))"
echo "=== ctest (cuda|engine_gpu|native_avx512)"
timeout 240 ctest --test-dir $B -R 'cuda|engine_gpu|native_avx512' --output-on-failure > "$OUT/ctest.txt" 2>&1 || rc=1
grep -E "Failure|Expected|Which is|differs|Test +#|tests passed|SKIP" "$OUT/ctest.txt" | head -40
for tool in memcheck racecheck synccheck; do
  echo "=== compute-sanitizer $tool"
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $B/kernels/tests/test_cuda_pairhmm \
    --gtest_filter='*Gatk*:*DoublePass*:*HostTeam*:*Split*' > "$OUT/san_phmm_$tool.txt" 2>&1
  echo "pairhmm $tool exit $?"; tail -2 "$OUT/san_phmm_$tool.txt"
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $B/kernels/tests/test_cuda_sw \
    --gtest_filter='*Hap*:*Edge*:*Chunk*' > "$OUT/san_sw_$tool.txt" 2>&1
  echo "sw $tool exit $?"; tail -2 "$OUT/san_sw_$tool.txt"
done
echo "=== README main job on the GPU machine (dpaccel-bench, default dataset)"
if [ -x .jre/bin/java ]; then
  timeout 180 .jre/bin/java -Ddpaccel.native.path=/tmp/check_lib -jar java/bench/target/dpaccel-bench.jar \
    --progress off --out /tmp/check_res > "$OUT/main_job.txt" 2>&1; echo "main job exit $?"
  tail -30 "$OUT/main_job.txt"
fi
echo "total s: $(( $(date +%s) - t0 ))"
} 2>&1 | tee "$OUT/log.txt"
exit $rc
