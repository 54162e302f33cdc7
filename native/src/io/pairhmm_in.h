/*
 * pairhmm_in.h — reader of the PairHMM ".in" test format (MauricioCarneiro/PairHMM, the
 * shapes of the .in files in ../shared/data/pairhmm/) into a dpa_pairhmm_batch.
 *
 * Format: groups, each a header line "R H" (two decimal counts), then R read lines
 * "bases quals ins del gcp" (five fields; the four quality strings phred+33 and exactly as
 * long as the bases), then H haplotype lines (one field). Lines end in "\n"; fields are
 * separated by runs of space, tab, CR, VT or FF (so "\r\n" files read the same); every other
 * byte, NUL included, belongs to a field. Blank lines and lines starting with '#' may stand
 * where a header is expected. Each group becomes one batch group. Values are taken as written:
 * no base-quality floor (GATK's caller floors at 6; the bench tools decide for themselves).
 *
 * Not part of the public API: used by tools (dpa_cuda_bench) and the fuzzer, and linked from
 * the static dpaccel_io library, never into libdpaccel.so. Every rejected input is
 * DPA_ERR_INVALID_ARG (or DPA_ERR_LIMIT for sizes) with dpa_last_error() naming the line,
 * the field and the rule, e.g. "pairhmm .in line 7: ins quality has 40 characters, the
 * read 41"; a batch that parses always passes dpa_pairhmm_validate().
 */
#ifndef DPA_IO_PAIRHMM_IN_H
#define DPA_IO_PAIRHMM_IN_H

#include <stddef.h>
#include <stdint.h>

#include "dpaccel.h"

typedef struct dpa_in_data {
    dpa_pairhmm_batch batch; /* views into the arrays below */
    int64_t read_bytes, hap_bytes;
    uint8_t *read_bases, *base_quals, *ins_quals, *del_quals, *gcp_quals, *hap_bases;
    int64_t *read_offsets, *hap_offsets;
    int32_t *read_lengths, *hap_lengths, *group_num_reads, *group_num_haps;
} dpa_in_data;

/* Parses len bytes of text (no terminator needed; NUL bytes are ordinary bytes). On success
 * *out owns its arrays (dpa_in_free); on failure *out is left empty. */
dpa_status dpa_in_parse(const char *text, size_t len, dpa_in_data *out);
/* Reads a whole file and parses it; the message names the path. */
dpa_status dpa_in_read_file(const char *path, dpa_in_data *out);
/* Frees what a successful parse allocated; NULL and an emptied struct are harmless. */
void dpa_in_free(dpa_in_data *data);

#endif
