#!/usr/bin/env python3
"""HMMER 3.4's whole hmmsearch pipeline on one thread, timed as hmm_filter_bench's file mode
counts cells (sum of M x L over all pairs), for a same-minute comparison on a shared machine.

usage: pyhmmer_bench.py MODELS.hmm TARGETS.fa [repeats]   (needs: pip install pyhmmer)
"""
import sys
import time

import pyhmmer
from pyhmmer.easel import SequenceFile
from pyhmmer.plan7 import HMMFile

with HMMFile(sys.argv[1]) as f:
    hmms = list(f)
with SequenceFile(sys.argv[2], digital=True, alphabet=hmms[0].alphabet) as f:
    seqs = f.read_block()
cells = sum(h.M for h in hmms) * sum(len(s) for s in seqs)
best = float("inf")
for _ in range(int(sys.argv[3]) if len(sys.argv) > 3 else 3):
    t = time.perf_counter()
    for hits in pyhmmer.hmmsearch(hmms, seqs, cpus=1):
        pass
    best = min(best, time.perf_counter() - t)
print("pyhmmer %s hmmsearch cpus=1: best %.4f s, %.2f G cells/s (cells %d)"
      % (pyhmmer.__version__, best, cells / best / 1e9, cells))
