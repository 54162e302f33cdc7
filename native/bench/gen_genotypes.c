/*
 * gen_genotypes.c — writes a seeded PLINK 1 fileset (io/bed_gen.h) for the distance tests,
 * the PLINK comparison and the benchmark:
 *
 *   dpa_gen_genotypes SAMPLES VARIANTS SEED PREFIX [vcf]
 *
 * (with "vcf", PREFIX.vcf too: the same genotypes, plain text; bgzip it for a .vcf.gz) prints "PREFIX: N samples, M variants (A autosomal)" on success; exit 2 on bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpaccel.h"
#include "io/bed_gen.h"

int main(int argc, char **argv)
{
    if (argc != 5 && !(argc == 6 && strcmp(argv[5], "vcf") == 0)) {
        fprintf(stderr, "usage: %s SAMPLES VARIANTS SEED PREFIX [vcf]\n", argv[0]);
        return 2;
    }
    const long n = strtol(argv[1], NULL, 10);
    const long long m = strtoll(argv[2], NULL, 10);
    const unsigned long long seed = strtoull(argv[3], NULL, 10);
    if (n < 1 || n > (1L << 24) || m < 1) {
        fprintf(stderr, "%s: SAMPLES must be 1..2^24 and VARIANTS >= 1\n", argv[0]);
        return 2;
    }
    dpa_bed_data d;
    dpa_status st = dpa_bed_generate((int32_t)n, m, seed, &d);
    if (!st) st = dpa_bed_write(&d, argv[4]);
    if (!st && argc == 6) st = dpa_bed_write_vcf(&d, argv[4]);
    if (st) {
        fprintf(stderr, "%s: %s\n", argv[0], dpa_last_error());
        dpa_bed_free(&d);
        return st == DPA_ERR_INVALID_ARG ? 2 : 1;
    }
    printf("%s: %d samples, %lld variants (%lld autosomal)\n", argv[4], d.num_samples,
           (long long)d.num_variants, (long long)d.autosomal_count);
    dpa_bed_free(&d);
    return 0;
}
