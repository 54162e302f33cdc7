#!/usr/bin/env bash
# install-nvcc.sh — puts NVIDIA's CUDA compiler (nvcc) and the CUDA runtime headers and
# static library into a cached folder, from NVIDIA's PyPI wheels, so that the CUDA backend
# (kernels/) compiles on a machine with no CUDA toolkit and no GPU (CI, developers' boxes).
#
# Usage:   NVCC=$(bash .ci/install-nvcc.sh) && cmake -S . -B build -DCMAKE_CUDA_COMPILER="$NVCC" ...
#
# stdout:  exactly one line, the absolute path of nvcc (e.g.
#          /root/.cache/dpaccel-cuda/13.0.88/nvidia/cu13/bin/nvcc); nothing else.
# stderr:  progress messages, each starting with "install-nvcc:".
# exit:    0 on success; non-zero (with a message on stderr) when pip or the check fails.
#
# Environment:
#   DPACCEL_CUDA_CACHE  cache root (default ~/.cache/dpaccel-cuda); one sub-folder per version
#   PYTHON              python interpreter with pip (default python3)
#
# Idempotent: a second call finds the cached compiler, checks it still runs, and prints its
# path without touching the network. The wheels are pinned to CUDA 13.0 (the version the
# GPU machines run), and the set is the minimum nvcc needs: nvcc (driver, ptxas, fatbinary,
# nvlink), nvvm (cicc, libdevice), crt (crt/*.h), runtime (cuda_runtime.h,
# libcudart_static.a) and cccl (headers some runtime headers include).
set -euo pipefail

VER=13.0.88
PKGS=(
  "nvidia-cuda-nvcc==13.0.88"
  "nvidia-nvvm==13.0.88"
  "nvidia-cuda-crt==13.0.88"
  "nvidia-cuda-runtime==13.0.96"
  "nvidia-cuda-cccl==13.0.85"
)
PY=${PYTHON:-python3}
ROOT=${DPACCEL_CUDA_CACHE:-$HOME/.cache/dpaccel-cuda}
DEST=$ROOT/$VER
TOP=$DEST/nvidia/cu13
NVCC=$TOP/bin/nvcc

log() { echo "install-nvcc: $*" >&2; }

check() {
  [ -x "$NVCC" ] || return 1
  # Compile a tiny kernel for the oldest supported target: proves cicc, ptxas, the crt
  # headers and the runtime headers are all in place, with no GPU needed.
  local tmp
  tmp=$(mktemp -d)
  printf '__global__ void k(float *x){ x[threadIdx.x] *= 2.0f; }\n' >"$tmp/t.cu"
  if "$NVCC" -arch=sm_75 -c "$tmp/t.cu" -o "$tmp/t.o" >"$tmp/log" 2>&1; then
    rm -rf "$tmp"
    return 0
  fi
  sed 's/^/install-nvcc:   /' "$tmp/log" >&2
  rm -rf "$tmp"
  return 1
}

if check; then
  log "using cached CUDA $VER at $TOP"
  echo "$NVCC"
  exit 0
fi

log "installing CUDA $VER compiler wheels into $DEST (pip, about 45 MB)"
rm -rf "$DEST.partial"
mkdir -p "$DEST.partial"
"$PY" -m pip install --quiet --disable-pip-version-check --no-deps --no-compile \
  --only-binary=:all: --target "$DEST.partial" "${PKGS[@]}" >&2
rm -rf "$DEST"
mv "$DEST.partial" "$DEST"

# Some tools (CMake's CUDA toolkit detection among them) look for lib64/ beside bin/.
[ -e "$TOP/lib64" ] || ln -s lib "$TOP/lib64"
# The runtime wheel ships libcudart.so.13 without the unversioned link that -lcudart needs.
[ -e "$TOP/lib/libcudart.so" ] || ln -s libcudart.so.13 "$TOP/lib/libcudart.so"

if ! check; then
  log "nvcc at $NVCC does not compile a test kernel (see above)"
  exit 1
fi
log "CUDA $VER ready: $NVCC"
echo "$NVCC"
