/*
 * bed_gen.c — the seeded cohort generator (bed_gen.h). Genotypes are drawn sample-major as
 * A1 allele counts (A1 = the minor allele of the ancestral frequency), relatives are derived
 * from those true counts, then missingness is applied and the rows packed into .bed codes.
 */
#include "io/bed_gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"

#define POPS 3
#define FST 0.05

typedef struct rng { uint64_t s; } rng;

/* splitmix64: one 64-bit state, good enough for simulation, identical everywhere */
static uint64_t next64(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double unif(rng *r) { return (double)(next64(r) >> 11) * (1.0 / 9007199254740992.0); }

static double normal(rng *r)
{
    double u = unif(r), v = unif(r);
    if (u < 1e-300) u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* Marsaglia-Tsang; shape < 1 through Gamma(a + 1) * U^(1/a) */
static double gamma_draw(rng *r, double a)
{
    if (a < 1.0) {
        double u = unif(r);
        if (u < 1e-300) u = 1e-300;
        return gamma_draw(r, a + 1.0) * pow(u, 1.0 / a);
    }
    const double d = a - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        double x = normal(r), v = 1.0 + c * x;
        if (v <= 0) continue;
        v = v * v * v;
        double u = unif(r);
        if (u < 1e-300) u = 1e-300;
        if (log(u) < 0.5 * x * x + d - d * v + d * log(v)) return d * v;
    }
}

/* Balding-Nichols: a population's frequency given the ancestral one */
static double bn_freq(rng *r, double p)
{
    if (p <= 0.0 || p >= 1.0) return p;
    const double k = (1.0 - FST) / FST;
    const double x = gamma_draw(r, p * k), y = gamma_draw(r, (1.0 - p) * k);
    return x + y > 0 ? x / (x + y) : p;
}

static uint8_t draw_count(rng *r, double p)
{
    return (uint8_t)((unif(r) < p) + (unif(r) < p));
}

enum { ROLE_FOUNDER, ROLE_CHILD, ROLE_DUP };

typedef struct sample_info {
    int role;
    int32_t pa, ma;     /* parents (ROLE_CHILD) or the original (ROLE_DUP, in pa) */
    int pop, pop2;      /* pop2 >= 0: admixed with share mix of pop2 */
    double mix;
    double missing;
    int male;
} sample_info;

static void assign_roles(rng *r, int32_t n, sample_info *s)
{
    int32_t last_pa = -1, last_ma = -1;
    for (int32_t k = 0; k < n; k++) {
        sample_info *x = &s[k];
        memset(x, 0, sizeof *x);
        x->pop2 = -1;
        x->male = (int)(next64(r) & 1);
        x->missing = 0.005 + 0.195 * unif(r);
        const double u = unif(r);
        if (k >= 8 && u < 0.02) {
            x->role = ROLE_DUP;
            x->pa = (int32_t)(next64(r) % (uint64_t)k);
            x->pop = s[x->pa].pop;
        } else if (k >= 8 && u < 0.08) {
            x->role = ROLE_CHILD;
            if (last_pa >= 0 && (next64(r) & 1)) { /* a sibling of the last child */
                x->pa = last_pa, x->ma = last_ma;
            } else {
                /* two distinct founders; the second from the first's population if one is near */
                int32_t a, b, tries = 0;
                do a = (int32_t)(next64(r) % (uint64_t)k); while (s[a].role != ROLE_FOUNDER && ++tries < 64);
                tries = 0;
                do b = (int32_t)(next64(r) % (uint64_t)k);
                while ((b == a || s[b].role != ROLE_FOUNDER || s[b].pop != s[a].pop) && ++tries < 64);
                if (b == a) b = (a + 1) % k;
                x->pa = a, x->ma = b;
            }
            x->pop = s[x->pa].pop;
            last_pa = x->pa, last_ma = x->ma;
        } else {
            x->role = ROLE_FOUNDER;
            x->pop = (int)(next64(r) % POPS);
            if (unif(r) < 0.10) {
                x->pop2 = (x->pop + 1 + (int)(next64(r) & 1)) % POPS;
                x->mix = unif(r);
            }
        }
    }
}

/* chromosome of variant v: 1..22 in equal blocks over 97%, then X, Y, MT blocks (PLINK wants
 * each chromosome contiguous) */
static uint8_t chrom_of(int64_t v, int64_t m)
{
    const int64_t auto_n = m - m * 3 / 100;
    if (v < auto_n) return (uint8_t)(1 + v * 22 / auto_n);
    const int64_t rest = v - auto_n, extra = m - auto_n;
    if (rest < extra / 2) return 23;
    if (rest < extra * 2 / 3) return 24;
    return 26;
}

/* A1 count of a haploid call (X in males, Y, MT): 0 or 2 */
static uint8_t haploid(rng *r, double p) { return unif(r) < p ? 2 : 0; }

static void draw_founder(rng *r, const sample_info *x, const double *freq, const uint8_t *chrom,
                         int64_t m, uint8_t *g)
{
    for (int64_t v = 0; v < m; v++) {
        double p = freq[v * POPS + x->pop];
        if (x->pop2 >= 0 && unif(r) < x->mix) p = freq[v * POPS + x->pop2];
        const int c = chrom[v];
        if (c == 24) g[v] = x->male ? haploid(r, p) : 3;   /* 3 = no call */
        else if (c == 26 || (c == 23 && x->male)) g[v] = haploid(r, p);
        else g[v] = draw_count(r, p);
    }
}

static uint8_t transmit(rng *r, uint8_t parent)
{
    return parent == 1 ? (uint8_t)(next64(r) & 1) : (uint8_t)(parent / 2);
}

static void draw_child(rng *r, const sample_info *x, const sample_info *s, const uint8_t *pa,
                       const uint8_t *ma, const uint8_t *chrom, int64_t m, uint8_t *g)
{
    for (int64_t v = 0; v < m; v++) {
        const int c = chrom[v];
        const uint8_t a = pa[v] > 2 ? 0 : pa[v], b = ma[v] > 2 ? 0 : ma[v];
        if (c == 24) g[v] = x->male ? (s[x->pa].male ? a : b) : 3;
        else if (c == 26) g[v] = s[x->ma].male ? a : b;
        else if (c == 23 && x->male) g[v] = (uint8_t)(2 * transmit(r, s[x->ma].male ? a : b));
        else g[v] = (uint8_t)(transmit(r, a) + transmit(r, b));
    }
}

static int fill(rng *r, int32_t n, int64_t m, dpa_bed_data *d, uint8_t *all)
{
    double *freq = malloc(sizeof *freq * (size_t)m * POPS);
    sample_info *s = malloc(sizeof *s * (size_t)n);
    double *vmiss = malloc(sizeof *vmiss * (size_t)m);
    if (!freq || !s || !vmiss) {
        free(freq), free(s), free(vmiss);
        return 0;
    }
    for (int64_t v = 0; v < m; v++) {
        d->chrom[v] = chrom_of(v, m);
        d->autosomal[v] = d->chrom[v] <= 22;
        d->autosomal_count += d->autosomal[v];
        const double u = unif(r);
        double p;
        if (u < 0.03) p = (v & 1) ? 1.0 : 0.0;          /* monomorphic */
        else if (u < 0.33) p = 0.001 + 0.019 * unif(r);  /* rare */
        else p = 0.05 + 0.45 * unif(r);
        for (int k = 0; k < POPS; k++) freq[v * POPS + k] = bn_freq(r, p);
        vmiss[v] = unif(r) < 0.01 ? 0.10 : 0.0;
    }
    assign_roles(r, n, s);
    for (int32_t k = 0; k < n; k++) {
        uint8_t *g = all + (size_t)k * (size_t)m;
        if (s[k].role == ROLE_FOUNDER) {
            draw_founder(r, &s[k], freq, d->chrom, m, g);
        } else if (s[k].role == ROLE_CHILD) {
            draw_child(r, &s[k], s, all + (size_t)s[k].pa * (size_t)m,
                       all + (size_t)s[k].ma * (size_t)m, d->chrom, m, g);
        } else {
            memcpy(g, all + (size_t)s[k].pa * (size_t)m, (size_t)m);
            for (int64_t v = 0; v < m; v++)
                if (g[v] <= 2 && d->chrom[v] <= 22 && unif(r) < 0.001) g[v] = (uint8_t)(next64(r) % 3);
        }
    }
    /* missingness is applied after relatives are drawn, so it stays independent per sample */
    static const uint8_t code[4] = { 3, 2, 0, 1 }; /* A1 count 0 -> hom A2 (11), 1 -> het (10),
                                                      2 -> hom A1 (00), 3 -> missing (01) */
    memset(d->genotypes, 0, (size_t)(m * d->row_bytes));
    for (int32_t k = 0; k < n; k++) {
        const uint8_t *g = all + (size_t)k * (size_t)m;
        for (int64_t v = 0; v < m; v++) {
            uint8_t c = g[v];
            if (unif(r) < s[k].missing + vmiss[v]) c = 3;
            d->genotypes[v * d->row_bytes + k / 4] |= (uint8_t)(code[c] << (2 * (k % 4)));
        }
    }
    free(freq), free(s), free(vmiss);
    return 1;
}

dpa_status dpa_bed_generate(int32_t n, int64_t m, uint64_t seed, dpa_bed_data *d)
{
    memset(d, 0, sizeof *d);
    if (n < 1 || m < 1)
        return dpa_fail(DPA_ERR_INVALID_ARG, "bed_gen: %d samples x %lld variants, both must be >= 1",
                        n, (long long)m);
    d->num_samples = n;
    d->num_variants = m;
    d->row_bytes = ((int64_t)n + 3) / 4;
    d->genotypes = malloc((size_t)(m * d->row_bytes));
    d->chrom = malloc((size_t)m);
    d->autosomal = malloc((size_t)m);
    uint8_t *all = malloc((size_t)n * (size_t)m);
    rng r = { seed };
    if (!d->genotypes || !d->chrom || !d->autosomal || !all || !fill(&r, n, m, d, all)) {
        free(all);
        dpa_bed_free(d);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "bed_gen: out of memory for %d x %lld", n,
                        (long long)m);
    }
    free(all);
    return DPA_OK;
}

static dpa_status write_file(const char *prefix, const char *ext, const dpa_bed_data *d)
{
    char path[4096];
    snprintf(path, sizeof path, "%s%s", prefix, ext);
    FILE *f = fopen(path, "wb");
    if (!f) return dpa_fail(DPA_ERR_INVALID_ARG, "bed_gen: cannot write %s", path);
    int ok = 1;
    if (ext[1] == 'b' && ext[2] == 'e') {
        static const uint8_t magic[3] = { 0x6c, 0x1b, 0x01 };
        ok = fwrite(magic, 1, 3, f) == 3 &&
             fwrite(d->genotypes, 1, (size_t)(d->num_variants * d->row_bytes), f) ==
                 (size_t)(d->num_variants * d->row_bytes);
    } else if (ext[1] == 'b') {
        int64_t pos = 0;
        for (int64_t v = 0; v < d->num_variants && ok; v++) {
            pos = (v > 0 && d->chrom[v] == d->chrom[v - 1]) ? pos + 100 : 1;
            ok = fprintf(f, "%d\tv%lld\t0\t%lld\tA\tG\n", d->chrom[v], (long long)v,
                         (long long)pos) > 0;
        }
    } else {
        /* sex from the chrX calls is not needed: the generator's own draw is not kept, so the
         * .fam says unknown sex (0) and PLINK treats X/Y as it likes; they are skipped anyway */
        for (int32_t k = 0; k < d->num_samples && ok; k++)
            ok = fprintf(f, "fam%d\ts%d\t0\t0\t0\t-9\n", k, k) > 0;
    }
    if (fclose(f) != 0) ok = 0;
    return ok ? DPA_OK : dpa_fail(DPA_ERR_INVALID_ARG, "bed_gen: writing %s failed", path);
}

dpa_status dpa_bed_write(const dpa_bed_data *d, const char *prefix)
{
    dpa_status st = write_file(prefix, ".bed", d);
    if (!st) st = write_file(prefix, ".bim", d);
    if (!st) st = write_file(prefix, ".fam", d);
    return st;
}

dpa_status dpa_bed_write_vcf(const dpa_bed_data *d, const char *prefix)
{
    char path[4096];
    snprintf(path, sizeof path, "%s.vcf", prefix);
    FILE *f = fopen(path, "w");
    if (!f) return dpa_fail(DPA_ERR_INVALID_ARG, "bed_gen: cannot write %s", path);
    static const char *const gt[4] = { "1/1", "./.", "0/1", "0/0" }; /* by .bed code */
    int ok = fprintf(f, "##fileformat=VCFv4.2\n##source=dpa_gen_genotypes\n"
                        "##FORMAT=<ID=GT,Number=1,Type=String,Description=\"Genotype\">\n"
                        "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT") > 0;
    for (int32_t k = 0; k < d->num_samples && ok; k++) ok = fprintf(f, "\ts%d", k) > 0;
    ok = ok && fputc('\n', f) != EOF;
    int64_t pos = 0;
    for (int64_t v = 0; v < d->num_variants && ok; v++) {
        pos = (v > 0 && d->chrom[v] == d->chrom[v - 1]) ? pos + 100 : 1;
        const int c = d->chrom[v];
        char chrom[4];
        snprintf(chrom, sizeof chrom, "%s", c == 23 ? "X" : c == 24 ? "Y" : c == 26 ? "MT" : "");
        if (!chrom[0]) snprintf(chrom, sizeof chrom, "%d", c);
        ok = fprintf(f, "%s\t%lld\tv%lld\tG\tA\t.\t.\t.\tGT", chrom, (long long)pos,
                     (long long)v) > 0;
        const uint8_t *row = d->genotypes + v * d->row_bytes;
        for (int32_t k = 0; k < d->num_samples && ok; k++)
            ok = fprintf(f, "\t%s", gt[(row[k / 4] >> (2 * (k % 4))) & 3]) > 0;
        ok = ok && fputc('\n', f) != EOF;
    }
    if (fclose(f) != 0) ok = 0;
    return ok ? DPA_OK : dpa_fail(DPA_ERR_INVALID_ARG, "bed_gen: writing %s failed", path);
}

void dpa_bed_free(dpa_bed_data *d)
{
    if (!d) return;
    free(d->genotypes), free(d->chrom), free(d->autosomal);
    memset(d, 0, sizeof *d);
}
