#!/usr/bin/env bash
# Makes sure bwa and samtools (Debian packages) are on PATH for the GATK HaplotypeCaller
# integration test. Installs them with apt-get as root, or through passwordless sudo; otherwise
# fails with a message saying what to install.
set -euo pipefail
missing=()
for t in bwa samtools; do
  command -v "$t" >/dev/null 2>&1 || missing+=("$t")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: bwa and samtools present: $(command -v bwa) $(command -v samtools)"
  exit 0
fi
echo "setup.sh: installing ${missing[*]} (Debian packages bwa, samtools)"
if [ "$(id -u)" = 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  echo "setup.sh: ERROR: ${missing[*]} missing, and not root nor passwordless sudo." >&2
  echo "setup.sh: install them (e.g. 'sudo apt-get install -y bwa samtools') or skip the test with -Ddpaccel.gatk.it.skip=true" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
if ! "${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
  "${SUDO[@]}" apt-get update
  "${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi
for t in "${missing[@]}"; do
  command -v "$t" >/dev/null 2>&1 || { echo "setup.sh: ERROR: $t still not on PATH after apt-get" >&2; exit 2; }
done
echo "setup.sh: installed ${missing[*]}"
