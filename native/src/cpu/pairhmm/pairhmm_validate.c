/*
 * pairhmm_validate.c — every check a PairHMM batch must pass before any kernel sees it.
 * Messages name the field, the index and the limit, because the person reading them is
 * usually looking at a HaplotypeCaller log hours into a run.
 *
 * What C cannot check: that each array really holds offset+length bytes. The Java facade
 * packs the arrays itself, so the sizes are right by construction there.
 */
#include <string.h>

#include "common/status.h"
#include "cpu/pairhmm/pairhmm.h"
#include "cpu/pairhmm/pairhmm_validate.h"

#define REQUIRE_PTR(p, name)                                                               \
    do {                                                                                   \
        if (!(p)) return dpa_fail(DPA_ERR_NULL_ARG, "pairhmm batch: %s is NULL", name);    \
    } while (0)

static dpa_status check_seq(const char *kind, int32_t i, int64_t off, int32_t len)
{
    if (len < 1 || len > DPA_PAIRHMM_MAX_LENGTH)
        return dpa_fail(len < 1 ? DPA_ERR_INVALID_ARG : DPA_ERR_LIMIT,
                        "pairhmm batch: %s_lengths[%d] = %d, must be in [1, %d]", kind, i, len,
                        DPA_PAIRHMM_MAX_LENGTH);
    if (off < 0 || off > INT64_MAX - len)
        return dpa_fail(DPA_ERR_INVALID_ARG, "pairhmm batch: %s_offsets[%d] = %lld is invalid",
                        kind, i, (long long)off);
    return DPA_OK;
}

_Static_assert(DPA_PAIRHMM_MAX_QUAL == 127, "check_quals tests the high bit");

/* The message for the first out-of-range byte of one array (only called on a read that
 * dpa_pairhmm_first_bad_quals found). */
static dpa_status check_quals(const char *field, int32_t read, const uint8_t *q, int32_t len)
{
    for (int32_t k = 0; k < len; k++) {
        if (q[k] > DPA_PAIRHMM_MAX_QUAL)
            return dpa_fail(DPA_ERR_INVALID_ARG,
                            "pairhmm batch: %s of read %d at position %d = %u, must be in [0, %d]",
                            field, read, k, q[k], DPA_PAIRHMM_MAX_QUAL);
    }
    return DPA_OK;
}

DPA_API dpa_status dpa_pairhmm_result_count(const dpa_pairhmm_batch *b, int64_t *out)
{
    if (!b) return dpa_fail(DPA_ERR_NULL_ARG, "pairhmm batch is NULL");
    if (!out) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_pairhmm_result_count: out is NULL");
    if (b->num_reads < 0 || b->num_haps < 0 || b->num_groups < 0)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "pairhmm batch: num_reads = %d, num_haps = %d, num_groups = %d must be >= 0",
                        b->num_reads, b->num_haps, b->num_groups);
    if (b->num_groups == 0) {
        *out = (int64_t)b->num_reads * b->num_haps;
        return DPA_OK;
    }
    REQUIRE_PTR(b->group_num_reads, "group_num_reads");
    REQUIRE_PTR(b->group_num_haps, "group_num_haps");
    int64_t reads = 0, haps = 0, total = 0;
    for (int32_t g = 0; g < b->num_groups; g++) {
        int32_t r = b->group_num_reads[g], h = b->group_num_haps[g];
        if (r < 0 || h < 0)
            return dpa_fail(DPA_ERR_INVALID_ARG,
                            "pairhmm batch: group %d has %d reads and %d haplotypes, must be >= 0",
                            g, r, h);
        reads += r;
        haps += h;
        total += (int64_t)r * h; /* <= 2^31 groups * 2^62: cannot overflow before the check */
        if (reads > b->num_reads || haps > b->num_haps)
            return dpa_fail(DPA_ERR_INVALID_ARG,
                            "pairhmm batch: groups 0..%d use %lld reads / %lld haplotypes, more "
                            "than num_reads = %d / num_haps = %d", g, (long long)reads,
                            (long long)haps, b->num_reads, b->num_haps);
    }
    if (reads != b->num_reads || haps != b->num_haps)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "pairhmm batch: groups cover %lld reads / %lld haplotypes, but num_reads "
                        "= %d / num_haps = %d", (long long)reads, (long long)haps, b->num_reads,
                        b->num_haps);
    *out = total;
    return DPA_OK;
}

dpa_status dpa_pairhmm_validate_shape(const dpa_pairhmm_batch *b)
{
    int64_t count;
    dpa_status st = dpa_pairhmm_result_count(b, &count);
    if (st) return st;
    if (b->num_reads > 0) {
        REQUIRE_PTR(b->read_bases, "read_bases");
        REQUIRE_PTR(b->base_quals, "base_quals");
        REQUIRE_PTR(b->ins_quals, "ins_quals");
        REQUIRE_PTR(b->del_quals, "del_quals");
        REQUIRE_PTR(b->gcp_quals, "gcp_quals");
        REQUIRE_PTR(b->read_offsets, "read_offsets");
        REQUIRE_PTR(b->read_lengths, "read_lengths");
    }
    if (b->num_haps > 0) {
        REQUIRE_PTR(b->hap_bases, "hap_bases");
        REQUIRE_PTR(b->hap_offsets, "hap_offsets");
        REQUIRE_PTR(b->hap_lengths, "hap_lengths");
    }
    for (int32_t i = 0; i < b->num_reads; i++)
        if ((st = check_seq("read", i, b->read_offsets[i], b->read_lengths[i]))) return st;
    for (int32_t i = 0; i < b->num_haps; i++)
        if ((st = check_seq("hap", i, b->hap_offsets[i], b->hap_lengths[i]))) return st;
    return DPA_OK;
}

int32_t dpa_pairhmm_first_bad_quals(const dpa_pairhmm_batch *b, int32_t first, int32_t last)
{
    /* One pass over the four quality arrays of a read (a GPU call of 30 k pairs spent
     * ~0.35 ms here with a pass per array); values above 127 are exactly the bytes with
     * the high bit set, tested 8 at a time. */
    for (int32_t i = first; i < last; i++) {
        const int64_t off = b->read_offsets[i];
        const int32_t len = b->read_lengths[i];
        const uint8_t *q0 = b->base_quals + off, *q1 = b->ins_quals + off;
        const uint8_t *q2 = b->del_quals + off, *q3 = b->gcp_quals + off;
        uint64_t any = 0;
        int32_t k = 0;
        for (; k + 8 <= len; k += 8) {
            uint64_t w0, w1, w2, w3;
            memcpy(&w0, q0 + k, 8);
            memcpy(&w1, q1 + k, 8);
            memcpy(&w2, q2 + k, 8);
            memcpy(&w3, q3 + k, 8);
            any |= w0 | w1 | w2 | w3;
        }
        for (; k < len; k++) any |= (uint64_t)(q0[k] | q1[k] | q2[k] | q3[k]);
        if (any & UINT64_C(0x8080808080808080)) return i;
    }
    return -1;
}

dpa_status dpa_pairhmm_quals_error(const dpa_pairhmm_batch *b, int32_t i)
{
    const int64_t off = b->read_offsets[i];
    const int32_t len = b->read_lengths[i];
    dpa_status st;
    if ((st = check_quals("base_quals", i, b->base_quals + off, len))) return st;
    if ((st = check_quals("ins_quals", i, b->ins_quals + off, len))) return st;
    if ((st = check_quals("del_quals", i, b->del_quals + off, len))) return st;
    return check_quals("gcp_quals", i, b->gcp_quals + off, len);
}

DPA_API dpa_status dpa_pairhmm_validate(const dpa_pairhmm_batch *b)
{
    dpa_status st = dpa_pairhmm_validate_shape(b);
    if (st) return st;
    const int32_t bad = dpa_pairhmm_first_bad_quals(b, 0, b->num_reads);
    return bad < 0 ? DPA_OK : dpa_pairhmm_quals_error(b, bad);
}
