#!/usr/bin/env bash
# Times dpaccel's CPU PairHMM (knob 2 and knob 3, AVX-512 and AVX2) and a driver of fgkl's
# PairHmm (float, suffix sharing on) in interleaved rounds on one pinned CPU, one call per
# .in group (issue 26):
#
#   tools/peers/pairhmm-vs-fgkl.sh ENGINE_BENCH FGKL_IN_BENCH CPU ROUNDS FILE.in:REPS...
#
# ENGINE_BENCH: dpaccel's build/<dir>/native/engine_bench ("one call per region" lines).
# FGKL_IN_BENCH: a program taking "FILE REPS avx512|avx2" that times one
# compute_log10_likelihoods call per group and prints "median X ms min Y ms Z GCUPS" (the one
# behind docs/BENCHMARKS.md, built outside the repository, is described in
# docs/lab/2026-11-29-session23-fgkl.md; no fgkl code or build recipe is kept here).
# Each round runs every file in turn, each file through knob 2 AVX-512, fgkl AVX-512, knob 3
# AVX-512, knob 3 AVX2, fgkl AVX2, knob 2 AVX2.
set -u
if [ $# -lt 5 ]; then
  sed -n '2,14p' "$0" >&2
  exit 2
fi
eb=$1 fg=$2 cpu=$3 rounds=$4
shift 4
date -u; uptime; lscpu | grep -E "Model name"
dpa() { # knob isa file reps
  local dis=
  [ "$2" = avx2 ] && dis=avx512
  echo "== round $round $3 dpaccel knob$1 $2"
  DPACCEL_THREADS=1 DPACCEL_PAIRHMM_PREFIX=$1 DPACCEL_CPU_DISABLE=$dis taskset -c "$cpu" "$eb" pairhmm "$3" cpu "$4"
}
fgkl() { # isa file reps
  echo "== round $round $2 fgkl $1"
  taskset -c "$cpu" "$fg" "$2" "$3" "$1"
}
for round in $(seq "$rounds"); do
  for spec in "$@"; do
    f=${spec%:*} r=${spec##*:}
    dpa 2 avx512 "$f" "$r"; fgkl avx512 "$f" "$r"; dpa 3 avx512 "$f" "$r"
    dpa 3 avx2 "$f" "$r"; fgkl avx2 "$f" "$r"; dpa 2 avx2 "$f" "$r"
  done
  echo "== after round $round: $(uptime)"
done
