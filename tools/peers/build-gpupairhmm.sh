#!/usr/bin/env bash
# Builds gpuPairHMM (Schmidt et al., https://github.com/asbschmidt/gpuPairHMM, the GPU PairHMM
# that issue 19 measures us against) as a same-machine peer. It fetches nothing: SRC is a
# checkout you obtained yourself, outside this repository; nothing of gpuPairHMM is copied
# into dpaccel.
#
#   tools/peers/build-gpupairhmm.sh SRC OUT [ARCH]
#     SRC   a gpuPairHMM checkout (main.cu, gpuworker.cu, Makefile); measured at HEAD 3965d2d
#     OUT   build folder (created), gets OUT/gpuPairHMM
#     ARCH  compute capability without the dot (default 90, the H100); also its tuning config
# nvcc from $NVCC, else the PATH. Its own Makefile does the build (GPUARCH/TUNINGARCH), in a
# copy of SRC under OUT so the checkout stays clean.
#
# Then compare on the same .in file (both read GATK's "R H / reads / haplotypes" records):
#   tools/peers/pairhmm-vs-gpupairhmm.sh OUT/gpuPairHMM build/native/native/bench/engine_bench F.in
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,16p' "$0" >&2
  exit 2
fi
src=$(cd "$1" && pwd)
out=$2
arch=${3:-90}
for f in main.cu gpuworker.cu Makefile; do
  if [ ! -f "$src/$f" ]; then
    echo "build-gpupairhmm.sh: $src/$f not found: SRC must be a gpuPairHMM checkout" >&2
    exit 2
  fi
done
if git -C "$(dirname "$0")" ls-files --error-unmatch "$src" >/dev/null 2>&1; then
  echo "build-gpupairhmm.sh: $src is tracked by dpaccel: keep gpuPairHMM outside the repository" >&2
  exit 2
fi
mkdir -p "$out/src"
cp -r "$src"/. "$out/src/"
nvcc=${NVCC:-nvcc}
make -C "$out/src" -j "$(nproc)" COMPILER="$nvcc" GPUARCH="$arch" TUNINGARCH="$arch" \
  GPUARCH_NUM_COMPILE_THREADS=4 gpuPairHMM >&2
cp "$out/src/gpuPairHMM" "$out/gpuPairHMM"
echo "$out/gpuPairHMM"
