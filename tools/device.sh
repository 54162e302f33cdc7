#!/usr/bin/env bash
# tools/device.sh — the one script for work on a GPU machine: build, tests, sanitizers,
# benchmarks (C and Java), each result under $OUT. It replaces the per-pass device scripts
# that lived in kernels/tools/ and java/bench/ (their history: docs/lab/).
#
# Run it from the repository root. `tools/device.sh help` lists subcommands and options.
# Several subcommands may be given in one call; they run in the order given:
#   OUT=out tools/device.sh build test sanitize bench-pairhmm bench-sw
set -uo pipefail

usage() {
  cat <<'EOF'
usage: tools/device.sh [options] SUBCOMMAND... [options]

On the GPU machine (repository root; logs and results under $OUT, default ./out):
  build          configure and build the native + CUDA libraries, tests and benchmarks
                 (CUDA code for --arch only; with --base / --variant also those builds)
  test           CUDA gtests and engine GPU tests through ctest (-R --tests), summary
  sanitize       compute-sanitizer (--tools) on a subset of the CUDA PairHMM and SW tests
  bench-pairhmm  dpa_cuda_bench: one HaplotypeCaller region per call (--gatk), the .in
                 files (--data), float-kernel GPU time per synthetic shape with the uniform
                 kernels on and off, phase times; --base / --variant / --env runs beside it
  bench-sw       dpa_cuda_sw_bench: GPU vs CPU in one process (SW_BENCH entries), phase
                 times; --base / --variant / --env runs beside it
  bench-engine   native/bench/engine_bench.c (public C API only, so it builds against --base
                 too): whole engine calls, PairHMM .in files whole and one call per region,
                 Smith-Waterman hap/read batches, per backend (ENGINE_BENCH entries), base and
                 new alternating for 2 rounds, with result checksums
  java           the Java benchmark on the GPU: the README's main job, one region per
                 call (1 and 16 callers, GKL OMP beside it), .in files, phase times
                 (needs .jre and java/cli/target/dpaccel.jar carried, and a build
                 made with --jdkinc)
  scaling        the Java GPU workloads with 1, 2, 4, 8 GPUs visible (GPU_SETS="0;0,1")
  all            build test sanitize bench-pairhmm bench-sw, then java if .jre is there
  info           the machine: GPU, driver, clocks, CPUs
On the development machine (no GPU needed):
  prep           fill .devdata/ for the carry: --base REV (a source tree of REV),
                 --data-from DIR (10s.in, 1m.in), .devdata/jdkinc (this JDK's include/),
                 and .jre (java/bench/make-jre.sh) with --jre; prints the carry list
  help           this text

Options:
  --arch LIST      CUDA architectures (default 90; "all": the CMake default list)
  --build DIR      build folder of this tree (default build/device)
  --base DIR       a second source tree (CMakeLists.txt cmake native kernels), built in
                   DIR-build beside this one; every bench runs it too, interleaved
                   (prep --base REV makes .devdata/base from a commit)
  --variant FLAGS  extra CMAKE_CUDA_FLAGS for a third build of this tree (benches only)
  --env 'V=x ..'   one more bench run of this tree with these environment settings
                   (repeatable; e.g. --env DPACCEL_CUDA_UNIFORM=0 --env DPACCEL_SW_TWIN=0)
  --data DIR       folder holding 10s.in and 1m.in (default .devdata)
  --jdkinc DIR     a JDK's include/ folder, for the JNI library (default .devdata/jdkinc
                   when present; needed by `java`)
  --tests REGEX    ctest -R for `test` (default 'cuda|engine_gpu')
  --tools LIST     sanitizer tools for `sanitize` (default memcheck,racecheck,synccheck)
  --shapes LIST    synthetic PairHMM shapes "L N PAIRS;..." (default
                   "128 128 100000;256 256 60000;512 512 40000;1024 1024 12000")
  --regions N      regions for --gatk and the Java one-region-per-call runs (default 400)
  --ncu            add Nsight Compute counters of the kernels to the benches
  --gph PATH       also run gpuPairHMM's peak benchmark binary at PATH (not part of this
                   repository: its figures are not reproducible from a committed command)
  --cpu            no CUDA (DPA_WITH_CUDA=OFF): check `build` and `test` on a CPU machine
  -j N             build jobs (default: number of CPUs)
Environment: OUT (results folder), ENGINE_BENCH (engine_bench argument lists separated by
';', DATA standing for --data), SW_BENCH ("hap 100000 7 1;read 1000000 3 1": entries
of dpa_cuda_sw_bench arguments, each optionally led by VAR=value words), GPU_SETS
(CUDA_VISIBLE_DEVICES values for `scaling`, separated by ';').
EOF
}

# ---------------------------------------------------------------------------- options
OUT=${OUT:-out}
ARCH=90
B=build/device
BASE=
VARIANT=
DATA=.devdata
JDKINC=
TESTS=
TOOLS=memcheck,racecheck,synccheck
SHAPES="128 128 100000;256 256 60000;512 512 40000;1024 1024 12000"
NREG=400
NCU=0
GPH=
CPU=0
JOBS=$(nproc 2>/dev/null || echo 4)
PREP_BASE=
PREP_DATA=
PREP_JRE=0
ENVS=()
CMDS=()

need_arg() { [ $# -ge 2 ] && [ -n "$2" ] || { echo "device.sh: $1 needs a value" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case $1 in
    --arch) need_arg "$@"; ARCH=$2; shift ;;
    --build) need_arg "$@"; B=$2; shift ;;
    --base) need_arg "$@"; BASE=$2; PREP_BASE=$2; shift ;;
    --variant) need_arg "$@"; VARIANT=$2; shift ;;
    --env) need_arg "$@"; ENVS+=("$2"); shift ;;
    --data) need_arg "$@"; DATA=$2; shift ;;
    --data-from) need_arg "$@"; PREP_DATA=$2; shift ;;
    --jdkinc) need_arg "$@"; JDKINC=$2; shift ;;
    --tests) need_arg "$@"; TESTS=$2; shift ;;
    --tools) need_arg "$@"; TOOLS=$2; shift ;;
    --shapes) need_arg "$@"; SHAPES=$2; shift ;;
    --regions) need_arg "$@"; NREG=$2; shift ;;
    --ncu) NCU=1 ;;
    --gph) need_arg "$@"; GPH=$2; shift ;;
    --cpu) CPU=1 ;;
    --jre) PREP_JRE=1 ;;
    -j) need_arg "$@"; JOBS=$2; shift ;;
    -j[0-9]*) JOBS=${1#-j} ;;
    -h|--help|help) CMDS+=(help) ;;
    -*) echo "device.sh: unknown option $1 (tools/device.sh help)" >&2; exit 2 ;;
    *) CMDS+=("$1") ;;
  esac
  shift
done
[ ${#CMDS[@]} -gt 0 ] || CMDS=(help)
[ -n "$JDKINC" ] || { [ -d .devdata/jdkinc ] && JDKINC=.devdata/jdkinc; }
SW_BENCH=${SW_BENCH:-"hap 100000 7 1;read 1000000 3 1"}
ENGINE_BENCH=${ENGINE_BENCH:-"pairhmm DATA/1m.in gpu 9;pairhmm DATA/10s.in gpu 9;sw hap 100000 gpu 7;sw read 1000000 gpu 3;pairhmm DATA/1m.in cpu 5;pairhmm DATA/1m.in hybrid 5;sw hap 100000 cpu 3;sw hap 100000 hybrid 3;sw read 1000000 cpu 2"}
BB=$B-base          # build folder of --base
BV=$B-variant       # build folder of --variant
JAR=java/cli/target/dpaccel.jar
JAVA=${DEVICE_JAVA:-.jre/bin/java}   # DEVICE_JAVA: another java (checks off the device)

# ---------------------------------------------------------------------------- helpers
say() { printf '=== %s\n' "$*"; }
mkout() { mkdir -p "$OUT"; }
# builds present, in bench order: base first (so base and new alternate), then new, variant
builds() {
  [ -n "$BASE" ] && [ -x "$BB/kernels/dpa_cuda_bench" ] && echo "base:$BB"
  echo "new:$B"
  [ -n "$VARIANT" ] && [ -x "$BV/kernels/dpa_cuda_bench" ] && echo "variant:$BV"
}
# run "VAR=x VAR2=y" settings before a command: envrun 'A=1 B=2' cmd args...
envrun() { local e=$1; shift; local -a kv=(); [ -n "$e" ] && read -ra kv <<< "$e"; env "${kv[@]}" "$@"; }
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
have_gpu() { [ "$CPU" = 0 ] && command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }

cmake_cfg() { # source build tests(ON/OFF) [extra cmake args...]
  local src=$1 dir=$2 tests=$3; shift 3
  local -a a=(-DCMAKE_BUILD_TYPE=Release -DDPA_BUILD_TESTS="$tests" -DDPA_OUTPUT_DIR="$(abs "$dir")/lib")
  if [ "$CPU" = 1 ]; then
    a+=(-DDPA_WITH_CUDA=OFF)
  else
    a+=(-DDPA_WITH_CUDA=ON)
    [ "$ARCH" = all ] || a+=(-DDPA_CUDA_ARCHITECTURES="$ARCH")
  fi
  [ -n "$JDKINC" ] && a+=(-DDPA_JNI_INCLUDE="$(abs "$JDKINC")")
  cmake -S "$src" -B "$dir" "${a[@]}" "$@" >"$dir.cmake.log" 2>&1 ||
    { echo "cmake configure of $src failed: $dir.cmake.log"; tail -20 "$dir.cmake.log"; return 1; }
}
cmake_build() { # dir jobs log
  cmake --build "$1" -j "$2" >"$3" 2>&1; local rc=$?
  grep -E " error|error:|warning: " "$3" | grep -v string_fortified | head -20
  echo "build $1: rc $rc"; return $rc
}

# ---------------------------------------------------------------------------- subcommands
cmd_info() {
  say "machine"
  date -u
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv,noheader
  else
    echo "no nvidia-smi"
  fi
  command -v nvcc >/dev/null && nvcc --version | tail -1
  echo "cpus $(nproc): $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)$(grep -q avx512bw /proc/cpuinfo && echo ' (avx512bw)')"
  # the device's copy of .git may lag the working tree it received: informative only
  git log -1 --format='git HEAD %h %s (may lag the working tree)' 2>/dev/null || true
}

cmd_build() {
  mkout; say "build (arch ${ARCH}, cpu-only ${CPU}, jni ${JDKINC:-none})"
  local t0=$SECONDS pids=() rc=0
  mkdir -p "$(dirname "$B")"
  if [ -n "$BASE" ]; then
    [ -f "$BASE/CMakeLists.txt" ] || { echo "--base $BASE: no CMakeLists.txt there"; return 1; }
    (cmake_cfg "$BASE" "$BB" OFF && cmake_build "$BB" $(( (JOBS + 1) / 2 )) "$OUT/build_base.txt") &
    pids+=($!)
  fi
  if [ -n "$VARIANT" ]; then
    (cmake_cfg . "$BV" OFF "-DCMAKE_CUDA_FLAGS=$VARIANT" &&
       cmake_build "$BV" $(( (JOBS + 1) / 2 )) "$OUT/build_variant.txt") &
    pids+=($!)
  fi
  cmake_cfg . "$B" ON && cmake_build "$B" "$JOBS" "$OUT/build.txt" || rc=1
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  local l; for l in "$B"/lib/*.so; do [ -e "$l" ] && echo "lib: $l"; done
  [ -e "$B/lib/libdpaccel.so" ] || echo "no JNI library (no --jdkinc, no .devdata/jdkinc): the java subcommand needs it"
  echo "build s: $(( SECONDS - t0 ))"
  return $rc
}

cmd_test() {
  mkout
  local re=${TESTS:-'cuda|engine_gpu'}
  [ "$CPU" = 1 ] && [ -z "$TESTS" ] && re=native
  say "ctest -R '$re'"
  timeout 600 ctest --test-dir "$B" -R "$re" --output-on-failure >"$OUT/ctest.txt" 2>&1; local rc=$?
  grep -E "Test +#|tests passed|Failure|Expected|Which is|differs|SKIPPED|NO USABLE GPU" "$OUT/ctest.txt" | head -60
  echo "ctest rc $rc (full log: $OUT/ctest.txt)"
  return $rc
}

cmd_sanitize() {
  mkout; have_gpu || { echo "sanitize: no usable GPU, skipped"; return 0; }
  local T=$B/kernels/tests tool
  local phmm='*Gatk*:*DoublePass*:*HostTeam*:*Split*:*Uniform*:*Direct*'
  local sw='CudaSw.EdgeCases:CudaSw.DanglingEndsAllStrategies:CudaSwChunks.*:CudaSwGrid.*:CudaSw.InjectedFaults'
  IFS=',' read -ra tl <<< "$TOOLS"
  for tool in "${tl[@]}"; do
    say "compute-sanitizer --tool $tool"
    timeout 240 compute-sanitizer --tool "$tool" --error-exitcode 9 "$T/test_cuda_pairhmm" \
      --gtest_filter="$phmm" >"$OUT/san_pairhmm_$tool.txt" 2>&1
    echo "pairhmm $tool rc $?"; tail -2 "$OUT/san_pairhmm_$tool.txt"
    timeout 240 compute-sanitizer --tool "$tool" --error-exitcode 9 "$T/test_cuda_sw" \
      --gtest_filter="$sw" >"$OUT/san_sw_$tool.txt" 2>&1
    echo "sw $tool rc $?"; tail -2 "$OUT/san_sw_$tool.txt"
  done
  say "compute-sanitizer --tool memcheck test_cuda_faults"
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$T/test_cuda_faults" \
    >"$OUT/san_faults_memcheck.txt" 2>&1
  echo "faults memcheck rc $?"; tail -2 "$OUT/san_faults_memcheck.txt"
  grep -l "ERROR SUMMARY: [1-9]\|RACECHECK SUMMARY: [1-9]" "$OUT"/san_*.txt 2>/dev/null | sed 's/^/FINDINGS: /'
  return 0
}

# one line per kernel: name | ns | thread instr | warp instr | issue % | warps % | registers
ncu_line() { # label kernel-regex command...
  local label=$1 kre=$2; shift 2
  local m=gpu__time_duration.sum,smsp__thread_inst_executed.sum,smsp__inst_executed.sum
  m=$m,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
  m=$m,launch__registers_per_thread
  timeout 180 ncu --metrics "$m" --csv -k "regex:$kre" "$@" 2>/dev/null |
    awk -F'","' -v b="$label" -v kre="$kre" '$0 ~ kre {k=$5; sub(/\(.*/, "", k); gsub(/"/, "", $NF); v[k, $(NF-2)]=$NF; ks[k]=1}
      END {for (k in ks) printf "%-32s %-24s %s | %s | %s | %s | %s | %s\n", b, k, v[k,"gpu__time_duration.sum"],
           v[k,"smsp__thread_inst_executed.sum"], v[k,"smsp__inst_executed.sum"],
           v[k,"smsp__issue_active.avg.pct_of_peak_sustained_active"],
           v[k,"sm__warps_active.avg.pct_of_peak_sustained_active"], v[k,"launch__registers_per_thread"]}'
}

cmd_bench_pairhmm() {
  mkout; have_gpu || { echo "bench-pairhmm: no usable GPU, skipped"; return 0; }
  local t0=$SECONDS bl b dir e s f
  mapfile -t bl < <(builds)
  say "one HaplotypeCaller region per call: dpa_cuda_bench --gatk $NREG 1 8 16 (two rounds, builds interleaved)"
  for round in 1 2; do
    for b in "${bl[@]}"; do
      dir=${b#*:}; echo "--- ${b%%:*} round $round"
      timeout 120 "$dir/kernels/dpa_cuda_bench" --gatk "$NREG" 1 8 16 2>&1 | tail -4
    done
    for e in "${ENVS[@]}"; do
      echo "--- new [$e] round $round"
      envrun "$e" timeout 120 "$B/kernels/dpa_cuda_bench" --gatk "$NREG" 1 8 16 2>&1 | tail -4
    done
  done
  if [ -f "$DATA/1m.in" ]; then
    say ".in files, 30 calls each (median, min)"
    for f in 10s 1m; do
      for b in "${bl[@]}"; do
        echo "--- ${b%%:*} $f.in"; timeout 120 "${b#*:}/kernels/dpa_cuda_bench" "$DATA/$f.in" 30 2>&1 | tail -2
      done
      for e in "${ENVS[@]}"; do
        echo "--- new [$e] $f.in"; envrun "$e" timeout 120 "$B/kernels/dpa_cuda_bench" "$DATA/$f.in" 30 2>&1 | tail -2
      done
    done
    say "phase times, 1m.in (DPACCEL_CUDA_TIMING=1, 3 calls)"
    for b in "${bl[@]}"; do
      echo "--- ${b%%:*}"; DPACCEL_CUDA_TIMING=1 BENCH_CHECK=0 timeout 60 "${b#*:}/kernels/dpa_cuda_bench" "$DATA/1m.in" 3 2>&1 | tail -4
    done
  else
    echo "(no $DATA/1m.in: .in benches skipped; tools/device.sh prep --data-from DIR)"
  fi
  say "float kernel at normal clocks: GPU ms of the float launches (CUDA events, 3 reps), wall median"
  IFS=';' read -ra sh <<< "$SHAPES"
  for s in "${sh[@]}"; do
    for b in "${bl[@]}"; do
      for u in 1 0; do
        [ "$u" = 0 ] && [ "${b%%:*}" != new ] && continue
        echo "--- ${b%%:*} UNIFORM=$u $s"
        # shellcheck disable=SC2086  # $s is "L N PAIRS"
        BENCH_SIMILAR_HAPS=1 DPACCEL_CUDA_UNIFORM=$u DPACCEL_CUDA_TIMING=1 BENCH_CHECK=200 \
          timeout 120 "${b#*:}/kernels/dpa_cuda_bench" --shape $s 3 2>&1 |
          grep -o "cfgs [0-9,]*\|gpu ms: .*\|median .*\|max.*dev.*" | tail -4
      done
    done
  done
  if [ "$NCU" = 1 ]; then
    say "ncu float kernels (build shape | kernel | ns | thread instr | warp instr | issue % | warps % | regs)"
    for s in "${sh[@]}"; do
      for b in "${bl[@]}"; do
        # shellcheck disable=SC2086
        BENCH_SIMILAR_HAPS=1 ncu_line "${b%%:*} $s" phmm_f32 "${b#*:}/kernels/dpa_cuda_bench" --shape $s 0
      done
    done
  fi
  if [ -n "$GPH" ] && [ -x "$GPH" ]; then
    say "gpuPairHMM peak benchmark ($GPH; external, not in this repository)"
    timeout 120 "$GPH" 2>&1 | tail -12
  fi
  echo "bench-pairhmm s: $(( SECONDS - t0 ))"
}

cmd_bench_sw() {
  mkout; have_gpu || { echo "bench-sw: no usable GPU, skipped"; return 0; }
  local t0=$SECONDS bl b r e
  mapfile -t bl < <(builds)
  say "dpa_cuda_sw_bench (GPU and CPU in one process; every CIGAR compared)"
  IFS=';' read -ra runs <<< "$SW_BENCH"
  for r in "${runs[@]}"; do
    local -a words=() envs=()
    read -ra words <<< "$r"
    while [ ${#words[@]} -gt 0 ] && [[ ${words[0]} == *=* ]]; do envs+=("${words[0]}"); words=("${words[@]:1}"); done
    for b in "${bl[@]}"; do
      echo "--- ${b%%:*}: $r"
      env "${envs[@]}" timeout 300 "${b#*:}/kernels/dpa_cuda_sw_bench" "${words[@]}" 2>&1 | tail -8
    done
    for e in "${ENVS[@]}"; do
      echo "--- new [$e]: $r"
      envrun "$e ${envs[*]}" timeout 300 "$B/kernels/dpa_cuda_sw_bench" "${words[@]}" 2>&1 | tail -8
    done
  done
  say "phases (one line per ops->sw call, then the engine's; hap 100000 and read 1000000, one call each)"
  for r in "hap 100000" "read 1000000"; do
    # shellcheck disable=SC2086
    DPACCEL_CUDA_TIMING=1 DPACCEL_TIMING=1 DPACCEL_SW_TIMING=1 timeout 120 "$B/kernels/dpa_cuda_sw_bench" $r 1 0 \
      >"$OUT/sw_phases_${r%% *}.txt" 2>&1
    grep -E "^dpa_cuda sw:" "$OUT/sw_phases_${r%% *}.txt" | tail -6
    grep -vE "^dpa_cuda sw:" "$OUT/sw_phases_${r%% *}.txt" | grep -iE "timing|phase|^(gpu|backend)" | tail -8
  done
  if [ "$NCU" = 1 ]; then
    say "ncu sw_kernel (one launch of hap 20000, backend alone)"
    for b in "${bl[@]}"; do
      ncu_line "${b%%:*} hap 20000" sw_kernel --launch-skip 3 --launch-count 1 \
        "${b#*:}/kernels/dpa_cuda_sw_bench" hap 20000 1 0
    done
  fi
  echo "bench-sw s: $(( SECONDS - t0 ))"
}

# one `dpaccel bench` run: label lib-dir "ENV=x ..." bench-args...
jb() {
  local label=$1 lib=$2 e=$3; shift 3
  local -a chk=(--check-cells 20000000 --no-sweeps --progress off)
  echo "--- java $label${e:+ [$e]}: $*"
  envrun "$e" timeout 300 "$JAVA" -Ddpaccel.native.path="$(abs "$lib")" -jar "$JAR" bench "${chk[@]}" \
    --out "$OUT/java-$label" "$@" >"$OUT/java-$label.txt" 2>&1
  grep -E "^(cuda|gkl|avx|hybrid|scalar)|FAIL|Exception|skip" "$OUT/java-$label.txt" | head -8
}
java_ready() {
  [ -x "$JAVA" ] || { echo "$1: no $JAVA (tools/device.sh prep --jre on the dev machine, carry .jre)"; return 1; }
  [ -f "$JAR" ] || { echo "$1: no $JAR (mvn -q -B install -DskipTests, carry it)"; return 1; }
  [ -f "$B/lib/libdpaccel.so" ] || { echo "$1: no $B/lib/libdpaccel.so (build with --jdkinc)"; return 1; }
}

cmd_bench_engine() {
  mkout; say "engine_bench: whole engine calls through dpaccel.h, base and new alternating"
  local t0=$SECONDS b label dir src round e
  local -a bl=()
  [ -n "$BASE" ] && bl+=("base:$BB:$BASE")
  bl+=("new:$B:.")
  for b in "${bl[@]}"; do
    IFS=: read -r label dir src <<< "$b"
    cmake --build "$dir" -j "$JOBS" --target dpaccel_core dpaccel_io >/dev/null 2>&1
    gcc -O2 -std=c11 -I"$src/native/include" -I"$src/native/src" native/bench/engine_bench.c \
      "$dir/native/libdpaccel_io.a" "$dir/native/libdpaccel_core.a" -lpthread -lm -ldl \
      -o "$dir/engine_bench" || { echo "engine_bench for $label did not build"; return 1; }
  done
  IFS=';' read -ra el <<< "$ENGINE_BENCH"
  for round in 1 2; do
    for e in "${el[@]}"; do
      for b in "${bl[@]}"; do
        IFS=: read -r label dir src <<< "$b"
        echo "--- round $round $label: ${e//DATA/$DATA}"
        # shellcheck disable=SC2086
        DPACCEL_CUDA_LIB=$(abs "$dir")/lib/libdpaccel_cuda.so timeout 300 "$dir/engine_bench" ${e//DATA/$DATA} |
          grep -v "^dpaccel [0-9]"
      done
    done
  done
  echo "bench-engine s: $(( SECONDS - t0 ))"
}

cmd_scaling() {
  # the same Java workloads with 1, 2, 4, 8 GPUs visible (as many as the machine has)
  mkout; java_ready scaling || return 1
  local n sets s t0=$SECONDS
  n=$(nvidia-smi -L 2>/dev/null | wc -l)
  sets=${GPU_SETS:-}
  if [ -z "$sets" ]; then
    sets=0
    [ "$n" -ge 2 ] && sets="$sets;0,1"
    [ "$n" -ge 4 ] && sets="$sets;0,1,2,3"
    [ "$n" -ge 8 ] && sets="$sets;0,1,2,3,4,5,6,7"
  fi
  say "multi-GPU scaling over CUDA_VISIBLE_DEVICES sets: $sets"
  IFS=';' read -ra sl <<< "$sets"
  for s in "${sl[@]}"; do
    local e="CUDA_VISIBLE_DEVICES=$s" l="gpus${s//,/}"
    [ -f "$DATA/1m.in" ] && jb "$l-1m" "$B/lib" "$e" --dataset "file:$DATA/1m.in" --batch 100000 --reps 10 --backends cuda
    jb "$l-batch800" "$B/lib" "$e" --dataset gatk --regions 800 --batch 800 --reps 3 --backends cuda
    jb "$l-c16" "$B/lib" "$e" --dataset gatk --regions 800 --mode gatk --callers 16 --reps 3 --backends cuda
    jb "$l-c32" "$B/lib" "$e" --dataset gatk --regions 800 --mode gatk --callers 32 --reps 3 --backends cuda
    jb "$l-c64" "$B/lib" "$e" --dataset gatk --regions 1600 --mode gatk --callers 64 --reps 3 --backends cuda
  done
  echo "scaling s: $(( SECONDS - t0 ))"
}

cmd_java() {
  mkout; java_ready java || return 1
  local t0=$SECONDS
  local -a bl=("new:$B") g=(--dataset gatk --mode gatk --threads 16)
  [ -n "$BASE" ] && [ -f "$BB/lib/libdpaccel.so" ] && bl=("base:$BB" "new:$B")
  say "README main job (dpaccel bench, default dataset), CUDA library present"
  timeout 300 "$JAVA" -Ddpaccel.native.path="$(abs "$B")/lib" -jar "$JAR" bench --progress off --out "$OUT/java-main" \
    >"$OUT/java-main.txt" 2>&1; echo "main job rc $?"; tail -25 "$OUT/java-main.txt"
  say "one region per call (DpaPairHmm): 1 caller with GKL OMP 16 threads beside it, then builds interleaved"
  jb new-c1gkl "$B/lib" "" "${g[@]}" --regions "$NREG" --reps 5 --backends cuda,gkl-omp --baseline gkl-omp
  local b e i=0
  for b in "${bl[@]}"; do jb "${b%%:*}-c1" "${b#*:}/lib" "" "${g[@]}" --regions "$NREG" --reps 5 --backends cuda; done
  for e in "${ENVS[@]}"; do i=$((i+1)); echo "(env$i = $e)"; jb "new-c1-env$i" "$B/lib" "$e" "${g[@]}" --regions "$NREG" --reps 5 --backends cuda; done
  for b in "${bl[@]}"; do jb "${b%%:*}-c16" "${b#*:}/lib" "" "${g[@]}" --regions 3200 --reps 5 --callers 16 --backends cuda; done
  if [ -f "$DATA/1m.in" ]; then
    for f in 10s 1m; do
      for b in "${bl[@]}"; do jb "${b%%:*}-$f" "${b#*:}/lib" "" --dataset "file:$DATA/$f.in" --batch 100000 --reps 10 --backends cuda; done
    done
  fi
  say "phase times of every region, 1 caller (DPACCEL_CUDA_TIMING=1): medians of the timed pass"
  jb new-timing "$B/lib" DPACCEL_CUDA_TIMING=1 "${g[@]}" --regions "$NREG" --reps 1 --warmup 1 --backends cuda
  local tf="$OUT/java-new-timing.txt" k
  grep "dpaccel cuda timing: call" "$tf" | tail -n "$NREG" | awk '{print $5}' | sort -g |
    awk '{a[NR]=$1} END {if (NR) print "backend call ms over " NR " regions: p50 " a[int(NR/2)+1] " p90 " a[int(NR*0.9)+1]}'
  for k in pack keys radix desc warps submit wait scatter; do
    grep "dpaccel cuda timing: pairs" "$tf" | tail -n "$NREG" | grep " $k " | sed -E "s/.* $k ([0-9.]+).*/\1/" | sort -g |
      awk -v k="$k" '{a[NR]=$1} END {if (NR) printf "%s ms p50 %s\n", k, a[int(NR/2)+1]}'
  done
  for k in h2d float double d2h; do
    grep "dpaccel cuda timing: pairs" "$tf" | tail -n "$NREG" | grep "gpu ms:.* $k " | sed -E "s/.*gpu ms:.* $k ([0-9.]+).*/\1/" | sort -g |
      awk -v k="$k" '{a[NR]=$1} END {if (NR) printf "gpu %s ms p50 %s\n", k, a[int(NR/2)+1]}'
  done
  echo "java s: $(( SECONDS - t0 ))"
}

cmd_prep() {
  # Runs on the development machine: everything the device needs that git does not carry.
  mkdir -p .devdata
  if [ -n "$PREP_BASE" ]; then
    local rev=$PREP_BASE dst=.devdata/base
    git rev-parse --verify -q "$rev^{commit}" >/dev/null || { echo "prep: --base $rev is not a commit"; return 1; }
    rm -rf "$dst"; mkdir -p "$dst"
    git archive "$rev" CMakeLists.txt cmake native kernels | tar -x -C "$dst" || return 1
    git log -1 --format='%H %s' "$rev" >"$dst/REV"
    echo "base tree: $dst ($(cat "$dst/REV")); on the device: --base $dst"
  fi
  if [ -n "$PREP_DATA" ]; then
    cp "$PREP_DATA/10s.in" "$PREP_DATA/1m.in" .devdata/ && echo "data: .devdata/{10s,1m}.in"
  fi
  local jh=${JAVA_HOME:-}
  [ -n "$jh" ] || { command -v javac >/dev/null && jh=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")"); }
  if [ -n "$jh" ] && [ -f "$jh/include/jni.h" ]; then
    rm -rf .devdata/jdkinc; cp -r "$jh/include" .devdata/jdkinc && echo "JNI headers: .devdata/jdkinc (from $jh)"
  else
    echo "prep: no JDK with include/jni.h found (set JAVA_HOME): the device build gets no JNI library"
  fi
  if [ "$PREP_JRE" = 1 ]; then bash java/bench/make-jre.sh || return 1; fi
  echo "carry: .devdata$( [ -d .jre ] && echo ', .jre')$( [ -f "$JAR" ] && echo ", $JAR")"
  du -sh .devdata .jre "$JAR" 2>/dev/null
}

run_one() {
  case $1 in
    help) usage ;;
    info) cmd_info ;;
    prep) cmd_prep ;;
    build) cmd_build ;;
    test) cmd_test ;;
    sanitize) cmd_sanitize ;;
    bench-pairhmm) cmd_bench_pairhmm ;;
    bench-sw) cmd_bench_sw ;;
    bench-engine) cmd_bench_engine ;;
    java) cmd_java ;;
    scaling) cmd_scaling ;;
    all)
      cmd_build || return 1
      cmd_test; cmd_sanitize; cmd_bench_pairhmm; cmd_bench_sw
      if [ -x "$JAVA" ]; then cmd_java; else echo "java: skipped (no $JAVA)"; fi ;;
    *) echo "device.sh: unknown subcommand '$1' (tools/device.sh help)" >&2; return 2 ;;
  esac
}

rc=0
for c in "${CMDS[@]}"; do
  case $c in
    help|prep) run_one "$c" || rc=1 ;;
    *) mkout
       { [ "$c" = info ] || cmd_info; run_one "$c"; } 2>&1 | tee "$OUT/$c.log"
       [ "${PIPESTATUS[0]}" = 0 ] || rc=1 ;;
  esac
done
exit $rc
