#!/bin/sh
# Builds the hmm-filter oracle (native/tests/oracles/hmm_oracle.c) against HMMER 3.4 as the
# pyhmmer wheel ships it, in OUT_DIR (outside the repo). Needs: python3 with pyhmmer
# installed (pip install pyhmmer), pip (for the sdist's headers), gcc.
# Usage: tools/hmm/build_hmm_oracle.sh OUT_DIR   -> OUT_DIR/hmm_oracle
# Then: export DPACCEL_HMM_ORACLE=OUT_DIR/hmm_oracle
set -eu
out=$(realpath -m "$1")
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out/src"
py=${PYTHON:-python3}
ver=$($py -c 'import pyhmmer; print(pyhmmer.__version__)')
libs=$($py -c 'import pyhmmer, os; print(os.path.join(os.path.dirname(os.path.dirname(pyhmmer.__file__)), "pyhmmer.libs"))')
[ -f "$out/src/pyhmmer-$ver.tar.gz" ] || $py -m pip download --no-binary :all: --no-deps -d "$out/src" "pyhmmer==$ver"
tar -xzf "$out/src/pyhmmer-$ver.tar.gz" -C "$out/src"
s="$out/src/pyhmmer-$ver"
mkdir -p "$out/cfg"
# configure-time headers: SSE build, nothing else that changes a struct the harness touches
sed -e 's/#cmakedefine \(HMMER_[A-Z]*\) .*/#define \1 "oracle"/' -e 's/#cmakedefine eslENABLE_SSE$/#define eslENABLE_SSE 1/' \
    -e 's/#cmakedefine HMMER_THREADS/#define HMMER_THREADS 1/' -e 's/^#cmakedefine.*//' \
    "$s/src/hmmer/p7_config.h.cmake" > "$out/cfg/p7_config.h"
sed -e 's/#cmakedefine \(EASEL_[A-Z]*\) .*/#define \1 "oracle"/' -e 's/#cmakedefine eslENABLE_SSE$/#define eslENABLE_SSE 1/' \
    -e 's/#cmakedefine eslDEBUGLEVEL.*/#define eslDEBUGLEVEL 0/' \
    -e 's/#cmakedefine \(HAVE_[A-Z_]*\) .*/#define \1 1/' -e 's/#cmakedefine HAVE_PTHREAD/#define HAVE_PTHREAD 1/' \
    -e 's/#cmakedefine HAVE_FUNC_ATTRIBUTE_\([A-Z]*\).*/#define HAVE_FUNC_ATTRIBUTE_\1 1/' -e 's/^#cmakedefine.*//' \
    -e 's/#define HAVE_SYS_SYSCTL_H 1//' -e 's/#define HAVE_SYSCTL 1//' \
    "$s/src/easel/esl_config.h.cmake" > "$out/cfg/esl_config.h"
gcc -O1 -msse2 -o "$out/hmm_oracle" "$here/native/tests/oracles/hmm_oracle.c" -I"$out/cfg" \
    -I"$s/vendor/easel" -I"$s/vendor/hmmer/src" -L"$libs" -llibhmmer -llibeasel -Wl,-rpath,"$libs" -lm
echo "$out/hmm_oracle"
