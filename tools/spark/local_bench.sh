#!/bin/bash
# tools/spark/local_bench.sh — issue 24 on a small machine (docs/BENCHMARKS.md, "Spark local mode,
# session 23"): the single-machine `distance --counts` at 1 and 2 threads interleaved with the
# Spark job in local[1] / local[2], 2,000 x 100k (seed 1), 3 rounds; every output compared byte for
# byte with the first. Rows in WORK/runs.tsv with the 1-minute load average at each start.
#   tools/spark/local_bench.sh BUNDLE WORK [CONFIGS]
# BUNDLE: tools/spark/trimmed-bundle.sh's OUTDIR/bundle (or any folder with jre/, lib/, the two
# jars and java-options); CONFIGS: default "cli-1 spark-1-1024 cli-2 spark-2-1024" (cli-THREADS,
# spark-N-TILE).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "${1:?usage: local_bench.sh BUNDLE WORK [CONFIGS]}" && pwd)
mkdir -p "${2:?usage: local_bench.sh BUNDLE WORK [CONFIGS]}"
W=$(cd "$2" && pwd)
CONFIGS=${3:-cli-1 spark-1-1024 cli-2 spark-2-1024}
cd "$W"
[ -f c.bed ] || "$root/build/native/native/dpa_gen_genotypes" 2000 100000 1 "$W/c"
mapfile -t OPTS <"$B/java-options"
CP="$B/lib/*:$B/dpaccel-spark.jar:$B/dpaccel.jar"
J=$B/jre/bin/java
echo -e "round\tcfg\twall_s\tload1\tsame\tlog" >runs.tsv
for r in 1 2 3; do
  for cfg in $CONFIGS; do
    n=$(echo "$cfg" | cut -d- -f2) T=$(echo "$cfg" | cut -d- -f3) l=$(cut -d' ' -f1 /proc/loadavg) t0=$(date +%s.%N)
    case $cfg in
      cli-*) "$J" -jar "$B/dpaccel.jar" distance --bfile c --out o --counts -q --backend cpu --threads "$n" >o.log 2>&1 ;;
      spark-*) "$J" "${OPTS[@]}" -Ddpaccel.backend=cpu -Ddpaccel.threads="$n" -cp "$CP" org.dpaccel.spark.SparkMain \
        --master "local[$n]" distance --bfile c --out o --tile "$T" >o.log 2>&1 ;;
    esac
    w=$(awk "BEGIN { print $(date +%s.%N) - $t0 }")
    same=ref
    if [ -f ref.counts.tsv ]; then cmp -s ref.counts.tsv o.counts.tsv && same=yes || same=NO; else mv o.counts.tsv ref.counts.tsv; fi
    echo -e "$r\t$cfg\t$w\t$l\t$same\t$(grep -h tiles= o.log)" >>runs.tsv
    rm -rf o.counts.tsv o.parts o.id
  done
done
uptime >>runs.tsv
cat runs.tsv
