#!/usr/bin/env bash
# Times gpuPairHMM and dpaccel on the same .in file, one GPU, in one run (issue 19's
# "warm batches against warm batches"):
#
#   tools/peers/pairhmm-vs-gpupairhmm.sh GPUPAIRHMM ENGINE_BENCH FILE.in [COPIES] [REPS]
#
# gpuPairHMM: the file repeated COPIES times (default 8) with --fileBatchsize set to one
# copy's alignment count, so it processes COPIES batches of exactly the file's work; its
# "Batch processing time" (transfers + kernels of every batch, parsing excluded: its parser
# runs in another thread) divided by COPIES is its time per batch, first (cold) batch
# included. Run REPS (default 3) times. dpaccel: `engine_bench pairhmm FILE gpu 10`, the
# whole file in one public-API call (validation, packing, transfers, kernels), median and
# minimum of 10 warm calls. Both count cells as read length x haplotype length.
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,14p' "$0" >&2
  exit 2
fi
gph=$1 eb=$2 file=$3 copies=${4:-8} reps=${5:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
per_copy=$(awk 'BEGIN{n=0} /^[0-9]+ [0-9]+$/ && skip==0 {n+=$1*$2; skip=$1+$2; next} {if (skip>0) skip--} END{print n}' "$file")
for _ in $(seq "$copies"); do cat "$file"; done > "$tmp/rep.in"
echo "== $file: $per_copy alignments per copy, $copies copies"
for r in $(seq "$reps"); do
  line=$("$gph" --inputfile "$tmp/rep.in" --outputfile "$tmp/out.txt" --verbose \
           --fileBatchsize "$per_copy" 2>&1 | grep "Batch processing time" || true)
  secs=$(echo "$line" | sed -n 's/.*time: \([0-9.e+-]*\)s.*/\1/p')
  if [ -z "$secs" ]; then echo "gpuPairHMM run $r: no timing line"; continue; fi
  awk -v s="$secs" -v c="$copies" -v l="$line" -v run="$r" \
    'BEGIN{printf "gpuPairHMM run %s: %s -> %.3f ms per batch\n", run, l, 1e3*s/c}'
done
"$eb" pairhmm "$file" gpu 10 | grep -E "pairhmm|whole file|checksum whole"
