#!/usr/bin/env python3
"""Seeded test data for the hmm-filter oracle tests: HMMER3/f models built by pyhmmer's
hmmbuild from random alignments, and protein targets (background, biased, low complexity,
emitted domains full/fragmented/mutated, several per sequence, degenerate symbols, edge
lengths). Usage: gen_hmm_testdata.py SEED OUT.hmm OUT.fa [NMODELS] [NSEQ] [MAXLEN]"""
import random
import sys

from pyhmmer import easel, plan7

AA = "ACDEFGHIKLMNPQRSTVWY"
BG = [0.0787945, 0.0151600, 0.0535222, 0.0668298, 0.0397062, 0.0695071, 0.0229198,
      0.0590092, 0.0594422, 0.0963728, 0.0237718, 0.0414386, 0.0482904, 0.0395639,
      0.0540978, 0.0683364, 0.0540687, 0.0673417, 0.0114135, 0.0304133]


def bg_seq(rng, n):
    return "".join(rng.choices(AA, weights=BG, k=n))


def build_models(rng, seed, n, abc):
    lengths = [1, 2, 3, 8, 16, 17, 33, 71, 128, 150, 300, 450, 800, 1141, 1300]
    hmms = []
    for m in range(n):
        L = lengths[m] if m < len(lengths) else rng.choice(lengths)
        root = bg_seq(rng, L)
        seqs = []
        mut, gap = rng.choice([(0.1, 0.02), (0.3, 0.05), (0.5, 0.1)])
        for j in range(rng.randint(2, 15)):
            s = list(root)
            for i in range(len(s)):
                r = rng.random()
                if r < mut:
                    s[i] = rng.choice(AA)
                elif r < mut + gap:
                    s[i] = "-"
            seqs.append(easel.TextSequence(name=f"s{j}".encode(), sequence="".join(s)))
        msa = easel.TextMSA(name=f"model{m}_M{L}".encode(), sequences=seqs).digitize(abc)
        builder = plan7.Builder(abc, seed=seed * 1000 + m + 1)
        hmm, _, _ = builder.build_msa(msa, plan7.Background(abc))
        hmms.append(hmm)
    return hmms


def mutate(rng, s, rate):
    return "".join(rng.choice(AA) if rng.random() < rate else c for c in s)


def main():
    seed = int(sys.argv[1])
    out_hmm, out_fa = sys.argv[2], sys.argv[3]
    nmodels = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    nseq = int(sys.argv[5]) if len(sys.argv) > 5 else 60
    maxlen = int(sys.argv[6]) if len(sys.argv) > 6 else 3000
    rng = random.Random(seed)
    abc = easel.Alphabet.amino()
    hmms = build_models(rng, seed, nmodels, abc)
    with open(out_hmm, "wb") as f:
        for h in hmms:
            h.write(f)
    emit_rng = easel.Randomness(seed)
    bg = plan7.Background(abc)
    domains = []
    for h in hmms:
        prof = plan7.Profile(h.M, abc)
        prof.configure(h, bg, 400)
        for _ in range(3):
            seq = prof.emit_sequence(h, bg, emit_rng).textize().sequence
            if seq:
                domains.append(seq)
    seqs = ["", "A", "W", "X" * 50, "*", "BJZOUX" * 5, "acdefghiklmnpqrstvwy" * 3, "M" + "~" * 3 + "K"]
    while len(seqs) < nseq:
        kind = rng.randrange(6)
        n = rng.randint(1, maxlen)
        if kind == 0:
            seqs.append(bg_seq(rng, n))
        elif kind == 1:  # low complexity / biased
            alpha = rng.sample(AA, rng.randint(1, 3))
            seqs.append("".join(rng.choice(alpha) for _ in range(n)))
        else:  # 1-4 domains, full or fragment, mutated 0-85%, in background
            parts = [bg_seq(rng, rng.randint(0, 200))]
            for _ in range(rng.randint(1, 4)):
                d = rng.choice(domains)
                if rng.random() < 0.4 and len(d) > 4:
                    a = rng.randrange(len(d) // 2)
                    d = d[a:a + rng.randint(2, len(d) - a)]
                parts.append(mutate(rng, d, rng.choice([0.0, 0.3, 0.5, 0.85])))
                parts.append(bg_seq(rng, rng.randint(0, 200)))
            s = "".join(parts)[:100000]
            if rng.random() < 0.1:
                s = s.lower()
            seqs.append(s)
    with open(out_fa, "w") as f:
        for i, s in enumerate(seqs):
            f.write(f">t{i} len={len(s)}\n")
            for j in range(0, len(s), 60):
                f.write(s[j:j + 60] + "\n")


if __name__ == "__main__":
    main()
