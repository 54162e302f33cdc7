#!/usr/bin/env python3
"""Seeded background protein FASTA (HMMER's amino frequencies, lengths uniform in
[50, 2*MEAN-50]) for the hmm-filter bench. Usage: gen_background_fasta.py SEED N MEAN OUT.fa"""
import random
import sys

AA = "ACDEFGHIKLMNPQRSTVWY"
BG = [0.0787945, 0.0151600, 0.0535222, 0.0668298, 0.0397062, 0.0695071, 0.0229198,
      0.0590092, 0.0594422, 0.0963728, 0.0237718, 0.0414386, 0.0482904, 0.0395639,
      0.0540978, 0.0683364, 0.0540687, 0.0673417, 0.0114135, 0.0304133]

seed, n, mean, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = random.Random(seed)
with open(out, "w") as f:
    for i in range(n):
        s = "".join(rng.choices(AA, weights=BG, k=rng.randint(50, 2 * mean - 50)))
        f.write(f">bg{i}\n")
        for j in range(0, len(s), 60):
            f.write(s[j:j + 60] + "\n")
