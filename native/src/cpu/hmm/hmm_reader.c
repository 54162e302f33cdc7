/*
 * hmm_reader.c — HMMER3/f (and 3/e) text reader. Follows HMMER 3.4's read_asc30hmm for what it stores
 * (so scores match hmmsearch) but is stricter about what it accepts: every number must be a
 * whole token, probabilities must be finite and >= 0 in -ln space, node lines must carry
 * exactly their fields, and COMPO plus the MSV and VITERBI STATS lines are required because
 * the filters need them. Unknown header tags are skipped, as HMMER does (Pfam's BM/SM lines).
 */
#include "cpu/hmm/hmm_model.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"

#define MAX_TOKENS 32

typedef struct line_reader {
    const char *text, *end, *origin;
    int64_t line_no;
    /* current line, split */
    int ntok;
    const char *tok[MAX_TOKENS];
    int toklen[MAX_TOKENS];
    const char *line;     /* start of the current line */
    size_t line_len;
    int model_index;
    char model_name[64];
} line_reader;

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Advances to the next line; returns 0 at end of text. Tokens past MAX_TOKENS are counted
 * but not kept, so field-count checks still see them. */
static int next_line(line_reader *r) {
    if (r->text >= r->end) return 0;
    const char *p = r->text;
    const char *nl = memchr(p, '\n', (size_t)(r->end - p));
    const char *e = nl ? nl : r->end;
    r->line = p;
    r->line_len = (size_t)(e - p);
    r->text = nl ? nl + 1 : r->end;
    r->line_no++;
    r->ntok = 0;
    while (p < e) {
        while (p < e && is_space(*p)) p++;
        if (p >= e) break;
        const char *s = p;
        while (p < e && !is_space(*p)) p++;
        if (r->ntok < MAX_TOKENS) {
            r->tok[r->ntok] = s;
            r->toklen[r->ntok] = (int)(p - s);
        }
        r->ntok++;
    }
    return 1;
}

/* Next line with at least one token. */
static int next_nonblank(line_reader *r) {
    while (next_line(r))
        if (r->ntok > 0) return 1;
    return 0;
}

static int tok_is(const line_reader *r, int i, const char *s) {
    return i < r->ntok && i < MAX_TOKENS && (size_t)r->toklen[i] == strlen(s) &&
           memcmp(r->tok[i], s, strlen(s)) == 0;
}

#define FAIL(r, st, ...) fail_at((r), (st), __VA_ARGS__)

static dpa_status fail_at(const line_reader *r, dpa_status st, const char *fmt, ...) DPA_PRINTF(3, 4);
static dpa_status fail_at(const line_reader *r, dpa_status st, const char *fmt, ...) {
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return dpa_fail(st, "%s line %lld (model %d%s%s%s): %s", r->origin, (long long)r->line_no,
                    r->model_index, r->model_name[0] ? " NAME \"" : "", r->model_name,
                    r->model_name[0] ? "\"" : "", msg);
}

/* Copies token i into buf (truncating only for messages). */
static const char *tok_str(const line_reader *r, int i, char *buf, size_t cap) {
    if (i >= r->ntok || i >= MAX_TOKENS) { snprintf(buf, cap, "(none)"); return buf; }
    int n = r->toklen[i] < (int)cap - 1 ? r->toklen[i] : (int)cap - 1;
    memcpy(buf, r->tok[i], (size_t)n);
    buf[n] = '\0';
    return buf;
}

/* Whole-token strtod; 0 on success. */
static int parse_double(const line_reader *r, int i, double *out) {
    char buf[64];
    if (i >= r->ntok || i >= MAX_TOKENS || r->toklen[i] >= (int)sizeof buf) return -1;
    tok_str(r, i, buf, sizeof buf);
    char *endp = NULL;
    errno = 0;
    double v = strtod(buf, &endp);
    if (endp == buf || *endp != '\0' || errno == ERANGE || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

static int parse_int(const line_reader *r, int i, long *out) {
    char buf[32];
    if (i >= r->ntok || i >= MAX_TOKENS || r->toklen[i] >= (int)sizeof buf) return -1;
    tok_str(r, i, buf, sizeof buf);
    char *endp = NULL;
    errno = 0;
    long v = strtol(buf, &endp, 10);
    if (endp == buf || *endp != '\0' || errno == ERANGE) return -1;
    *out = v;
    return 0;
}

/* A "-ln p" field: '*' is p = 0; otherwise a finite number >= 0. Stored as HMMER does:
 * expf of the negated value narrowed to float. */
static dpa_status parse_prob(const line_reader *r, int i, const char *what, int node, int col, float *out) {
    char buf[64];
    if (i < r->ntok && i < MAX_TOKENS && r->toklen[i] == 1 && r->tok[i][0] == '*') {
        *out = 0.0f;
        return DPA_OK;
    }
    double v;
    if (parse_double(r, i, &v) != 0 || v < 0.0)
        return FAIL(r, DPA_ERR_INVALID_ARG,
                    "%s of node %d, field %d: \"%s\" is not a -ln probability (a number >= 0 or '*')",
                    what, node, col + 1, tok_str(r, i, buf, sizeof buf));
    *out = expf((float)(-1.0 * v));
    return DPA_OK;
}

static char *dup_token(const line_reader *r, int i) {
    char *s = malloc((size_t)r->toklen[i] + 1);
    if (s) {
        memcpy(s, r->tok[i], (size_t)r->toklen[i]);
        s[r->toklen[i]] = '\0';
    }
    return s;
}

static void model_clear(dpa_hmm_model *m) {
    free(m->name);
    free(m->acc);
    free(m->mat);
    free(m->t);
    memset(m, 0, sizeof *m);
}

/* Parses one model starting at the current line (the HMMER3/f tag line). */
static dpa_status parse_model(line_reader *r, dpa_hmm_model *m) {
    char buf[64];
    memset(m, 0, sizeof *m);
    if (r->ntok < 1 || r->toklen[0] < 6 || memcmp(r->tok[0], "HMMER3", 6) != 0)
        return FAIL(r, DPA_ERR_INVALID_ARG, "expected a \"HMMER3/f\" (or 3/e) format line, found \"%s\"",
                    tok_str(r, 0, buf, sizeof buf));
    /* 3/e (HMMER 3.0-3.1b1) and 3/f (3.1b2-3.4) differ only in 3/f's MM column on match lines */
    const int is_3e = tok_is(r, 0, "HMMER3/e");
    if (!is_3e && !tok_is(r, 0, "HMMER3/f"))
        return FAIL(r, DPA_ERR_INVALID_ARG, "format \"%s\" is not supported (only HMMER3/e and HMMER3/f, written by HMMER 3.0-3.4)",
                    tok_str(r, 0, buf, sizeof buf));
    const int annot = is_3e ? 4 : 5;
    int have_alph = 0, have_msv = 0, have_vit = 0, have_leng = 0;
    long M = 0;
    dpa_status st = DPA_OK;
    for (;;) {
        if (!next_nonblank(r)) return FAIL(r, DPA_ERR_INVALID_ARG, "file ends inside the header (no \"HMM\" line)");
        if (tok_is(r, 0, "HMM")) break;
        if (tok_is(r, 0, "NAME")) {
            if (r->ntok < 2) return FAIL(r, DPA_ERR_INVALID_ARG, "NAME line has no name");
            free(m->name);
            if (!(m->name = dup_token(r, 1))) return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm reader: name");
            snprintf(r->model_name, sizeof r->model_name, "%s", m->name);
        } else if (tok_is(r, 0, "ACC")) {
            if (r->ntok < 2) return FAIL(r, DPA_ERR_INVALID_ARG, "ACC line has no accession");
            free(m->acc);
            if (!(m->acc = dup_token(r, 1))) return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm reader: acc");
        } else if (tok_is(r, 0, "LENG")) {
            if (parse_int(r, 1, &M) != 0 || M < 1 || M > DPA_HMM_MAX_M)
                return FAIL(r, DPA_ERR_LIMIT, "LENG \"%s\" is not a model length in [1, %d]",
                            tok_str(r, 1, buf, sizeof buf), DPA_HMM_MAX_M);
            have_leng = 1;
        } else if (tok_is(r, 0, "ALPH")) {
            if (!tok_is(r, 1, "amino"))
                return FAIL(r, DPA_ERR_INVALID_ARG, "ALPH \"%s\": only protein (amino) models are supported",
                            tok_str(r, 1, buf, sizeof buf));
            have_alph = 1;
        } else if (tok_is(r, 0, "STATS")) {
            double mu, lambda;
            if (r->ntok != 5 || !tok_is(r, 1, "LOCAL") || parse_double(r, 3, &mu) != 0 ||
                parse_double(r, 4, &lambda) != 0)
                return FAIL(r, DPA_ERR_INVALID_ARG, "STATS line must be \"STATS LOCAL <MSV|VITERBI|FORWARD> mu lambda\"");
            if (tok_is(r, 2, "MSV")) {
                m->msv_mu = (float)mu;
                m->msv_lambda = (float)lambda;
                have_msv = 1;
            } else if (tok_is(r, 2, "VITERBI")) {
                m->vit_mu = (float)mu;
                m->vit_lambda = (float)lambda;
                have_vit = 1;
            } else if (!tok_is(r, 2, "FORWARD")) {
                return FAIL(r, DPA_ERR_INVALID_ARG, "STATS LOCAL \"%s\" is not MSV, VITERBI or FORWARD",
                            tok_str(r, 2, buf, sizeof buf));
            }
            if (lambda <= 0.0)
                return FAIL(r, DPA_ERR_INVALID_ARG, "STATS lambda %g must be > 0", lambda);
        }
        /* other tags (DESC, DATE, COM, NSEQ, EFFN, CKSUM, GA/TC/NC, RF/MM/CONS/CS/MAP, MAXL,
         * BM, SM...) do not change the filters */
    }
    if (!m->name) return FAIL(r, DPA_ERR_INVALID_ARG, "header has no NAME line");
    if (!have_leng) return FAIL(r, DPA_ERR_INVALID_ARG, "header has no LENG line");
    if (!have_alph) return FAIL(r, DPA_ERR_INVALID_ARG, "header has no ALPH line");
    if (!have_msv || !have_vit)
        return FAIL(r, DPA_ERR_INVALID_ARG, "header lacks \"STATS LOCAL %s\" (run hmmbuild or hmmpress-era calibration)",
                    have_msv ? "VITERBI" : "MSV");
    m->M = (int32_t)M;
    m->mat = calloc((size_t)(M + 1) * DPA_HMM_K, sizeof(float));
    m->t = calloc((size_t)(M + 1) * DPA_HMM_NTRANS, sizeof(float));
    if (!m->mat || !m->t) return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "hmm reader: model of LENG %ld", M);

    /* HMM line is followed by the transition-name line. */
    if (!next_line(r) || r->ntok != DPA_HMM_NTRANS)
        return FAIL(r, DPA_ERR_INVALID_ARG, "expected the 7 transition names after the HMM line");
    if (!next_nonblank(r) || !tok_is(r, 0, "COMPO"))
        return FAIL(r, DPA_ERR_INVALID_ARG, "COMPO line missing (the bias filter needs the model composition)");
    if (r->ntok != 1 + DPA_HMM_K)
        return FAIL(r, DPA_ERR_INVALID_ARG, "COMPO line has %d fields, expected %d", r->ntok - 1, DPA_HMM_K);
    for (int x = 0; x < DPA_HMM_K; x++)
        if ((st = parse_prob(r, 1 + x, "COMPO", 0, x, &m->compo[x])) != DPA_OK) return st;
    /* node 0: insert emissions (not used by the filters), then begin transitions */
    if (!next_line(r) || r->ntok != DPA_HMM_K)
        return FAIL(r, DPA_ERR_INVALID_ARG, "node 0 insert line has %d fields, expected %d", r->ntok, DPA_HMM_K);
    float dummy;
    for (int x = 0; x < DPA_HMM_K; x++)
        if ((st = parse_prob(r, x, "insert emission", 0, x, &dummy)) != DPA_OK) return st;
    if (!next_line(r) || r->ntok != DPA_HMM_NTRANS)
        return FAIL(r, DPA_ERR_INVALID_ARG, "node 0 transition line has %d fields, expected %d", r->ntok, DPA_HMM_NTRANS);
    for (int x = 0; x < DPA_HMM_NTRANS; x++)
        if ((st = parse_prob(r, x, "transition", 0, x, &m->t[x])) != DPA_OK) return st;
    for (long k = 1; k <= M; k++) {
        long idx;
        if (!next_line(r))
            return FAIL(r, DPA_ERR_INVALID_ARG, "file ends at node %ld of LENG %ld", k, M);
        if (tok_is(r, 0, "//"))
            return FAIL(r, DPA_ERR_INVALID_ARG, "model ends (\"//\") after %ld nodes, LENG says %ld", k - 1, M);
        if (parse_int(r, 0, &idx) != 0 || idx != k)
            return FAIL(r, DPA_ERR_INVALID_ARG, "expected match line of node %ld, found \"%s\"", k,
                        tok_str(r, 0, buf, sizeof buf));
        if (r->ntok != 1 + DPA_HMM_K + annot)
            return FAIL(r, DPA_ERR_INVALID_ARG, "match line of node %ld has %d fields, expected %d (20 scores, MAP CONS RF%s CS)",
                        k, r->ntok, 1 + DPA_HMM_K + annot, is_3e ? "" : " MM");
        for (int x = 0; x < DPA_HMM_K; x++)
            if ((st = parse_prob(r, 1 + x, "match emission", (int)k, x, &m->mat[k * DPA_HMM_K + x])) != DPA_OK) return st;
        if (!next_line(r) || r->ntok != DPA_HMM_K)
            return FAIL(r, DPA_ERR_INVALID_ARG, "insert line of node %ld has %d fields, expected %d", k, r->ntok, DPA_HMM_K);
        for (int x = 0; x < DPA_HMM_K; x++)
            if ((st = parse_prob(r, x, "insert emission", (int)k, x, &dummy)) != DPA_OK) return st;
        if (!next_line(r) || r->ntok != DPA_HMM_NTRANS)
            return FAIL(r, DPA_ERR_INVALID_ARG, "transition line of node %ld has %d fields, expected %d", k, r->ntok, DPA_HMM_NTRANS);
        for (int x = 0; x < DPA_HMM_NTRANS; x++)
            if ((st = parse_prob(r, x, "transition", (int)k, x, &m->t[k * DPA_HMM_NTRANS + x])) != DPA_OK) return st;
    }
    if (!next_nonblank(r)) return FAIL(r, DPA_ERR_INVALID_ARG, "file ends before the closing \"//\"");
    if (!tok_is(r, 0, "//"))
        return FAIL(r, DPA_ERR_INVALID_ARG, "expected \"//\" after node %ld (LENG %ld), found \"%s\"", M, M,
                    tok_str(r, 0, buf, sizeof buf));
    return DPA_OK;
}

void dpa_hmm_models_free(dpa_hmm_model *models, int32_t count) {
    if (!models) return;
    for (int32_t i = 0; i < count; i++) model_clear(&models[i]);
    free(models);
}

dpa_status dpa_hmm_parse(const char *text, size_t len, const char *origin, dpa_hmm_model **models,
                         int32_t *count) {
    if (!models || !count) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_hmm_parse: models/count is NULL");
    *models = NULL;
    *count = 0;
    if (!text && len > 0) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_hmm_parse: text is NULL");
    line_reader r;
    memset(&r, 0, sizeof r);
    r.text = text ? text : "";
    r.end = r.text + len;
    r.origin = origin ? origin : "<buffer>";
    dpa_hmm_model *arr = NULL;
    int32_t n = 0, cap = 0;
    while (next_nonblank(&r)) {
        if (n == INT32_MAX) return dpa_fail(DPA_ERR_LIMIT, "%s: too many models", r.origin);
        if (n == cap) {
            int32_t ncap = cap ? (cap > INT32_MAX / 2 ? INT32_MAX : cap * 2) : 8;
            dpa_hmm_model *na = realloc(arr, (size_t)ncap * sizeof *na);
            if (!na) {
                dpa_hmm_models_free(arr, n);
                return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "%s: model array", r.origin);
            }
            arr = na;
            cap = ncap;
        }
        r.model_index = n;
        r.model_name[0] = '\0';
        dpa_status st = parse_model(&r, &arr[n]);
        if (st != DPA_OK) {
            model_clear(&arr[n]);
            dpa_hmm_models_free(arr, n);
            return st;
        }
        n++;
    }
    if (n == 0) {
        free(arr);
        return dpa_fail(DPA_ERR_INVALID_ARG, "%s: no HMMER3/f model found", r.origin);
    }
    *models = arr;
    *count = n;
    return DPA_OK;
}

dpa_status dpa_hmm_read_file(const char *path, dpa_hmm_model **models, int32_t *count) {
    if (!path) return dpa_fail(DPA_ERR_NULL_ARG, "dpa_hmm_read_file: path is NULL");
    FILE *f = fopen(path, "rb");
    if (!f) return dpa_fail(DPA_ERR_INVALID_ARG, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "%s: read buffer", path);
    }
    for (;;) {
        if (len == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fclose(f);
                return dpa_fail(DPA_ERR_OUT_OF_MEMORY, "%s: read buffer of %zu bytes", path, cap * 2);
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return dpa_fail(DPA_ERR_INVALID_ARG, "%s: read error", path);
    }
    dpa_status st = dpa_hmm_parse(buf, len, path, models, count);
    free(buf);
    return st;
}

/* Easel's amino order is ACDEFGHIKLMNPQRSTVWY-BJZOUX*~; the table holds code + 1 so that
 * every byte not listed reads 0, i.e. -1 ('-' is refused, so code 20 never appears). */
#define DPA_AA(c, code) [c] = (code) + 1, [(c) - 'A' + 'a'] = (code) + 1
static const uint8_t residue_code1[256] = {
    DPA_AA('A', 0),  DPA_AA('C', 1),  DPA_AA('D', 2),  DPA_AA('E', 3),  DPA_AA('F', 4),
    DPA_AA('G', 5),  DPA_AA('H', 6),  DPA_AA('I', 7),  DPA_AA('K', 8),  DPA_AA('L', 9),
    DPA_AA('M', 10), DPA_AA('N', 11), DPA_AA('P', 12), DPA_AA('Q', 13), DPA_AA('R', 14),
    DPA_AA('S', 15), DPA_AA('T', 16), DPA_AA('V', 17), DPA_AA('W', 18), DPA_AA('Y', 19),
    DPA_AA('B', 21), DPA_AA('J', 22), DPA_AA('Z', 23), DPA_AA('O', 24), DPA_AA('U', 25),
    DPA_AA('X', 26), ['*'] = 28, ['~'] = 29,
};
#undef DPA_AA

/* A table, not a search of the order string: the batch API codes every residue twice
 * (validation, then digitising), and at 200 M residues the search took longer than the
 * GPU's filters (docs/lab/2026-11-28-session11.md). */
int dpa_hmm_residue_code(unsigned char c) {
    return (int)residue_code1[c] - 1;
}

void dpa_hmm_code_map(uint8_t map[256]) {
    for (int c = 0; c < 256; c++) map[c] = residue_code1[c] ? (uint8_t)(residue_code1[c] - 1) : 0;
}

dpa_status dpa_hmm_digitize(const uint8_t *s, int64_t n, uint8_t *dsq, int64_t *bad) {
    uint8_t all = 1;
    if (dsq) {
        for (int64_t k = 0; k < n; k++) {
            const uint8_t c1 = residue_code1[s[k]];
            all = c1 < all ? c1 : all;
            dsq[k] = (uint8_t)(c1 - 1);
        }
    } else {
        /* the accepted bytes are exactly the 26 letters of either case, '*' and '~' (the
         * table above; test_hmm_reader checks all 256 bytes): arithmetic the compiler
         * vectorises, where the table lookup ran at ~11 GB/s on 16 threads */
        for (int64_t k = 0; k < n; k++) {
            const uint8_t c = s[k];
            all &= (uint8_t)((uint8_t)((c | 0x20) - 'a') < 26) | (uint8_t)(c == '*') | (uint8_t)(c == '~');
        }
    }
    if (all) return DPA_OK;
    for (int64_t k = 0; k < n; k++) /* the rare bad batch: find the first offender */
        if (!residue_code1[s[k]]) {
            *bad = k;
            break;
        }
    return DPA_ERR_INVALID_ARG;
}
