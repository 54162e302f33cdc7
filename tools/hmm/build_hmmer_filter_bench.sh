#!/bin/sh
# Builds HMMER 3.4 (as vendored by the pyhmmer sdist: HMMER 3.4 + Easel 0.49, unmodified
# sources) the way its release configure does on x86-64 (-O3, the SSE implementation, no
# SSE4/AVX), into OUT_DIR outside the repo, and links our harness
# tools/hmm/hmmer_filter_bench.c against it. No HMMER code is kept in this repository.
# Needs: python3 + pip (to download the sdist), gcc, ar.
# Usage: tools/hmm/build_hmmer_filter_bench.sh OUT_DIR    -> OUT_DIR/hmmer_filter_bench
# Then:  OUT_DIR/hmmer_filter_bench MODELS.hmm TARGETS.fa [repeats]
# HMMER_CFLAGS overrides the compiler flags (default "-O3", HMMER's configure default).
set -eu
out=$(realpath -m "$1")
here=$(cd "$(dirname "$0")/../.." && pwd)
ver=0.12.3                      # pyhmmer release that vendors HMMER 3.4 / Easel 0.49
cflags=${HMMER_CFLAGS:--O3}
jobs=${JOBS:-2}
py=${PYTHON:-python3}
mkdir -p "$out/src" "$out/cfg" "$out/obj"
[ -f "$out/src/pyhmmer-$ver.tar.gz" ] || $py -m pip download --no-binary :all: --no-deps -d "$out/src" "pyhmmer==$ver"
[ -d "$out/src/pyhmmer-$ver" ] || tar -xzf "$out/src/pyhmmer-$ver.tar.gz" -C "$out/src"
s="$out/src/pyhmmer-$ver"
# configure-time headers, as ./configure writes them for an x86-64 SSE build
sed -e 's/#cmakedefine \(HMMER_[A-Z]*\) .*/#define \1 "3.4"/' -e 's/#cmakedefine eslENABLE_SSE$/#define eslENABLE_SSE 1/' \
    -e 's/^#cmakedefine.*//' "$s/src/hmmer/p7_config.h.cmake" > "$out/cfg/p7_config.h"
sed -e 's/#cmakedefine \(EASEL_[A-Z]*\) .*/#define \1 "0.49"/' -e 's/#cmakedefine eslENABLE_SSE$/#define eslENABLE_SSE 1/' \
    -e 's/#cmakedefine eslDEBUGLEVEL.*/#define eslDEBUGLEVEL 0/' \
    -e 's/#cmakedefine \(HAVE_[A-Z_]*\) .*/#define \1 1/' \
    -e 's/#cmakedefine HAVE_FUNC_ATTRIBUTE_\([A-Z]*\).*/#define HAVE_FUNC_ATTRIBUTE_\1 1/' -e 's/^#cmakedefine.*//' \
    -e 's/#define HAVE_SYS_SYSCTL_H 1//' -e 's/#define HAVE_SYSCTL 1//' \
    "$s/src/easel/esl_config.h.cmake" > "$out/cfg/esl_config.h"
# the source lists of pyhmmer's CMake build (library files only, no programs)
list() { sed -n "/^set($1\$/,/^)/p" "$2" | sed -e '1d;$d' -e 's/#.*//' | tr -s ' \t' '\n' | grep '\.c$'; }
{
  list EASEL_SOURCES "$s/src/easel/CMakeLists.txt" | sed "s|^|$s/vendor/easel/|"
  { list HMMER_SOURCES "$s/src/hmmer/CMakeLists.txt"
    sed -n '/HMMER_IMPL STREQUAL "SSE"/,/^elseif/p' "$s/src/hmmer/CMakeLists.txt" | grep -o 'impl_sse/[a-z0-9_]*\.c'
  } | sed "s|^|$s/vendor/hmmer/src/|"
} | sort -u > "$out/sources.txt"
inc="-I$out/cfg -I$s/vendor/easel -I$s/vendor/hmmer/src -I$s/vendor/hmmer/src/impl_sse"
# shellcheck disable=SC2086
xargs -P "$jobs" -I{} sh -c 'o="$0/obj/$(echo "$1" | md5sum | cut -c1-8)_$(basename "$1" .c).o"; [ "$o" -nt "$1" ] || gcc $2 -std=gnu99 -w -pthread $3 -c "$1" -o "$o"' \
    "$out" {} "$cflags" "$inc" < "$out/sources.txt"
rm -f "$out/libhmmer34.a" && ar rcs "$out/libhmmer34.a" "$out"/obj/*.o
# the harness itself: our code, built with the same flags
gcc $cflags -std=gnu99 -pthread $inc -o "$out/hmmer_filter_bench" "$here/tools/hmm/hmmer_filter_bench.c" \
    "$out/libhmmer34.a" -lm
echo "$out/hmmer_filter_bench"
