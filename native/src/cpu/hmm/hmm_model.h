/*
 * hmm_model.h — one protein profile HMM as read from a HMMER3/f text file, in probability
 * space exactly as HMMER 3.4's reader stores it (each "-ln p" field becomes expf(-(float)x),
 * '*' becomes 0), so that the profile built from it (hmm_profile.h) is bit-identical to
 * hmmsearch's.
 */
#ifndef DPA_CPU_HMM_MODEL_H
#define DPA_CPU_HMM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "dpaccel.h"

#define DPA_HMM_K 20  /* canonical amino acids, Easel order ACDEFGHIKLMNPQRSTVWY */
#define DPA_HMM_KP 29 /* Easel digital codes: K, '-', BJZOUX, '*', '~' */
#define DPA_HMM_NTRANS 7 /* file order: MM MI MD IM II DM DD */
#define DPA_HMM_MAX_M 100000 /* largest LENG accepted: keeps every 16-bit profile index exact */

enum { DPA_HMM_T_MM, DPA_HMM_T_MI, DPA_HMM_T_MD, DPA_HMM_T_IM, DPA_HMM_T_II, DPA_HMM_T_DM, DPA_HMM_T_DD };

typedef struct dpa_hmm_model {
    char *name;      /* NAME (required) */
    char *acc;       /* ACC or NULL */
    int32_t M;       /* LENG */
    float *mat;      /* (M+1) x 20 match emission probabilities; row 0 unused */
    float *t;        /* (M+1) x 7 transition probabilities; row 0 is the begin node */
    float compo[DPA_HMM_K];
    float msv_mu, msv_lambda, vit_mu, vit_lambda; /* STATS LOCAL MSV / VITERBI (float, as HMMER) */
} dpa_hmm_model;

/* Parses every model in len bytes of HMMER3/f text. `origin` names the source in messages
 * (a path or "<buffer>"). On success *models is an array of *count models (count >= 1) that
 * the caller frees with dpa_hmm_models_free; on failure nothing is returned and
 * dpa_last_error() names origin, line, model index and NAME, and the field. */
dpa_status dpa_hmm_parse(const char *text, size_t len, const char *origin, dpa_hmm_model **models,
                         int32_t *count);
dpa_status dpa_hmm_read_file(const char *path, dpa_hmm_model **models, int32_t *count);
void dpa_hmm_models_free(dpa_hmm_model *models, int32_t count);

/* Easel's amino digital code of an ASCII residue (any case), or -1 for a byte that is not
 * a residue symbol hmmsearch scores: only ACDEFGHIKLMNPQRSTVWY BJZOUX '*' '~' are accepted
 * ('-', '.', '_', digits and everything else are rejected by the callers). */
int dpa_hmm_residue_code(unsigned char c);
/* dsq[k] = dpa_hmm_residue_code(s[k]) for k < n (dsq may be NULL: check only); at the first
 * byte that is not a residue, *bad = its index and DPA_ERR_INVALID_ARG (no message set). */
dpa_status dpa_hmm_digitize(const uint8_t *s, int64_t n, uint8_t *dsq, int64_t *bad);
/* map[c] = dpa_hmm_residue_code(c) for every byte c that is a residue, 0 for the others:
 * the table the CUDA filters digitise with on the device (callers check the bytes first). */
void dpa_hmm_code_map(uint8_t map[256]);
/* dpa_hmm_filter_validate in two parts (hmm_validate.c), so that the batch call can check
 * and digitise the residues on its threads: every check but the residue bytes, and the
 * message for residue pos of sequence seq. */
dpa_status dpa_hmm_filter_validate_shape(const dpa_hmm_seq_batch *b, const dpa_hmm_filter_params *p);
dpa_status dpa_hmm_filter_residue_error(const dpa_hmm_seq_batch *b, int32_t seq, int64_t pos);

#endif
