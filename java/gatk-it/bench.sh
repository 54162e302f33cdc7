#!/usr/bin/env bash
# HaplotypeCaller timing on the integration test's simulated data: GKL vs dpaccel drop-in vs Java
# (PairHMM and Smith-Waterman),
# each configuration run REPEAT times, interleaved. Needs a previous
#   mvn -B install                                   (scale 1 data), or
#   mvn -B -pl java/gatk-it test -Ddpaccel.gatk.it.scale=10   (scale 10 data)
# which leave target/gatk.classpath and target/gatk-it/data-<seed>[-x<scale>]/.
# Usage: java/gatk-it/bench.sh [data-dir] [repeat]    Output: TSV on stdout, logs in $OUT_DIR.
# CONFIGS="gkl dpaccel ..." picks configurations (default: all below). sw_s is GATK's own
# "Total compute time in native|java Smith-Waterman"; sw_inside_s the drop-in's time inside
# IntelSmithWaterman.align (stats file sw.seconds), sw_calls its align calls.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
DATA="${1:-$HERE/target/gatk-it/data-20240607}"
REPEAT="${2:-3}"
OUT_DIR="${OUT_DIR:-$HERE/target/gatk-bench}"
THREADS="${THREADS:-2}"
CP="$(cat "$HERE/target/gatk.classpath")"
DROPIN="$HERE/../gatk-dropin/target/dpaccel-gatk-dropin.jar"
JAVA="${JAVA:-java}"
mkdir -p "$OUT_DIR/tmp"
printf 'run\trep\timpl\twall_s\tpairhmm_s\tgatk_elapsed_min\tdpaccel_inside_s\tsw_s\tsw_inside_s\tsw_calls\tsw_engine\n'
ALL="gkl:AVX_LOGLESS_CACHING:gatk dpaccel:AVX_LOGLESS_CACHING:dropin \
     gkl-fastest:FASTEST_AVAILABLE:gatk dpaccel-fastest:FASTEST_AVAILABLE:dropin \
     java:LOGLESS_CACHING:gatk gkl-javasw:AVX_LOGLESS_CACHING:gatk:javasw \
     dpaccel-swoff:AVX_LOGLESS_CACHING:dropin:swoff"
for rep in $(seq 1 "$REPEAT"); do
  for cfg in $ALL; do
    IFS=: read -r name impl how extra <<<"$cfg"
    if [ -n "${CONFIGS:-}" ] && [[ " $CONFIGS " != *" $name "* ]]; then continue; fi
    cp_run="$CP"; props=(); args=(); envs=()
    if [ "$how" = dropin ]; then cp_run="$DROPIN:$CP"; props=(-Ddpaccel.gatk.stats="$OUT_DIR/$name.$rep.stats"); fi
    if [ "${extra:-}" = javasw ]; then args=(--smith-waterman JAVA); fi
    if [ "${extra:-}" = swoff ]; then envs=(DPACCEL_GATK_SW_DISABLE=1); fi
    log="$OUT_DIR/$name.$rep.log"
    t0=$(date +%s.%N)
    env "${envs[@]}" "$JAVA" -Xmx3g "${props[@]}" -cp "$cp_run" org.broadinstitute.hellbender.Main HaplotypeCaller \
      -R "$DATA/ref.fa" -I "$DATA/sim1.bam" -O "$OUT_DIR/$name.$rep.vcf" \
      --pair-hmm-implementation "$impl" --native-pair-hmm-threads "$THREADS" --tmp-dir "$OUT_DIR/tmp" \
      "${args[@]}" >"$log" 2>&1
    t1=$(date +%s.%N)
    hmm=$(grep -o 'Total compute time in PairHMM computeLogLikelihoods() : [0-9.Ee+-]*' "$log" | awk '{print $NF}')
    el=$(grep -o 'Elapsed time: [0-9.]* minutes' "$log" | awk '{print $3}')
    sw=$(grep -oE 'Total compute time in (native|java) Smith-Waterman : [0-9.]+' "$log" | awk '{print $NF}')
    st="$OUT_DIR/$name.$rep.stats"
    inside=$(grep -s '^seconds=' "$st" | cut -d= -f2 || true)
    swin=$(grep -s '^sw.seconds=' "$st" | cut -d= -f2 || true)
    swcalls=$(grep -s '^sw.calls=' "$st" | cut -d= -f2 || true)
    sweng=$(grep -s '^sw.engine=' "$st" | cut -d= -f2 || true)
    printf '%s\t%s\t%s\t%.2f\t%.3f\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$rep" "$impl" \
      "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" "$hmm" "$el" "${inside:--}" "${sw:--}" "${swin:--}" \
      "${swcalls:--}" "${sweng:--}"
  done
done
