#!/bin/bash
# tools/spark/gpu_host_bench.sh — issue 24 (docs/BENCHMARKS.md, "Spark local mode, session 23"): single-machine `distance --counts` (CPU 16 threads, GPU) against the Spark
# job in local[16] (tiles on CPU, on GPU), 2,000 x 100k then 20,000 x 100k, interleaved rounds;
# every output compared byte for byte with the shape's first CLI output. A deadline keeps the
# call inside its budget: runs not started are reported as such. D (default .devdata/spark)
# holds bundle.tar.gz (tools/spark/trimmed-bundle.sh), libdpaccel_cuda.so.gz and
# dpa_gen_genotypes; results in $OUT/runs.tsv. Dry run without a GPU:
#   OUT=/tmp/x GPU=cpu SMALL='200 1000' BIG='2000 1000' tools/spark/gpu_host_bench.sh
set -u
DEADLINE=${DEADLINE:-210}
D=$(cd "${D:-.devdata/spark}" && pwd)
W=/tmp/w
rm -rf $W; mkdir -p $W/b $W/d $W/o
R=$OUT/runs.tsv
echo -e "shape\tround\tcfg\twall_s\trc\tsame\tlog" > $R
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; free -g | head -2; uptime; df -h /tmp | tail -1; } > $OUT/info.txt 2>&1
tar xzf $D/bundle.tar.gz -C $W/b
gunzip -c $D/libdpaccel_cuda.so.gz > $W/libdpaccel_cuda.so
export DPACCEL_CUDA_LIB=$W/libdpaccel_cuda.so
chmod +x $D/dpa_gen_genotypes
J=$W/b/jre/bin/java
mapfile -t OPTS < $W/b/java-options
CP="$W/b/lib/*:$W/b/dpaccel-spark.jar:$W/b/dpaccel.jar"
t=$(date +%s.%N); $D/dpa_gen_genotypes ${SMALL:-2000 100000} 1 $W/d/c >> $OUT/info.txt
echo "gen 2000x100k $(awk "BEGIN { print $(date +%s.%N) - $t }") s" >> $OUT/info.txt
# shape prefix round cfg tile
one() {
  local shape=$1 p=$2 r=$3 cfg=$4 tile=$5 o=$W/o/$4 rc
  if [ $SECONDS -ge $DEADLINE ]; then echo -e "$shape\t$r\t$cfg\tNOT RUN (deadline)" >> $R; return; fi
  local t0=$(date +%s.%N)
  case $cfg in
    cli-cpu) $J -jar $W/b/dpaccel.jar distance --bfile $p --out $o --counts -q --backend cpu --threads 16 > $o.log 2>&1 ;;
    cli-gpu) $J -jar $W/b/dpaccel.jar distance --bfile $p --out $o --counts -q --backend ${GPU:-gpu} > $o.log 2>&1 ;;
    spark-cpu) $J "${OPTS[@]}" -Ddpaccel.backend=cpu -Ddpaccel.threads=16 -cp "$CP" org.dpaccel.spark.SparkMain --master 'local[16]' distance --bfile $p --out $o --tile $tile > $o.log 2>&1 ;;
    spark-gpu) $J "${OPTS[@]}" -Ddpaccel.backend=${GPU:-gpu} -Ddpaccel.threads=16 -cp "$CP" org.dpaccel.spark.SparkMain --master 'local[16]' distance --bfile $p --out $o --tile $tile > $o.log 2>&1 ;;
  esac
  rc=$?
  local w=$(awk "BEGIN { print $(date +%s.%N) - $t0 }")
  local same=ref
  if [ -f $W/o/ref.counts.tsv ]; then cmp -s $W/o/ref.counts.tsv $o.counts.tsv && same=yes || same=NO
  else mv $o.counts.tsv $W/o/ref.counts.tsv; fi
  echo -e "$shape\t$r\t$cfg\t$w\t$rc\t$same\t$(grep -h 'tiles=' $o.log | tail -1)" >> $R
  [ $rc = 0 ] || { echo "== $shape $cfg rc $rc"; grep -v '^\s*at ' $o.log | grep -v INFO | tail -15; }
  rm -rf $o.counts.tsv $o.parts $o.id
}
one 2k $W/d/c 1 cli-cpu 1024
one 2k $W/d/c 1 spark-gpu 1024
awk -F'\t' 'NR>1 && ($5!=0 || $6=="NO") {bad=1} END {exit bad}' $R || { echo "smoke failed"; cat $R; exit 1; }
one 2k $W/d/c 1 cli-gpu 1024
one 2k $W/d/c 1 spark-cpu 1024
for r in 2 3; do for c in spark-cpu cli-gpu spark-gpu cli-cpu; do one 2k $W/d/c $r $c 1024; done; done
rm -f $W/o/ref.counts.tsv
[ $SECONDS -lt $((DEADLINE - 60)) ] || { echo "20k not run: ${SECONDS}s"; cat $R; exit 0; }
t=$(date +%s.%N); $D/dpa_gen_genotypes ${BIG:-20000 100000} 7 $W/d/b >> $OUT/info.txt
echo "gen 20000x100k $(awk "BEGIN { print $(date +%s.%N) - $t }") s at ${SECONDS}s" >> $OUT/info.txt
for c in cli-gpu spark-gpu cli-cpu spark-cpu; do one 20k $W/d/b 1 $c 4096; done
for c in spark-gpu cli-gpu; do one 20k $W/d/b 2 $c 4096; done
echo "done at ${SECONDS}s" >> $OUT/info.txt
for c in spark-gpu spark-cpu cli-gpu; do grep -v "^\s*at " $W/o/$c.log | tail -40 > $OUT/$c.tail; done
cat $OUT/info.txt $R
