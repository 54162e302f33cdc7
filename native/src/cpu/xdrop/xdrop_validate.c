/*
 * xdrop_validate.c — every check an X-drop batch and its parameters must pass before a
 * kernel sees them. Messages name the field, the pair index, the value and the limit.
 *
 * The limits keep SeqAn's arithmetic exact in int32: with |match|, |mismatch|, |gap| <=
 * 1000 and lengths below 2^20, SeqAn's penalty clamp (INT_MIN / (2 * max(cols, rows)) <=
 * -1023) never changes a score, d * gap never leaves int32, and every output is bounded by
 * 1000 * (query_length + target_length) < 2^31. What C cannot check: that the arrays hold
 * offset + length bytes (the Java facade packs them itself).
 *
 * Bytes must be letters. Many seeds usually share a read, so a sequence is scanned only
 * when its (offset, length) differs from the one the previous pair used on that side. The
 * checks come in two passes, every pair's fields first, then the bytes, so the engine can
 * scan the bytes of a large batch on its threads (engine/xdrop_workload.c); a batch with a
 * bad field and a bad byte reports the field.
 */
#include <inttypes.h>

#include "common/status.h"
#include "cpu/xdrop/xdrop.h"

dpa_status dpa_xdrop_check_params(const dpa_xdrop_params *p)
{
    if (!p) return dpa_fail(DPA_ERR_NULL_ARG, "xdrop: params is NULL");
    if (p->match < 1 || p->match > DPA_XDROP_MAX_SCORE)
        return dpa_fail(DPA_ERR_INVALID_ARG, "xdrop params: match = %d, must be in [1, %d]",
                        p->match, DPA_XDROP_MAX_SCORE);
    if (p->mismatch < -DPA_XDROP_MAX_SCORE || p->mismatch > -1)
        return dpa_fail(DPA_ERR_INVALID_ARG, "xdrop params: mismatch = %d, must be in [%d, -1]",
                        p->mismatch, -DPA_XDROP_MAX_SCORE);
    if (p->gap < -DPA_XDROP_MAX_SCORE || p->gap > -1)
        return dpa_fail(DPA_ERR_INVALID_ARG, "xdrop params: gap = %d, must be in [%d, -1]",
                        p->gap, -DPA_XDROP_MAX_SCORE);
    if (p->xdrop < 0 || p->xdrop > DPA_XDROP_MAX_X)
        return dpa_fail(DPA_ERR_INVALID_ARG, "xdrop params: xdrop = %d, must be in [0, %d]",
                        p->xdrop, DPA_XDROP_MAX_X);
    if (p->backend < -1 || p->backend > DPA_BACKEND_HYBRID)
        return dpa_fail(DPA_ERR_INVALID_ARG, "xdrop params: backend = %d, must be -1..3",
                        p->backend);
    return DPA_OK;
}

static int is_letter(uint8_t c) { return (uint8_t)((c | 0x20) - 'a') < 26; }

/* Branch-free over blocks of 64 bytes, so the compiler vectorises it: a batch of long reads
 * is a gigabyte of bytes, and a byte-at-a-time loop was most of a GPU call (DECISIONS 112). */
int dpa_xdrop_all_letters(const uint8_t *s, int32_t len)
{
    int32_t j = 0;
    for (; j + 64 <= len; j += 64) {
        uint8_t bad = 0;
        for (int k = 0; k < 64; k++) bad |= (uint8_t)((uint8_t)((s[j + k] | 0x20) - 'a') >= 26);
        if (bad) return 0;
    }
    for (; j < len; j++)
        if (!is_letter(s[j])) return 0;
    return 1;
}

dpa_status dpa_xdrop_letters_error(const dpa_xdrop_batch *b, int32_t i)
{
    const char *field[2] = { "query", "target" };
    const uint8_t *s[2] = { b->query_bases + b->query_offsets[i],
                            b->target_bases + b->target_offsets[i] };
    const int32_t len[2] = { b->query_lengths[i], b->target_lengths[i] };
    for (int k = 0; k < 2; k++)
        for (int32_t j = 0; j < len[k]; j++)
            if (!is_letter(s[k][j]))
                return dpa_fail(DPA_ERR_INVALID_ARG,
                                "xdrop batch: pair %d: %s byte %d = 0x%02x is not a letter", i,
                                field[k], j, s[k][j]);
    return dpa_fail(DPA_ERR_INTERNAL, "xdrop batch: pair %d: no bad byte found", i);
}

int32_t dpa_xdrop_first_bad_letters(const dpa_xdrop_batch *b, int32_t first, int32_t end)
{
    for (int32_t i = first; i < end; i++) {
        if (dpa_xdrop_new_query(b, i) &&
            !dpa_xdrop_all_letters(b->query_bases + b->query_offsets[i], b->query_lengths[i]))
            return i;
        if (dpa_xdrop_new_target(b, i) &&
            !dpa_xdrop_all_letters(b->target_bases + b->target_offsets[i], b->target_lengths[i]))
            return i;
    }
    return -1;
}

static dpa_status check_length(int32_t i, const char *field, int32_t len)
{
    if (len < 1 || len > DPA_XDROP_MAX_LENGTH)
        return dpa_fail(len < 1 ? DPA_ERR_INVALID_ARG : DPA_ERR_LIMIT,
                        "xdrop batch: %s[%d] = %d, must be in [1, %d]", field, i, len,
                        DPA_XDROP_MAX_LENGTH);
    return DPA_OK;
}

static dpa_status check_offset(int32_t i, const char *field, int64_t off, int32_t len)
{
    if (off < 0 || off > INT64_MAX - len)
        return dpa_fail(DPA_ERR_INVALID_ARG, "xdrop batch: %s[%d] = %" PRId64 " is invalid",
                        field, i, off);
    return DPA_OK;
}

static dpa_status check_pair(const dpa_xdrop_batch *b, int32_t i)
{
    const int32_t ql = b->query_lengths[i], tl = b->target_lengths[i];
    dpa_status st;
    if ((st = check_length(i, "query_lengths", ql)) || (st = check_length(i, "target_lengths", tl)) ||
        (st = check_offset(i, "query_offsets", b->query_offsets[i], ql)) ||
        (st = check_offset(i, "target_offsets", b->target_offsets[i], tl)))
        return st;
    const int32_t qpos = b->qpos[i], tpos = b->tpos[i], len = b->seed_lengths[i];
    if (len < 0)
        return dpa_fail(DPA_ERR_INVALID_ARG, "xdrop batch: seed_lengths[%d] = %d, must be >= 0",
                        i, len);
    if (qpos < 0 || qpos > ql - len)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "xdrop batch: qpos[%d] = %d with seed length %d, must be in [0, %d] "
                        "(query length %d)", i, qpos, len, ql - len < 0 ? -1 : ql - len, ql);
    if (tpos < 0 || tpos > tl - len)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "xdrop batch: tpos[%d] = %d with seed length %d, must be in [0, %d] "
                        "(target length %d)", i, tpos, len, tl - len < 0 ? -1 : tl - len, tl);
    if (b->strands[i] > DPA_XDROP_REVERSE)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        "xdrop batch: strands[%d] = %d, must be 0 (forward) or 1 (reverse)", i,
                        b->strands[i]);
    return DPA_OK;
}

dpa_status dpa_xdrop_validate_shape(const dpa_xdrop_batch *b, const dpa_xdrop_params *p)
{
    dpa_status st = dpa_xdrop_check_params(p);
    if (st) return st;
    if (!b) return dpa_fail(DPA_ERR_NULL_ARG, "xdrop batch is NULL");
    if (b->num_pairs < 0)
        return dpa_fail(DPA_ERR_INVALID_ARG, "xdrop batch: num_pairs = %d, must be >= 0",
                        b->num_pairs);
    if (b->num_pairs == 0) return DPA_OK;
    const void *ptrs[10] = { b->query_bases, b->query_offsets, b->query_lengths,
                             b->target_bases, b->target_offsets, b->target_lengths,
                             b->qpos, b->tpos, b->seed_lengths, b->strands };
    static const char *const names[10] = { "query_bases", "query_offsets", "query_lengths",
                                           "target_bases", "target_offsets", "target_lengths",
                                           "qpos", "tpos", "seed_lengths", "strands" };
    for (int k = 0; k < 10; k++)
        if (!ptrs[k]) return dpa_fail(DPA_ERR_NULL_ARG, "xdrop batch: %s is NULL", names[k]);
    for (int32_t i = 0; i < b->num_pairs; i++)
        if ((st = check_pair(b, i))) return st;
    return DPA_OK;
}

DPA_API dpa_status dpa_xdrop_validate(const dpa_xdrop_batch *b, const dpa_xdrop_params *p)
{
    dpa_status st = dpa_xdrop_validate_shape(b, p);
    if (st || b->num_pairs == 0) return st;
    const int32_t bad = dpa_xdrop_first_bad_letters(b, 0, b->num_pairs);
    return bad < 0 ? DPA_OK : dpa_xdrop_letters_error(b, bad);
}
