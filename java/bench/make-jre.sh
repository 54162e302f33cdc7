#!/usr/bin/env bash
# Builds a minimal Java runtime for dpaccel.jar (bench, pairhmm, sw, ...) with jlink, for machines without Java (the GPU
# machines): java/bench/make-jre.sh [--no-plots] [output-dir]   (default: <repo>/.jre, git-ignored).
# --no-plots leaves out java.desktop (~12 MB smaller); the bench then writes no PNGs and says so.
# Then: .jre/bin/java -jar java/cli/target/dpaccel.jar bench   (bin/dpaccel uses .jre/ by itself)
# Modules: java.base; java.desktop (ImageIO + AWT headless for the PNG plots); java.logging
# (java.util.logging: dpaccel's System.Logger backend, GKL's commons-logging backend);
# jdk.unsupported (sun.misc.Unsafe, used by some libraries); jdk.zipfs is not needed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
modules=java.base,java.desktop,java.logging,jdk.unsupported
if [ "${1:-}" = --no-plots ]; then
  modules=java.base,java.logging,jdk.unsupported
  shift
fi
out=${1:-$root/.jre}
jlink=${JLINK:-}
if [ -z "$jlink" ]; then
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/jlink" ]; then
    jlink=$JAVA_HOME/bin/jlink
  else
    jlink=$(command -v jlink || true)
  fi
fi
if [ -z "$jlink" ]; then
  echo "make-jre.sh: jlink not found (install a JDK 17+ or set JAVA_HOME)" >&2
  exit 1
fi
rm -rf "$out"
"$jlink" --add-modules "$modules" \
  --strip-debug --no-man-pages --no-header-files --compress=2 --output "$out"
if command -v strip >/dev/null; then  # native symbols: libjvm.so alone drops ~4 MB
  find "$out" -name '*.so' -exec strip --strip-unneeded {} +
fi
echo "make-jre.sh: $out ($(du -sh "$out" | cut -f1)); run: $out/bin/java -jar $root/java/cli/target/dpaccel.jar bench"
