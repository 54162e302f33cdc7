#!/bin/sh
# Issue 22's CPU speed goal, measured: our hmm-filter (one thread, AVX-512 and AVX2) against
# HMMER 3.4's own filters timed alone (tools/hmm/hmmer_filter_bench.c, built outside the repo
# by build_hmmer_filter_bench.sh), on the same files, in interleaved rounds, one process at a
# time. Prints each round (G cells/s per stage, load average) and the medians with ratios.
# Needs: our hmm_filter_bench built (cmake --build BUILD --target hmm_filter_bench), python3
# with pyhmmer (the data generator), pip and gcc (the HMMER build).
# Usage: tools/hmm/hmm_vs_hmmer.sh BUILD_DIR OUT_DIR [rounds [repeats]]
#   e.g. tools/hmm/hmm_vs_hmmer.sh build/h /tmp/hmm-peer 5 3
# OURS=path overrides our bench binary; BEFORE=path adds an older build's two columns to every
# round (before/after).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath "$1")
out=$(realpath -m "$2")
rounds=${3:-5}
reps=${4:-3}
ours=${OURS:-$build/native/hmm_filter_bench}
mkdir -p "$out/data"
[ -x "$out/hmmer/hmmer_filter_bench" ] || nice -n 10 "$here/tools/hmm/build_hmmer_filter_bench.sh" "$out/hmmer" >&2
d=$out/data
[ -f "$d/bench.hmm" ] || python3 "$here/tools/hmm/gen_hmm_testdata.py" 3 "$d/bench.hmm" "$d/bench_t.fa" 15 10 100
[ -f "$d/bg.fa" ] || python3 "$here/tools/hmm/gen_background_fasta.py" 1 1000 350 "$d/bg.fa"
log=$out/rounds.txt
: > "$log"
r=1
while [ "$r" -le "$rounds" ]; do
  echo "round $r load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$log"
  if [ -n "${BEFORE:-}" ]; then
    nice -n 10 "$BEFORE" --stages "$d/bench.hmm" "$d/bg.fa" "$reps" | sed 's/^/before-avx512 /' | tee -a "$log"
    DPACCEL_CPU_DISABLE=avx512 nice -n 10 "$BEFORE" --stages "$d/bench.hmm" "$d/bg.fa" "$reps" | sed 's/^/before-avx2 /' | tee -a "$log"
  fi
  nice -n 10 "$ours" --stages "$d/bench.hmm" "$d/bg.fa" "$reps" | sed 's/^/ours-avx512 /' | tee -a "$log"
  DPACCEL_CPU_DISABLE=avx512 nice -n 10 "$ours" --stages "$d/bench.hmm" "$d/bg.fa" "$reps" | sed 's/^/ours-avx2 /' | tee -a "$log"
  nice -n 10 "$out/hmmer/hmmer_filter_bench" "$d/bench.hmm" "$d/bg.fa" "$reps" | sed 's/^/hmmer /' | tee -a "$log"
  r=$((r + 1))
done
python3 - "$log" <<'EOF'
import re, statistics, sys
rate = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\S+) +(\S+) +(msv|pipeline|vit|bias) *: [0-9.]+ s, ([0-9.]+) G cells/s", line)
    if m:
        who = m.group(1) if m.group(1) != "hmmer" else "hmmer"
        rate.setdefault((who, m.group(3)), []).append(float(m.group(4)))
print("\nmedians, G cells/s (cells = sum M x L over all pairs), ratio to HMMER 3.4:")
for st in ("msv", "vit", "pipeline"):
    h = statistics.median(rate[("hmmer", st)])
    row = ["%-8s HMMER %6.2f" % (st, h)]
    for who in ("before-avx2", "before-avx512", "ours-avx2", "ours-avx512"):
        if (who, st) not in rate:
            continue
        v = statistics.median(rate[(who, st)])
        row.append("%s %6.2f (%.2fx, rounds %s)" % (who, v, v / h, " ".join("%.1f" % x for x in rate[(who, st)])))
    print("\n    ".join(row))
EOF
