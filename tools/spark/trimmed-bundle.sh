#!/usr/bin/env bash
# tools/spark/trimmed-bundle.sh — Spark local mode for the distance job on a machine without Java
# or a network whose transfer is small (the lent GPU host takes 64 MiB): Spark's jars cut to the
# classes the job loads, a jlinked JRE of the modules it loads, dpaccel.jar and dpaccel-spark.
# Everything comes from the Maven repository and this build; nothing of Spark is committed.
#
#   mvn -q -B package -DskipTests -Ddpaccel.cuda=OFF -pl java/spark -am
#   tools/spark/trimmed-bundle.sh OUTDIR
#
# OUTDIR/bundle.tar.gz unpacks to jre/ (bin/java), lib/ (the cut jars), dpaccel.jar,
# dpaccel-spark.jar and java-options (Spark 3.5's --add-opens list); run the job with
#   jre/bin/java $(cat java-options) -cp 'lib/*:dpaccel-spark.jar:dpaccel.jar' \
#     org.dpaccel.spark.SparkMain --master 'local[16]' distance --bfile P --out O --tile T
# How: the job runs here on generated filesets (both read paths: broadcast body, whole-row and
# per-block byte-range reads; merge and --min-kinship) under -Xlog:class+load with CDS off; a
# jar keeps the classes that were loaded from it (with their nested classes) and its resources other than files over 256 KB
# and native libraries for other platforms than Linux x86-64; the JRE keeps the modules classes came from. The same runs are then
# repeated on the bundle and must write the same bytes, as must the single-machine command. A class the traced runs never loaded
# (an error path, another code path) is missing from the bundle: NoClassDefFoundError.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: trimmed-bundle.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work="$out/work"
rm -rf "$work" "$out/bundle"
mkdir -p "$work" "$out/bundle/lib"
gen="$root/build/native/native/dpa_gen_genotypes"
spark_jar="$root/java/spark/target/dpaccel-spark-0.1.0.jar"
cli_jar="$root/java/cli/target/dpaccel.jar"
for f in "$gen" "$spark_jar" "$cli_jar"; do
  [ -e "$f" ] || { echo "missing $f: build first (mvn -q -B package -DskipTests -pl java/spark -am)" >&2; exit 1; }
done
jdk=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}
[ -d "$jdk/jmods" ] || { echo "no $jdk/jmods: jlink needs a JDK with jmods" >&2; exit 1; }

# Spark's class path as the module's tests see it (provided scope included), our jars left out
(cd "$root" && mvn -q -B dependency:build-classpath -pl java/spark -Dmdep.outputFile="$work/cp.txt")
tr ':' '\n' <"$work/cp.txt" | grep -v '/org/dpaccel/' >"$work/jars.txt"
cp_full="$(paste -sd: "$work/jars.txt")"
# Spark 3.5.0's JavaModuleOptions, as java/spark/pom.xml's spark.java.options (first profile)
awk '/<spark.java.options>/ { f = 1 } f { print } /<\/spark.java.options>/ { if (f) exit }' \
  "$root/java/spark/pom.xml" | sed 's/<[^>]*>//g' | tr -s ' \n' '\n' | grep -v '^$' >"$out/bundle/java-options"
mapfile -t opts <"$out/bundle/java-options"

"$gen" 2000 20000 3 "$work/a" >/dev/null
"$gen" 20000 300 4 "$work/b" >/dev/null
# name, java, class path, extra java options...; the job runs, then its outputs are kept by name
job() {
  local name=$1 java=$2 cp=$3
  shift 3
  local -a x=("$@")
  "$java" "${opts[@]}" "${x[@]}" -cp "$cp" org.dpaccel.spark.SparkMain --master 'local[16]' \
    distance --bfile "$work/a" --out "$work/$name-1" --tile 700 >"$work/$name-1.log" 2>&1
  "$java" "${opts[@]}" "${x[@]}" -cp "$cp" org.dpaccel.spark.SparkMain --master 'local[16]' \
    distance --bfile "$work/a" --out "$work/$name-2" --tile 1024 --broadcast-max 0 >"$work/$name-2.log" 2>&1
  "$java" "${opts[@]}" "${x[@]}" -cp "$cp" org.dpaccel.spark.SparkMain --master 'local[16]' \
    distance --bfile "$work/b" --out "$work/$name-3" --tile 2048 --broadcast-max 0 --min-kinship 0.3 \
    >"$work/$name-3.log" 2>&1
}
echo "tracing the class loads (three jobs)..."
job trace java "$spark_jar:$cli_jar:$cp_full" -Xshare:off -Xlog:class+load=info:file="$work/load-%p.txt"
cat "$work"/load-*.txt >"$work/load.txt"

python3 - "$work/load.txt" "$work/jars.txt" "$out/bundle/lib" "$work/modules.txt" <<'EOF'
import os, re, sys, zipfile
load, jars, libdir, modfile = sys.argv[1:]
by_jar, modules = {}, set()
for line in open(load):
    m = re.search(r'\] (\S+) source: (\S+)', line)
    if not m:
        continue
    cls, src = m.groups()
    if src.startswith('jrt:/'):
        modules.add(src[5:])
    elif src.startswith('file:') and src.endswith('.jar'):
        by_jar.setdefault(src[5:], set()).add(cls.replace('.', '/') + '.class')
kept = total = 0
for jar in (l.strip() for l in open(jars)):
    if jar not in by_jar:
        continue
    want = by_jar[jar]
    dst = os.path.join(libdir, os.path.basename(jar))
    with zipfile.ZipFile(jar) as zin, zipfile.ZipFile(dst, 'w', zipfile.ZIP_DEFLATED) as zout:
        for e in zin.infolist():
            n = e.filename
            if e.is_dir():  # kept: Spark's UI looks its static folder up as a resource
                pass
            elif n.endswith('.class'):
                # a multi-release jar's META-INF/versions/N/ copy is the one Java 17 loads
                # and the nested classes of a loaded class go with it (an anonymous class of a
                # path the traced runs did not take: netty's DefaultPromise$1 at shutdown)
                c = re.sub(r'^META-INF/versions/\d+/', '', n)
                if c not in want and re.sub(r'\$.*', '', c[:-6]) + '.class' not in want:
                    continue
            elif re.search(r'\.(so|dll|dylib|jnilib|a)$', n):
                # lz4-java's JNI library: without it lz4 takes its Java path, classes never traced
                if not (re.search(r'(?i)linux', n) and re.search(r'(?i)amd64|x86_64|x86-64', n)):
                    continue
            elif re.search(r'^META-INF/.*\.(SF|RSA|DSA|EC)$', n) or e.file_size > 256 * 1024:
                continue
            zout.writestr(e, zin.read(n))
    kept += len(want)
    total += os.path.getsize(dst)
open(modfile, 'w').write(','.join(sorted(modules)) + '\n')
print(f"{kept} classes from {len(by_jar)} jars, {total / 2**20:.1f} MiB; modules {','.join(sorted(modules))}")
EOF

# English locale data only (jdk.localedata is ~13 MB otherwise); no --compress: the tar.gz
# compresses as well and the JVM starts without inflating its classes
"$jdk/bin/jlink" --add-modules "$(cat "$work/modules.txt")" --strip-debug --no-header-files \
  --no-man-pages --include-locales=en,en-US --output "$out/bundle/jre"
cp "$cli_jar" "$out/bundle/dpaccel.jar"
cp "$spark_jar" "$out/bundle/dpaccel-spark.jar"

echo "the same jobs on the bundle..."
b="$out/bundle"
job bundle "$b/jre/bin/java" "$b/lib/*:$b/dpaccel-spark.jar:$b/dpaccel.jar"
for k in 1 2 3; do
  cmp "$work/trace-$k.counts.tsv" "$work/bundle-$k.counts.tsv" ||
    { echo "bundle run $k differs from the traced run" >&2; tail -20 "$work/bundle-$k.log" >&2; exit 1; }
  grep -h 'tiles=' "$work/bundle-$k.log"
done
# the single-machine command on the bundle's JRE (not traced: dpaccel.jar is whole)
"$b/jre/bin/java" -jar "$b/dpaccel.jar" distance --bfile "$work/a" --out "$work/cli" --counts -q
cmp "$work/trace-1.counts.tsv" "$work/cli.counts.tsv"
cmp "$work/trace-1.counts.tsv" "$work/trace-2.counts.tsv"
tar -C "$b" -czf "$out/bundle.tar.gz" .
du -sh "$b/jre" "$b/lib" "$out/bundle.tar.gz"
