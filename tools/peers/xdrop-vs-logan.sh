#!/usr/bin/env bash
# Times LOGAN (the published GPU X-drop) and dpaccel on the same seeds, in one run on the GPU
# machine, with 1..N GPUs:
#
#   tools/peers/xdrop-vs-logan.sh LOGAN_DEMO ENGINE_BENCH [LEN] [PAIRS] [GPU_SETS]
#
# LOGAN_DEMO: the demo binary from tools/peers/build-logan.sh. ENGINE_BENCH: our
# native/bench/engine_bench (CMake target engine_bench, CUDA library in DPACCEL_CUDA_LIB).
# The pairs: engine_bench's generator, PAIRS (default 100000) targets of LEN (default 5000)
# random bases and queries copied from them with 12% substitutions and 1-bp indels outside a
# 17-base exact seed in the middle; XDROP_EXPORT_LOGAN writes them in LOGAN's input format
# (seqV posV seqH posH strand). Both extend at X = 100 with +1/-1/-1 (LOGAN's fixed scoring).
# GPU_SETS: CUDA_VISIBLE_DEVICES values separated by spaces (default "0").
# dpaccel: `engine_bench xdrop LEN PAIRS gpu 3`, warm calls of the public C API (validation,
# copies, kernels, outputs), median. LOGAN: one run of its demo, which prints "GPU only time"
# per batch of 30,000 x GPUs pairs (copies to the device, kernels, copies back; summed here)
# and "Total Execution time" (its whole call from host strings; file parsing excluded).
# GCUPS for both use dpaccel's swept-cell count of the same pairs (SeqAn's inner loop).
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,18p' "$0" >&2
  exit 2
fi
logan=$1 eb=$2 len=${3:-5000} pairs=${4:-100000} sets=${5:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cells=$(XDROP_EXPORT_LOGAN="$tmp/seeds.txt" "$eb" xdrop "$len" "$pairs" cpu 1 |
        sed -n 's/.*(X 100): \([0-9.]*\) G cells.*/\1/p')
echo "== $pairs pairs of $len bp, X 100: $cells G swept cells"
for s in $sets; do
  n=$(echo "$s" | tr ',' '\n' | wc -l)
  ours=$(CUDA_VISIBLE_DEVICES=$s "$eb" xdrop "$len" "$pairs" gpu 3 | grep "one call")
  out=$(CUDA_VISIBLE_DEVICES=$s "$logan" "$tmp/seeds.txt" 17 100 "$n" 2>&1)
  gpu=$(echo "$out" | awk -F'\t' '/GPU only time/{s+=$NF} END{printf "%.3f", s}')
  tot=$(echo "$out" | awk -F'\t' '/Total Execution time/{printf "%.3f", $NF}')
  echo "GPUs $s: dpaccel $ours"
  awk -v c="$cells" -v g="$gpu" -v t="$tot" -v s="$s" 'BEGIN{
    printf "GPUs %s: LOGAN total %.3f s (%.1f GCUPS), GPU only %.3f s (%.1f GCUPS)\n", s, t, c/t, g, c/g }'
done
