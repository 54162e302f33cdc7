/*
 * pdhmm_validate.c — every check a PDHMM batch must pass before a kernel sees it. Messages
 * name the field, the pair, the index, the value and the limit.
 *
 * The one data-dependent rule is GATK's: LoglessPDPairHMM.isBasePDMatching throws "Found
 * unexpected base in alt alleles" when a SNP-flagged haplotype position is compared with a
 * read byte outside A C G T (either case); the comparison only happens when the bytes
 * differ and neither is 'N'. Checked in O(read + hap) per pair: the read's distinct "odd"
 * bytes (not ACGTacgtN) are collected first; an odd byte fails at a SNP position unless it
 * is that position's own haplotype byte, or that byte is 'N'.
 *
 * What C cannot check: that the arrays hold offset + length bytes (the Java facade packs
 * them itself). Many pairs share a read or a haplotype, so a sequence is scanned only when
 * its (offset, length) differs from the previous pair's on that side.
 */
#include <inttypes.h>
#include <string.h>

#include "common/status.h"
#include "cpu/pdhmm/pdhmm.h"

static dpa_status check_length(int32_t k, const char *field, int32_t len)
{
    if (len < 1 || len > DPA_PDHMM_MAX_LENGTH)
        return dpa_fail(len < 1 ? DPA_ERR_INVALID_ARG : DPA_ERR_LIMIT,
                        "pdhmm batch: %s[%d] = %d, must be in [1, %d]", field, k, len,
                        DPA_PDHMM_MAX_LENGTH);
    return DPA_OK;
}

static dpa_status check_quals(int32_t k, const char *field, const uint8_t *q, int32_t len)
{
    /* an OR over the bytes first (the compiler vectorises it; an early-exit loop it does
     * not), the position only when a byte is out of range */
    uint8_t any = 0;
    for (int32_t i = 0; i < len; i++) any |= q[i];
    if (any <= 127) return DPA_OK;
    for (int32_t i = 0; i < len; i++)
        if (q[i] > 127)
            return dpa_fail(DPA_ERR_INVALID_ARG,
                            "pdhmm batch: pair %d: %s[%d] = %d (byte %d), must be in [0, 127]",
                            k, field, i, q[i], (int8_t)q[i]);
    return DPA_OK;
}

static int is_odd_base(uint8_t x) { return x != 'N' && dpa_pdhmm_base_bit(x) == 0; }

static dpa_status check_snp_bases(int32_t k, const dpa_pdhmm_pair *p)
{
    /* reads are nearly always A C G T N: a branch-free pass the compiler vectorises clears
     * them before the scan for odd bytes */
    int odd_seen = 0;
    for (int32_t i = 0; i < p->read_len; i++) {
        const uint8_t x = p->read[i];
        odd_seen |= !(x == 'A' || x == 'C' || x == 'G' || x == 'T' || x == 'N' || x == 'a' || x == 'c' ||
                      x == 'g' || x == 't');
    }
    if (!odd_seen) return DPA_OK;
    /* the first two distinct odd bytes and where they first occur suffice: a SNP position
     * fails unless every odd byte equals its haplotype byte */
    int32_t n_odd = 0, at[2] = { -1, -1 };
    uint8_t odd[2] = { 0, 0 };
    for (int32_t i = 0; i < p->read_len && n_odd < 2; i++) {
        const uint8_t x = p->read[i];
        if (!is_odd_base(x) || (n_odd == 1 && x == odd[0])) continue;
        odd[n_odd] = x;
        at[n_odd++] = i;
    }
    if (n_odd == 0) return DPA_OK;
    for (int32_t j = 0; j < p->hap_len; j++) {
        const uint8_t y = p->hap[j];
        if (!(p->pd[j] & DPA_PD_SNP) || y == 'N') continue;
        const int c = odd[0] != y ? 0 : (n_odd > 1 ? 1 : -1);
        if (c < 0) continue;
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "pdhmm batch: pair %d: read_bases[%d] = 0x%02x is not A/C/G/T/N but "
                        "meets SNP position hap_pd_bases[%d] = 0x%02x (GATK: \"Found "
                        "unexpected base in alt alleles\")",
                        k, at[c], odd[c], j, p->pd[j]);
    }
    return DPA_OK;
}

DPA_API dpa_status dpa_pdhmm_validate(const dpa_pdhmm_batch *b)
{
    if (!b) return dpa_fail(DPA_ERR_NULL_ARG, "pdhmm: batch is NULL");
    if (b->num_pairs < 0)
        return dpa_fail(DPA_ERR_INVALID_ARG, "pdhmm batch: num_pairs = %d, must be >= 0",
                        b->num_pairs);
    if (b->num_pairs == 0) return DPA_OK;
    const void *ptrs[11] = { b->hap_bases,  b->hap_pd_bases, b->hap_offsets, b->hap_lengths,
                             b->read_bases, b->base_quals,   b->ins_quals,   b->del_quals,
                             b->gcp_quals,  b->read_offsets, b->read_lengths };
    static const char *const names[11] = { "hap_bases",  "hap_pd_bases", "hap_offsets",
                                           "hap_lengths", "read_bases",  "base_quals",
                                           "ins_quals",  "del_quals",    "gcp_quals",
                                           "read_offsets", "read_lengths" };
    for (int f = 0; f < 11; f++)
        if (!ptrs[f]) return dpa_fail(DPA_ERR_NULL_ARG, "pdhmm batch: %s is NULL", names[f]);
    int64_t last_ro = -1, last_ho = -1;
    int32_t last_rl = -1, last_hl = -1;
    for (int32_t k = 0; k < b->num_pairs; k++) {
        dpa_status st;
        if ((st = check_length(k, "hap_lengths", b->hap_lengths[k]))) return st;
        if ((st = check_length(k, "read_lengths", b->read_lengths[k]))) return st;
        if (b->hap_offsets[k] < 0)
            return dpa_fail(DPA_ERR_INVALID_ARG, "pdhmm batch: hap_offsets[%d] = %" PRId64
                            " is negative", k, b->hap_offsets[k]);
        if (b->read_offsets[k] < 0)
            return dpa_fail(DPA_ERR_INVALID_ARG, "pdhmm batch: read_offsets[%d] = %" PRId64
                            " is negative", k, b->read_offsets[k]);
        const int64_t cells = (int64_t)b->hap_lengths[k] * b->read_lengths[k];
        if (cells > DPA_PDHMM_MAX_CELLS)
            return dpa_fail(DPA_ERR_LIMIT, "pdhmm batch: pair %d: read_len %d x hap_len %d = %"
                            PRId64 " cells exceeds %" PRId64, k, b->read_lengths[k],
                            b->hap_lengths[k], cells, (int64_t)DPA_PDHMM_MAX_CELLS);
        const dpa_pdhmm_pair p = dpa_pdhmm_pair_of(b, k);
        const int same_read = p.read_len == last_rl && b->read_offsets[k] == last_ro;
        const int same_hap = p.hap_len == last_hl && b->hap_offsets[k] == last_ho;
        if (!same_read) {
            if ((st = check_quals(k, "base_quals", p.base_q, p.read_len))) return st;
            if ((st = check_quals(k, "ins_quals", p.ins_q, p.read_len))) return st;
            if ((st = check_quals(k, "del_quals", p.del_q, p.read_len))) return st;
            if ((st = check_quals(k, "gcp_quals", p.gcp_q, p.read_len))) return st;
        }
        if (!same_read || !same_hap)
            if ((st = check_snp_bases(k, &p))) return st;
        last_ro = b->read_offsets[k];
        last_rl = p.read_len;
        last_ho = b->hap_offsets[k];
        last_hl = p.hap_len;
    }
    return DPA_OK;
}
