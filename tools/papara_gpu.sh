#!/usr/bin/env bash
# tools/papara_gpu.sh — PaPaRa scoring on a GPU machine (docs/papara.md, "Design" and
# "Speed"; docs/BENCHMARKS.md, "PaPaRa on the GPU"): the CUDA PaPaRa tests and the engine's
# PaPaRa tests with the GPU visible, then dpaccel_papara on the issue's 1604.PRANK shape
# (802 taxa, 3,060 sites, 16,040 reads of 90-110 bases; seeded generator) on the GPU alone
# and in HYBRID (each twice), the host CPU alone on its first 1,000 reads, and a byte
# comparison of their best.tsv and alignment.phy; then the same runs with --score-model
# paper2012 (best.tsv compared). Logs under $OUT (default ./out).
#
# From a clean clone, on the GPU machine (builds first):
#   OUT=out tools/papara_gpu.sh
# With binaries built elsewhere (a directory holding libdpaccel_cuda.so, dpaccel_papara,
# dpa_papara_gen, test_cuda_papara, dpaccel_tests):
#   OUT=out tools/papara_gpu.sh --bin DIR
# Options: --threads T (host threads, default nproc), --no-tests.
set -uo pipefail
OUT=${OUT:-out}
mkdir -p "$OUT"
BIN="" THREADS=$(nproc) TESTS=1
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --no-tests) TESTS=0; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -z "$BIN" ]; then
  NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  cmake -S . -B build/papara-gpu -DCMAKE_BUILD_TYPE=Release -DDPA_WITH_CUDA=ON \
    -DCMAKE_CUDA_COMPILER="$NVCC" -DDPA_CUDA_ARCHITECTURES=90 >"$OUT/build.log" 2>&1 &&
    cmake --build build/papara-gpu -j"$(nproc)" --target dpaccel_cuda dpaccel_papara \
      dpa_papara_gen test_cuda_papara dpaccel_tests >>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
  BIN=build/papara-gpu/bin
  mkdir -p "$BIN"
  cp build/papara-gpu/kernels/libdpaccel_cuda.so build/papara-gpu/native/dpaccel_papara \
    build/papara-gpu/native/tests/dpa_papara_gen build/papara-gpu/kernels/tests/test_cuda_papara \
    build/papara-gpu/native/tests/dpaccel_tests "$BIN"/
fi
export LD_LIBRARY_PATH="$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export DPACCEL_CUDA_LIB="$BIN/libdpaccel_cuda.so"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; nproc; } 2>&1 | tee "$OUT/info.txt"
rc=0
if [ "$TESTS" = 1 ]; then
  "$BIN/test_cuda_papara" >"$OUT/test_cuda_papara.log" 2>&1; r=$?; rc=$((rc | r))
  echo "test_cuda_papara rc=$r: $(grep -E '^\[  (PASSED|FAILED)|SKIPPED \]' "$OUT/test_cuda_papara.log" | tr '\n' ' ')"
  "$BIN/dpaccel_tests" --gtest_filter='*Papara*' >"$OUT/engine_papara.log" 2>&1; r=$?; rc=$((rc | r))
  echo "dpaccel_tests *Papara* rc=$r: $(grep -E '^\[  (PASSED|FAILED)|SKIPPED \]' "$OUT/engine_papara.log" | tr '\n' ' ')"
fi
D=$OUT/data
mkdir -p "$D"
"$BIN/dpa_papara_gen" "$D" 7 802 3060 16040 0 90 110 || exit 1
head -2000 "$D/reads.fa" >"$D/reads1k.fa"
score() { # label backend reads [more options]
  local label=$1 be=$2 rd=$3
  shift 3
  echo "$label: $( { /usr/bin/time -f '%e s whole tool' "$BIN/dpaccel_papara" --tree "$D/tree.nwk" \
    --ref "$D/ref.phy" --reads "$rd" --backend "$be" --threads "$THREADS" --time \
    --out "$OUT/$label" "$@"; } 2>&1 | tr '\n' ' ')"
}
score cpu_1k cpu "$D/reads1k.fa"
score gpu_1k gpu "$D/reads1k.fa"
for r in 1 2; do score gpu_$r gpu "$D/reads.fa"; score hybrid_$r hybrid "$D/reads.fa"; done
same() { cmp -s "$OUT/$1/best.tsv" "$OUT/$2/best.tsv" && cmp -s "$OUT/$1/alignment.phy" "$OUT/$2/alignment.phy"; }
if same cpu_1k gpu_1k && same gpu_1 hybrid_1 && same gpu_1 gpu_2 && same hybrid_1 hybrid_2; then
  echo "outputs identical (cpu = gpu on 1,000 reads; gpu = hybrid on all)"
else
  echo "OUTPUTS DIFFER"; rc=1
fi
# the 2012 paper's model (best.tsv only: it has no traceback)
score p12_cpu_1k cpu "$D/reads1k.fa" --score-model paper2012
score p12_gpu_1k gpu "$D/reads1k.fa" --score-model paper2012
for r in 1 2; do
  score p12_gpu_$r gpu "$D/reads.fa" --score-model paper2012
  score p12_hybrid_$r hybrid "$D/reads.fa" --score-model paper2012
done
if cmp -s "$OUT/p12_cpu_1k/best.tsv" "$OUT/p12_gpu_1k/best.tsv" &&
  cmp -s "$OUT/p12_gpu_1/best.tsv" "$OUT/p12_hybrid_1/best.tsv" &&
  cmp -s "$OUT/p12_gpu_1/best.tsv" "$OUT/p12_gpu_2/best.tsv"; then
  echo "paper2012 best.tsv identical (cpu = gpu on 1,000 reads; gpu = hybrid on all)"
else
  echo "PAPER2012 OUTPUTS DIFFER"; rc=1
fi
exit $rc
