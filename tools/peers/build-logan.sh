#!/usr/bin/env bash
# Builds LOGAN (the published GPU X-drop, https://github.com/albertozeni/LOGAN, BSD-style
# licence of LBNL) as a same-machine peer for `dpaccel bench xdrop` (docs/bench.md, "X-drop
# peer"). It fetches nothing: SRC is a checkout you obtained yourself, outside this repository;
# nothing of LOGAN is copied into dpaccel.
#
#   tools/peers/build-logan.sh SRC OUT [ARCH]
#     SRC   a LOGAN checkout (src/demo.cu, src/seed.cu, src/score.cu, src/logan_functions.cu)
#     OUT   build folder (created), gets OUT/demo
#     ARCH  nvcc -arch value (default sm_90, the H100)
# nvcc from $NVCC, else the PATH. Compile flags as LOGAN's own Makefile (-O3 -maxrregcount=32
# -std=c++14, relocatable device code, OpenMP on the host), with -arch for the card.
#
# Then, on the GPU machine, the same seeds for both (LOGAN's scoring is fixed at +1/-1/-1 and
# its seeds are k = 17 long, as the bench's): tools/peers/xdrop-vs-logan.sh OUT/demo
# build/native/engine_bench (no Java needed), or through the Java bench:
#   java -jar java/cli/target/dpaccel.jar bench xdrop --size 100000 --xdrop 100 \
#       --export-logan /tmp/logan-100k.txt
#   OUT/demo /tmp/logan-100k.txt 17 100 1      # prints "Total Execution time: S"
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,22p' "$0" >&2
  exit 2
fi
src=$(cd "$1" && pwd)
out=$2
arch=${3:-sm_90}
nvcc=${NVCC:-nvcc}
for f in demo seed score logan_functions; do
  if [ ! -f "$src/src/$f.cu" ]; then
    echo "build-logan.sh: $src/src/$f.cu not found: SRC must be a LOGAN checkout" >&2
    exit 2
  fi
done
case "$src/" in
  "$(cd "$(dirname "$0")/../.." && pwd)"/*)
    echo "build-logan.sh: keep LOGAN's sources outside the dpaccel repository" >&2
    exit 2 ;;
esac
mkdir -p "$out"
flags=(-O3 -maxrregcount=32 -std=c++14 "-I$src/src" -Xcompiler -fopenmp "-arch=$arch")
objs=()
for f in demo seed score logan_functions; do
  "$nvcc" "${flags[@]}" -dc "$src/src/$f.cu" -o "$out/$f.o"
  objs+=("$out/$f.o")
done
"$nvcc" "${flags[@]}" "${objs[@]}" -o "$out/demo"
echo "$out/demo"
