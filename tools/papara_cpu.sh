#!/usr/bin/env bash
# tools/papara_cpu.sh — PaPaRa scoring per core beside PaPaRa 2.5 on one machine
# (docs/papara.md "Speed"; docs/BENCHMARKS.md, "PaPaRa per core on a full-width AVX-512 CPU"):
# three seeded shapes (the issue's 100 taxa x 1,500 sites x 500 reads of 100-150 bases; 100
# taxa x 5,000 sites x 12 reads of 900-1,100; 802 taxa x 3,060 sites x 24 reads of 90-110, a
# slice of the 1604.PRANK shape), ROUNDS interleaved rounds of PaPaRa 2.5 (`-j 1`, its log's
# "scoring finished" seconds) and dpaccel_papara (`--threads 1 --time`, scoring seconds) with
# the default ISA and with AVX-512 disabled; our alignment.phy must be byte-identical to
# PaPaRa's papara_alignment, and best.tsv the same for every ISA and build. Then
# dpaccel_papara (BIN2's if set) on 1/2/4/8/16 threads on the 802-taxa shape with 160 reads,
# twice. Medians at the end.
#
# From a clean clone (PaPaRa 2.5 built outside the repository, docs/papara.md "The oracle"):
#   PAPARA=/path/to/papara OUT=out tools/papara_cpu.sh
# Variables: BIN (a folder holding dpaccel_papara and dpa_papara_gen; default: build them in
# build/cpu), BIN2 (a second build of dpaccel_papara, timed as extra rows, label LABEL2),
# PAPARA2 (a second PaPaRa build, timed on the first shape only, label PLABEL2), ROUNDS (3),
# THREADS ("1 2 4 8 16"), SMALL=1 (tiny shapes, to try the script).
set -uo pipefail
OUT=${OUT:-out} ROUNDS=${ROUNDS:-3} THREADS=${THREADS:-"1 2 4 8 16"}
: "${PAPARA:?set PAPARA to a PaPaRa 2.5 binary}"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ -z "${BIN:-}" ]; then
  cmake -S . -B build/cpu -DDPA_WITH_CUDA=OFF -DCMAKE_BUILD_TYPE=Release >"$OUT/build.log" 2>&1 &&
    cmake --build build/cpu -j"$(nproc)" --target dpaccel_papara dpa_papara_gen >>"$OUT/build.log" 2>&1 ||
    { tail -30 "$OUT/build.log"; exit 1; }
  BIN=build/cpu/bin
  mkdir -p "$BIN" && cp build/cpu/native/dpaccel_papara build/cpu/native/tests/dpa_papara_gen "$BIN"/
fi
BIN=$(cd "$BIN" && pwd)
[ -n "${BIN2:-}" ] && BIN2=$(cd "$BIN2" && pwd)
PAPARA=$(realpath "$PAPARA")
[ -n "${PAPARA2:-}" ] && PAPARA2=$(realpath "$PAPARA2")
{ lscpu; echo; grep -m1 '^flags' /proc/cpuinfo; echo; uptime; nproc; } >"$OUT/info.txt" 2>&1
grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|L1d|L2|L3' "$OUT/info.txt"
D=$OUT/data
if [ "${SMALL:-0}" = 1 ]; then
  SHAPES="a:7:20:300:40:90:110 b:11:20:800:4:300:400 c:7:60:500:8:90:110" SCAL="c:7:60:500:40:90:110"
else
  SHAPES="a:7:100:1500:500:100:150 b:11:100:5000:12:900:1100 c:7:802:3060:24:90:110"
  SCAL="c:7:802:3060:160:90:110"
fi
for s in $SHAPES "${SCAL/c:/t:}"; do
  IFS=: read -r n seed taxa cols reads lo hi <<<"$s"
  mkdir -p "$D/$n" && "$BIN/dpa_papara_gen" "$D/$n" "$seed" "$taxa" "$cols" "$reads" 0 "$lo" "$hi" || exit 1
done
R=$OUT/raw.tsv
echo -e "round\tshape\trun\tseconds\tGcells_per_s\tnote" >"$R"
ours() { # round shape label bin [env]
  local r=$1 n=$2 label=$3 bin=$4 dis=${5:-} o=$OUT/runs/$2_$3_$1 line
  mkdir -p "$o"
  line=$(cd "$D/$n" && DPACCEL_CPU_DISABLE=$dis "$bin/dpaccel_papara" --tree tree.nwk --ref ref.phy \
    --reads reads.fa --out "$o" --threads 1 --backend cpu --time 2>&1 | grep '^profiles')
  echo -e "$r\t$n\t$label\t$(sed -E 's/.*scoring ([0-9.]+) s.*/\1/' <<<"$line")\t$(sed -E 's/.* ([0-9.]+) G cells.*/\1/' <<<"$line")\t$(sed -E 's/.*CPU kernel ([a-z0-9]+).*/\1/' <<<"$line")" >>"$R"
}
theirs() { # round shape label binary
  local r=$1 n=$2 label=$3 bin=$4 t
  (cd "$D/$n" && "$bin" -t tree.nwk -s ref.phy -q reads.fa -j 1 -n "${label}_$r" >/dev/null 2>&1)
  t=$(grep -o 'scoring finished: [0-9.]*' "$D/$n/papara_log.${label}_$r" | awk '{print $3}')
  echo -e "$r\t$n\t$label\t${t:-FAILED}\t\t$(grep -o '^edges: [0-9]*' "$D/$n/papara_log.${label}_$r")" >>"$R"
}
for r in $(seq 1 "$ROUNDS"); do
  for s in $SHAPES; do
    n=${s%%:*}
    theirs "$r" "$n" papara "$PAPARA"
    ours "$r" "$n" ours_default "$BIN"
    ours "$r" "$n" ours_avx2 "$BIN" avx512
    if [ -n "${BIN2:-}" ]; then
      ours "$r" "$n" "${LABEL2:-new}_default" "$BIN2"
      ours "$r" "$n" "${LABEL2:-new}_avx2" "$BIN2" avx512
    fi
    if [ -n "${PAPARA2:-}" ] && [ "$n" = a ]; then theirs "$r" "$n" "${PLABEL2:-papara2}" "$PAPARA2"; fi
  done
  echo "round $r done: $(date -u +%T)"
done
rc=0
for s in $SHAPES; do
  n=${s%%:*}
  for o in "$OUT"/runs/"$n"_*; do
    cmp -s "$o/alignment.phy" "$D/$n/papara_alignment.papara_1" || { echo "DIFFERS: $o/alignment.phy vs PaPaRa ($n)"; rc=1; }
    cmp -s "$o/best.tsv" "$OUT/runs/${n}_ours_default_1/best.tsv" || { echo "DIFFERS: $o/best.tsv ($n)"; rc=1; }
  done
  for f in "$D/$n"/papara_alignment.*; do
    cmp -s "$f" "$D/$n/papara_alignment.papara_1" || { echo "DIFFERS: $f ($n)"; rc=1; }
  done
done
[ $rc = 0 ] && echo "outputs agree: every alignment.phy = PaPaRa's papara_alignment, every best.tsv the same"
S=$OUT/threads.tsv
echo -e "threads\tseconds\tGcells_per_s" >"$S"
for rep in 1 2; do
  for t in $THREADS; do
    line=$(cd "$D/t" && "${BIN2:-$BIN}/dpaccel_papara" --tree tree.nwk --ref ref.phy --reads reads.fa \
      --out "$OUT/runs/t_$t" --threads "$t" --backend cpu --time 2>&1 | grep '^profiles')
    echo -e "$t\t$(sed -E 's/.*scoring ([0-9.]+) s.*/\1/' <<<"$line")\t$(sed -E 's/.* ([0-9.]+) G cells.*/\1/' <<<"$line")" >>"$S"
  done
done
for t in $THREADS; do cmp -s "$OUT/runs/t_$t/best.tsv" "$OUT/runs/t_1/best.tsv" || { echo "DIFFERS: threads $t"; rc=1; }; done
# medians (3 rounds: the middle value)
med() { sort -g | awk '{v[NR]=$1} END {if (NR) print (NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
echo "== medians, one thread (seconds; all rounds in raw.tsv) =="
for s in $SHAPES; do
  n=${s%%:*}
  p=$(awk -F'\t' -v n="$n" '$2==n && $3=="papara" {print $4}' "$R" | med)
  for label in $(awk -F'\t' -v n="$n" 'NR>1 && $2==n {print $3}' "$R" | sort -u); do
    m=$(awk -F'\t' -v n="$n" -v l="$label" '$2==n && $3==l {print $4}' "$R" | med)
    g=$(awk -F'\t' -v n="$n" -v l="$label" '$2==n && $3==l && $5!="" {print $5}' "$R" | med)
    echo -e "$n\t$label\t$m s\t${g:+$g G cells/s}\t$(awk -v p="$p" -v m="$m" 'BEGIN {if (m > 0) printf "PaPaRa/this %.2fx", p / m}')"
  done
done
echo "== threads (median of 2) =="
for t in $THREADS; do
  echo -e "$t\t$(awk -F'\t' -v t="$t" '$1==t {print $2}' "$S" | med) s\t$(awk -F'\t' -v t="$t" '$1==t {print $3}' "$S" | med) G cells/s"
done
cat "$R" "$S" >"$OUT/all.tsv"
exit $rc
