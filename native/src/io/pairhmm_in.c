/*
 * pairhmm_in.c — see pairhmm_in.h. The parser never trusts a count it reads: arrays grow
 * with the lines actually present, so a header promising 2^31 reads costs nothing until the
 * reads are there, and the file ending early is an error naming the group's header line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"
#include "io/pairhmm_in.h"

#define WHERE "pairhmm .in line %lld: "

/* A growable array of elem-byte items. */
typedef struct vec {
    void *p;
    int64_t n, cap;
    size_t elem;
} vec;

static int vec_put(vec *v, const void *src, int64_t count)
{
    if (count == 0) return 1;
    if (count > v->cap - v->n) {
        int64_t cap = v->cap ? v->cap : 64;
        while (cap - v->n < count) {
            if (cap > INT64_MAX / 2 || (uint64_t)cap * 2 > SIZE_MAX / v->elem) return 0;
            cap *= 2;
        }
        void *p = realloc(v->p, (size_t)cap * v->elem);
        if (!p) return 0;
        v->p = p;
        v->cap = cap;
    }
    memcpy((char *)v->p + (size_t)v->n * v->elem, src, (size_t)count * v->elem);
    v->n += count;
    return 1;
}

enum { RB, BQ, IQ, DQ, GQ, HB, RO, HO, RL, HL, GR, GH, NVEC };

typedef struct parser {
    const char *p, *end;
    long long line_no;
    vec v[NVEC];
} parser;

typedef struct field { const char *p; int64_t n; } field;

/* Java's \\s less the newline: what separates fields (and what a field never holds, so a
 * parsed batch written back with single spaces parses to the same bytes). */
static int is_sep(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Next line without its terminator; 0 at the end of the text. */
static int next_line(parser *s, field *line)
{
    if (s->p >= s->end) return 0;
    const char *nl = memchr(s->p, '\n', (size_t)(s->end - s->p));
    const char *e = nl ? nl : s->end;
    line->p = s->p;
    line->n = e - s->p;
    s->p = nl ? nl + 1 : s->end;
    s->line_no++;
    return 1;
}

/* Splits on separators; returns the number of fields, counting at most max + 1 (so
 * "too many" is visible without scanning a long line twice). */
static int split(field line, field *f, int max)
{
    int k = 0;
    int64_t i = 0;
    while (i < line.n) {
        while (i < line.n && is_sep(line.p[i])) i++;
        if (i == line.n) break;
        const int64_t start = i;
        while (i < line.n && !is_sep(line.p[i])) i++;
        if (k == max) return max + 1;
        f[k].p = line.p + start;
        f[k].n = i - start;
        k++;
    }
    return k;
}

static int is_skippable(field line)
{
    int64_t i = 0;
    while (i < line.n && is_sep(line.p[i])) i++;
    return i == line.n || line.p[i] == '#';
}

/* A decimal count in [0, INT32_MAX]; -1 if the field is anything else. */
static int64_t count_of(field f)
{
    if (f.n < 1 || f.n > 10) return -1;
    int64_t v = 0;
    for (int64_t i = 0; i < f.n; i++) {
        if (f.p[i] < '0' || f.p[i] > '9') return -1;
        v = v * 10 + (f.p[i] - '0');
    }
    return v <= INT32_MAX ? v : -1;
}

static dpa_status oom(const parser *s)
{
    return dpa_fail(DPA_ERR_OUT_OF_MEMORY, WHERE "out of memory", s->line_no);
}

static dpa_status check_length(const parser *s, const char *what, field f)
{
    if (f.n > DPA_PAIRHMM_MAX_LENGTH)
        return dpa_fail(DPA_ERR_LIMIT, WHERE "%s has %lld bases, the limit is %d", s->line_no,
                        what, (long long)f.n, DPA_PAIRHMM_MAX_LENGTH);
    return DPA_OK;
}

static const char *const qual_names[4] = { "base quality", "ins quality", "del quality",
                                           "gcp quality" };

static dpa_status read_line(parser *s, field line)
{
    field f[5];
    const int k = split(line, f, 5);
    if (k != 5)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        WHERE "a read line has 5 fields (bases quals ins del gcp), found %s%d",
                        s->line_no, k > 5 ? "more than " : "", k > 5 ? 5 : k);
    dpa_status st = check_length(s, "the read", f[0]);
    if (st) return st;
    const int32_t len = (int32_t)f[0].n;
    for (int q = 0; q < 4; q++) {
        const field qf = f[q + 1];
        if (qf.n != len)
            return dpa_fail(DPA_ERR_INVALID_ARG,
                            WHERE "%s has %lld characters, the read %d", s->line_no,
                            qual_names[q], (long long)qf.n, len);
        for (int32_t i = 0; i < len; i++) {
            const unsigned char c = (unsigned char)qf.p[i];
            if (c < 33 || c > 33 + DPA_PAIRHMM_MAX_QUAL)
                return dpa_fail(DPA_ERR_INVALID_ARG,
                                WHERE "%s character %d is byte %u, phred+33 allows %d..%d",
                                s->line_no, qual_names[q], i, c, 33, 33 + DPA_PAIRHMM_MAX_QUAL);
        }
    }
    const int64_t off = s->v[RB].n;
    uint8_t *tmp = malloc((size_t)len);
    if (!tmp) return oom(s);
    int ok = vec_put(&s->v[RO], &off, 1) && vec_put(&s->v[RL], &len, 1) &&
             vec_put(&s->v[RB], f[0].p, len);
    for (int q = 0; ok && q < 4; q++) {
        for (int32_t i = 0; i < len; i++) tmp[i] = (uint8_t)((unsigned char)f[q + 1].p[i] - 33);
        ok = vec_put(&s->v[BQ + q], tmp, len);
    }
    free(tmp);
    return ok ? DPA_OK : oom(s);
}

static dpa_status hap_line(parser *s, field line)
{
    field f[1];
    const int k = split(line, f, 1);
    if (k != 1)
        return dpa_fail(DPA_ERR_INVALID_ARG, WHERE "a haplotype line has 1 field, found %s%d",
                        s->line_no, k > 1 ? "more than " : "", k > 1 ? 1 : k);
    dpa_status st = check_length(s, "the haplotype", f[0]);
    if (st) return st;
    const int64_t off = s->v[HB].n;
    const int32_t len = (int32_t)f[0].n;
    if (!vec_put(&s->v[HO], &off, 1) || !vec_put(&s->v[HL], &len, 1) ||
        !vec_put(&s->v[HB], f[0].p, len))
        return oom(s);
    return DPA_OK;
}

static dpa_status group(parser *s, field header)
{
    field f[2];
    const long long header_no = s->line_no;
    const int k = split(header, f, 2);
    const int64_t R = k == 2 ? count_of(f[0]) : -1, H = k == 2 ? count_of(f[1]) : -1;
    if (R < 0 || H < 0)
        return dpa_fail(DPA_ERR_INVALID_ARG,
                        WHERE "expected a group header 'R H' (two counts in [0, %d])",
                        header_no, INT32_MAX);
    if (R > INT32_MAX - s->v[RL].n || H > INT32_MAX - s->v[HL].n || s->v[GR].n == INT32_MAX)
        return dpa_fail(DPA_ERR_LIMIT,
                        WHERE "the group takes the batch past %d reads, haplotypes or groups",
                        header_no, INT32_MAX);
    const int32_t r32 = (int32_t)R, h32 = (int32_t)H;
    if (!vec_put(&s->v[GR], &r32, 1) || !vec_put(&s->v[GH], &h32, 1)) return oom(s);
    for (int64_t i = 0; i < R + H; i++) {
        field line;
        if (!next_line(s, &line))
            return dpa_fail(DPA_ERR_INVALID_ARG,
                            WHERE "the group of %lld reads and %lld haplotypes ends early: the "
                            "text ends after %lld of its lines", header_no, (long long)R,
                            (long long)H, (long long)i);
        dpa_status st = i < R ? read_line(s, line) : hap_line(s, line);
        if (st) return st;
    }
    return DPA_OK;
}

void dpa_in_free(dpa_in_data *d)
{
    if (!d) return;
    free(d->read_bases), free(d->base_quals), free(d->ins_quals), free(d->del_quals);
    free(d->gcp_quals), free(d->hap_bases), free(d->read_offsets), free(d->hap_offsets);
    free(d->read_lengths), free(d->hap_lengths), free(d->group_num_reads);
    free(d->group_num_haps);
    memset(d, 0, sizeof *d);
}

dpa_status dpa_in_parse(const char *text, size_t len, dpa_in_data *out)
{
    if (!out) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_in_parse: out is NULL");
    memset(out, 0, sizeof *out);
    if (!text && len) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_in_parse: text is NULL");
    parser s;
    memset(&s, 0, sizeof s);
    s.p = text;
    s.end = text ? text + len : text;
    const size_t elems[NVEC] = { 1, 1, 1, 1, 1, 1, 8, 8, 4, 4, 4, 4 };
    for (int i = 0; i < NVEC; i++) s.v[i].elem = elems[i];
    dpa_status st = DPA_OK;
    field line;
    while (st == DPA_OK && next_line(&s, &line))
        if (!is_skippable(line)) st = group(&s, line);
    if (st == DPA_OK && s.v[GR].n == 0)
        st = dpa_fail(DPA_ERR_INVALID_ARG, "pairhmm .in: no group header 'R H' in %lld lines",
                      s.line_no);
    if (st != DPA_OK) {
        for (int i = 0; i < NVEC; i++) free(s.v[i].p);
        return st;
    }
    out->read_bases = s.v[RB].p;
    out->base_quals = s.v[BQ].p;
    out->ins_quals = s.v[IQ].p;
    out->del_quals = s.v[DQ].p;
    out->gcp_quals = s.v[GQ].p;
    out->hap_bases = s.v[HB].p;
    out->read_offsets = s.v[RO].p;
    out->hap_offsets = s.v[HO].p;
    out->read_lengths = s.v[RL].p;
    out->hap_lengths = s.v[HL].p;
    out->group_num_reads = s.v[GR].p;
    out->group_num_haps = s.v[GH].p;
    out->read_bytes = s.v[RB].n;
    out->hap_bytes = s.v[HB].n;
    dpa_pairhmm_batch *b = &out->batch;
    b->num_reads = (int32_t)s.v[RL].n;
    b->read_bases = out->read_bases;
    b->base_quals = out->base_quals;
    b->ins_quals = out->ins_quals;
    b->del_quals = out->del_quals;
    b->gcp_quals = out->gcp_quals;
    b->read_offsets = out->read_offsets;
    b->read_lengths = out->read_lengths;
    b->num_haps = (int32_t)s.v[HL].n;
    b->hap_bases = out->hap_bases;
    b->hap_offsets = out->hap_offsets;
    b->hap_lengths = out->hap_lengths;
    b->num_groups = (int32_t)s.v[GR].n;
    b->group_num_reads = out->group_num_reads;
    b->group_num_haps = out->group_num_haps;
    return DPA_OK;
}

dpa_status dpa_in_read_file(const char *path, dpa_in_data *out)
{
    if (!out) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_in_read_file: out is NULL");
    memset(out, 0, sizeof *out);
    if (!path) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_in_read_file: path is NULL");
    FILE *f = fopen(path, "rb");
    if (!f) return dpa_fail(DPA_ERR_INVALID_ARG, "%s: cannot open (%s)", path, strerror(errno));
    vec text = { NULL, 0, 0, 1 };
    char chunk[1 << 16];
    size_t got;
    int ok = 1;
    while (ok && (got = fread(chunk, 1, sizeof chunk, f)) > 0) ok = vec_put(&text, chunk, (int64_t)got);
    const int read_error = ferror(f);
    fclose(f);
    dpa_status st;
    if (!ok) st = dpa_fail(DPA_ERR_OUT_OF_MEMORY, "%s: out of memory reading the file", path);
    else if (read_error) st = dpa_fail(DPA_ERR_INVALID_ARG, "%s: read error", path);
    else if ((st = dpa_in_parse(text.p, (size_t)text.n, out)) != DPA_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", dpa_last_error());
        st = dpa_fail(st, "%s: %s", path, msg);
    }
    free(text.p);
    return st;
}
