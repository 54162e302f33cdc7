/*
 * bed_gen.h — a seeded generator of PLINK 1 binary filesets (.bed/.bim/.fam) that looks like a
 * cohort a QC run sees, for the genotype-distance tests, the PLINK comparison and the bench.
 *
 * What is in it (docs/distance.md, "Data"):
 *   - three populations drawn by Balding-Nichols from one ancestral frequency per variant
 *     (F_ST = 0.05), and admixed samples (a per-sample share of two populations);
 *   - 30% rare variants (ancestral frequency 0.001-0.02) and ~3% monomorphic ones;
 *   - families: trios (a child of two founders) with a sibling, and duplicates (a copy of a
 *     sample with 0.1% discordant calls);
 *   - per-sample missingness drawn in 0.5-20%, and 1% of the variants with 10% more;
 *   - ~3% of the variants on chromosomes 23 (X), 24 (Y), 26 (MT): the distance skips them.
 * The same seed and shape give the same bytes on every machine (integer RNG, no libm in the
 * draws that decide a genotype beyond IEEE double arithmetic).
 *
 * Tools and tests only (static dpaccel_io); never in libdpaccel.so.
 */
#ifndef DPA_IO_BED_GEN_H
#define DPA_IO_BED_GEN_H

#include <stdint.h>

#include "dpaccel.h"

typedef struct dpa_bed_data {
    int32_t num_samples;
    int64_t num_variants;
    int64_t row_bytes;       /* (num_samples + 3) / 4 */
    uint8_t *genotypes;      /* SNP-major .bed rows (no magic), num_variants * row_bytes */
    uint8_t *chrom;          /* per variant: 1..22, 23 X, 24 Y, 26 MT */
    uint8_t *autosomal;      /* per variant: 1 when chrom is 1..22 */
    int64_t autosomal_count;
} dpa_bed_data;

/* Generates num_samples x num_variants with the seed. Errors: DPA_ERR_INVALID_ARG for a
 * size below 1, DPA_ERR_OUT_OF_MEMORY. */
dpa_status dpa_bed_generate(int32_t num_samples, int64_t num_variants, uint64_t seed,
                            dpa_bed_data *out);
/* Writes PREFIX.bed, PREFIX.bim and PREFIX.fam (FID famK, IID sK, no parents, sex unknown,
 * phenotype -9: relatives are only in the genotypes, as in a cohort before QC). DPA_ERR_INVALID_ARG naming the file when it cannot be written. */
dpa_status dpa_bed_write(const dpa_bed_data *data, const char *prefix);
/* Writes the same genotypes as PREFIX.vcf (VCFv4.2, plain text: bgzip it for a .vcf.gz): REF
 * = A2 (G), ALT = A1 (A), so GT counts A1 alleles (.bed 00 -> 1/1, 10 -> 0/1, 11 -> 0/0, 01 ->
 * ./.); every call diploid, chromosomes 23/24/26 written X/Y/MT; sample IDs sK. */
dpa_status dpa_bed_write_vcf(const dpa_bed_data *data, const char *prefix);
void dpa_bed_free(dpa_bed_data *data);

#endif
