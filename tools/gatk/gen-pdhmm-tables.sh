#!/usr/bin/env bash
# Prints native/src/cpu/pdhmm/pdhmm_gatk_tables.c from GATK's own Java (GenPdhmmTables.java).
# Needs the test class path of java/gatk-dropin (GATK 4.6.2.0 from Maven Central): run
# `mvn -B -q install -DskipTests` once first. Usage, from the repository root:
#   tools/gatk/gen-pdhmm-tables.sh > native/src/cpu/pdhmm/pdhmm_gatk_tables.c
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cp_file=$(mktemp)
trap 'rm -f "$cp_file"' EXIT
(cd "$here/../../java/gatk-dropin" && mvn -B -q dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$cp_file" >&2)
java -cp "$(cat "$cp_file")" "$here/GenPdhmmTables.java" 2> >(grep -v StatusLogger >&2)
