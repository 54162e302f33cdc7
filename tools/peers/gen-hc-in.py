#!/usr/bin/env python3
"""Writes a HaplotypeCaller-shaped PairHMM .in file (GATK's record layout: "R H", R read lines
of bases and base/insertion/deletion/GCP qualities, H haplotype lines), read by both
dpaccel's engine_bench and gpuPairHMM:

    tools/peers/gen-hc-in.py REGIONS READS SEED [same-span] > hc.in

Each region: 4 haplotypes of 250-600 bp cut from one random 600-bp sequence with 1% changes,
so a read from a long haplotype may lie beyond the end of a short one and underflow float
(about 7% of the pairs go to the double pass); with `same-span` the region's 4 haplotypes
are all one random length of 250-600 bp (as HaplotypeCaller's haplotypes span the active
region) and almost no pair underflows, as in real HaplotypeCaller data,
READS 151-bp reads cut from them with 1% changes, per-position base qualities 10-40 and
insertion/deletion qualities 30-45 (BQSR-recalibrated BAMs carry per-position gap
qualities), GCP 10. Seeded: the same arguments give the same bytes."""
import random
import sys


def main() -> None:
    if len(sys.argv) not in (4, 5) or (len(sys.argv) == 5 and sys.argv[4] != "same-span"):
        sys.exit(__doc__)
    regions, reads, seed = (int(a) for a in sys.argv[1:4])
    same_span = len(sys.argv) == 5
    rnd = random.Random(seed)
    out = []
    for _ in range(regions):
        base = [rnd.choice("ACGT") for _ in range(600)]
        haps = []
        span = rnd.randint(250, 600) if same_span else 0
        for _ in range(4):
            n = span if same_span else rnd.randint(250, 600)
            haps.append("".join(c if rnd.random() > 0.01 else rnd.choice("ACGT") for c in base[:n]))
        out.append(f"{reads} 4")
        for r in range(reads):
            src = haps[r % 4]
            st = rnd.randint(0, len(src) - 151)
            rd = "".join(c if rnd.random() > 0.01 else rnd.choice("ACGT") for c in src[st:st + 151])
            q = "".join(chr(33 + rnd.randint(10, 40)) for _ in range(151))
            iq = "".join(chr(33 + rnd.randint(30, 45)) for _ in range(151))
            dq = "".join(chr(33 + rnd.randint(30, 45)) for _ in range(151))
            out.append(f"{rd} {q} {iq} {dq} {'+' * 151}")
        out.extend(haps)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
