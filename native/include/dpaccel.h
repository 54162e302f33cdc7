/*
 * dpaccel.h — the one public C API of dpaccel.
 *
 * dpaccel runs dynamic-programming kernels from genomics (GATK's PairHMM forward and
 * Smith-Waterman today) on the CPU (scalar, AVX2, AVX-512) or on NVIDIA GPUs. Everything goes through an opaque context. Every call returns a
 * dpa_status; when it is not DPA_OK, dpa_last_error() returns a message for the calling
 * thread that names the field, the index and the limit that was violated.
 *
 * Thread safety: a context may be used by many threads at once (calls on it are
 * independent); dpa_context_destroy must not race with any other call on that context.
 * The library never prints, never exits, never aborts: diagnostics (a GPU fault's fallback,
 * DPACCEL_TIMING / DPACCEL_CUDA_TIMING phase times) go only to the log callback in
 * dpa_options, and nowhere without one.
 */
#ifndef DPACCEL_H
#define DPACCEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DPA_VERSION_MAJOR 0
#define DPA_VERSION_MINOR 1
#define DPA_VERSION_PATCH 0
#define DPA_VERSION_STRING "0.1.0"

#if defined(DPA_BUILDING_LIBRARY) && defined(__GNUC__)
#define DPA_API __attribute__((visibility("default")))
#else
#define DPA_API
#endif

/* Status codes. The numbers are part of the ABI (the JNI layer and Java's Status enum
 * mirror them): never renumber, only append. */
typedef enum dpa_status {
    DPA_OK = 0,
    DPA_ERR_NULL_ARG = 1,      /* a required pointer was NULL                      */
    DPA_ERR_INVALID_ARG = 2,   /* a value is outside its documented range          */
    DPA_ERR_LIMIT = 3,         /* a size exceeds a documented limit or overflows   */
    DPA_ERR_OUT_OF_MEMORY = 4, /* host allocation failed                           */
    DPA_ERR_UNSUPPORTED = 5,   /* the request needs a backend/ISA not available    */
    DPA_ERR_NO_DEVICE = 6,     /* GPU requested but no usable GPU / driver         */
    DPA_ERR_DEVICE = 7,        /* a GPU error that could not be recovered from     */
    DPA_ERR_INTERNAL = 8       /* a bug in dpaccel; the message says where         */
} dpa_status;

/* Where a batch runs. AUTO: the cost model picks CPU or GPU per batch. CPU / GPU: forced
 * (GPU with no usable device fails with DPA_ERR_NO_DEVICE). HYBRID: CPU threads and
 * every GPU pull work units from one queue. */
typedef enum dpa_backend {
    DPA_BACKEND_AUTO = 0,
    DPA_BACKEND_CPU = 1,
    DPA_BACKEND_GPU = 2,
    DPA_BACKEND_HYBRID = 3
} dpa_backend;

/* CPU instruction-set variants, fastest last. */
typedef enum dpa_isa {
    DPA_ISA_SCALAR = 0,
    DPA_ISA_AVX2 = 1,
    DPA_ISA_AVX512 = 2
} dpa_isa;

typedef enum dpa_log_level {
    DPA_LOG_DEBUG = 0,
    DPA_LOG_INFO = 1,
    DPA_LOG_WARN = 2,
    DPA_LOG_ERROR = 3
} dpa_log_level;

typedef void (*dpa_log_fn)(void *user, dpa_log_level level, const char *message);

/* Context options. Always initialise with dpa_options_init(), then set fields.
 * A field left at its "unset" value is taken from the environment
 * (DPACCEL_THREADS, DPACCEL_BACKEND, DPACCEL_CPU_DISABLE, DPACCEL_GPU_DISABLE,
 * DPACCEL_GPU_DEVICES), then
 * from the built-in default. */
typedef struct dpa_options {
    uint32_t struct_size;   /* sizeof(dpa_options), set by dpa_options_init          */
    int32_t num_threads;    /* CPU worker threads incl. the caller; 0 = unset (=> cores) */
    int32_t backend;        /* dpa_backend; -1 = unset (=> AUTO)                      */
    const char *cpu_disable;/* comma list of ISAs never to use ("avx512,avx2"); NULL = unset;
                               "" = none disabled. Unknown names are DPA_ERR_INVALID_ARG. */
    int32_t gpu_disable;    /* 1 = never load the CUDA backend; -1 = unset (=> 0)     */
    dpa_log_fn log_fn;      /* optional; the library is silent without it            */
    void *log_user;
    const char *gpu_devices;/* comma list of CUDA device ordinals to use, in order ("1" or
                               "0,2": a Spark task's GPU addresses); NULL = unset (=>
                               DPACCEL_GPU_DEVICES, then every visible device); "" = every
                               visible device. A bad list is DPA_ERR_INVALID_ARG; a device
                               that is not visible means no GPU (DPA_ERR_NO_DEVICE when the
                               backend is GPU). */
} dpa_options;

typedef struct dpa_context dpa_context;

typedef struct dpa_device_info {
    int32_t index;
    char name[128];
    int32_t cc_major, cc_minor;
    int32_t multiprocessors;
    uint64_t total_memory;
    int32_t usable;         /* 0 once the device was retired after a fault */
    int32_t cuda_ordinal;   /* CUDA's number for it (options.gpu_devices picks by these) */
} dpa_device_info;

DPA_API const char *dpa_version(void);
DPA_API const char *dpa_status_name(dpa_status status);
/* Message describing the last non-OK status returned to this thread. Never NULL. */
DPA_API const char *dpa_last_error(void);
DPA_API const char *dpa_isa_name(dpa_isa isa);
DPA_API const char *dpa_backend_name(dpa_backend backend);

DPA_API void dpa_options_init(dpa_options *options);
/* options may be NULL (all defaults). */
DPA_API dpa_status dpa_context_create(const dpa_options *options, dpa_context **out);
/* NULL is ignored. */
DPA_API void dpa_context_destroy(dpa_context *ctx);

DPA_API dpa_status dpa_context_isa(const dpa_context *ctx, dpa_isa *out);
DPA_API dpa_status dpa_context_threads(const dpa_context *ctx, int32_t *out);
DPA_API dpa_status dpa_context_backend(const dpa_context *ctx, dpa_backend *out);
/* Number of GPUs the CUDA backend can use (0 when absent or disabled). */
DPA_API dpa_status dpa_context_device_count(const dpa_context *ctx, int32_t *out);
DPA_API dpa_status dpa_context_device_info(const dpa_context *ctx, int32_t index,
                                           dpa_device_info *out);
/* One human-readable line: version, ISA, threads, backend, GPUs (or why none). */
DPA_API dpa_status dpa_context_describe(const dpa_context *ctx, char *buf, size_t buf_len);

/* ------------------------------------------------------------------------------------
 * PairHMM forward (GATK semantics, see docs/pairhmm.md)
 *
 * A batch holds reads and haplotypes as structure-of-arrays: every per-read array is the
 * concatenation of all reads, indexed through read_offsets/read_lengths. Reads and
 * haplotypes are split into consecutive groups (a group = one GATK region); within group
 * g every read is scored against every haplotype, and the results for group g are
 * written read-major at out[group_base(g) + r * hap_count(g) + h], groups in order.
 * With num_groups == 0 the whole batch is one group.
 *
 * Bases: byte equality, and 'N' matches anything (GATK's Java semantics; no mapping of
 * other letters). Qualities: phred values 0..127 (GATK floors base qualities at 6 before
 * calling; the library does not change them). Output: log10 likelihood.
 * ------------------------------------------------------------------------------------ */

#define DPA_PAIRHMM_MAX_LENGTH (1 << 20) /* per read and per haplotype */
#define DPA_PAIRHMM_MAX_QUAL 127

typedef enum dpa_precision {
    /* float with 2^120 scaling; pairs whose float sum is below 1e-28 are recomputed in
     * double (GATK/GKL behaviour). */
    DPA_PRECISION_FLOAT_THEN_DOUBLE = 0,
    /* double only (GATK's useDoublePrecision). */
    DPA_PRECISION_DOUBLE = 1
} dpa_precision;

typedef struct dpa_pairhmm_batch {
    int32_t num_reads;
    const uint8_t *read_bases;
    const uint8_t *base_quals;
    const uint8_t *ins_quals;   /* insertion gap-open penalties (phred) */
    const uint8_t *del_quals;   /* deletion gap-open penalties (phred)  */
    const uint8_t *gcp_quals;   /* gap-continuation penalties (phred)   */
    const int64_t *read_offsets;
    const int32_t *read_lengths;

    int32_t num_haps;
    const uint8_t *hap_bases;
    const int64_t *hap_offsets;
    const int32_t *hap_lengths;

    int32_t num_groups;                 /* 0 = one group of all reads x all haps */
    const int32_t *group_num_reads;     /* reads of group g (consecutive)        */
    const int32_t *group_num_haps;      /* haplotypes of group g (consecutive)   */
} dpa_pairhmm_batch;

typedef struct dpa_pairhmm_params {
    int32_t precision;   /* dpa_precision */
    int32_t backend;     /* dpa_backend for this call; -1 = the context's */
} dpa_pairhmm_params;

/* What a call did; optional. */
typedef struct dpa_pairhmm_stats {
    int64_t pairs;
    int64_t cells;              /* sum of read_len * hap_len */
    int64_t double_recomputes;  /* pairs recomputed in double after float underflow */
    int64_t gpu_pairs;          /* pairs computed on a GPU */
    int32_t isa;                /* dpa_isa used for CPU pairs */
    int64_t cells_computed;     /* cells evaluated: below cells when haplotype prefixes were
                                   shared (CPU, DPACCEL_PAIRHMM_PREFIX), else = cells */
} dpa_pairhmm_stats;
#define DPA_PAIRHMM_STATS_CELLS_COMPUTED 1 /* the field above exists (since 2026-11-25) */

DPA_API void dpa_pairhmm_params_init(dpa_pairhmm_params *params);
/* Number of results the batch produces (sum over groups of reads*haps). */
DPA_API dpa_status dpa_pairhmm_result_count(const dpa_pairhmm_batch *batch, int64_t *out);
/* Checks every field; the message names the first offending field and index. */
DPA_API dpa_status dpa_pairhmm_validate(const dpa_pairhmm_batch *batch);
/* out must hold out_len >= dpa_pairhmm_result_count() doubles. params and stats may be
 * NULL. */
DPA_API dpa_status dpa_pairhmm_compute(dpa_context *ctx, const dpa_pairhmm_batch *batch,
                                       const dpa_pairhmm_params *params, double *out,
                                       int64_t out_len, dpa_pairhmm_stats *stats);


/* ------------------------------------------------------------------------------------
 * Smith-Waterman for GATK (SWAlignerNativeBinding semantics, see docs/sw.md)
 *
 * Each pair aligns an alternate sequence (haplotype or read) to a reference and gives a
 * CIGAR string and an alignment offset identical, byte for byte, to GATK 4.6's
 * SmithWatermanJavaAligner.align(ref, alt, SWParameters(match, mismatch, gap_open,
 * gap_extend), strategy), including its exact-substring shortcut for SOFTCLIP and IGNORE.
 * Parameters are added as given (GATK passes negative penalties). Bases: byte equality
 * (no 'N' rule; GATK expects upper case). All pairs of a batch share the parameters.
 *
 * Limits (DPA_ERR_LIMIT beyond them): every length in [1, DPA_SW_MAX_LENGTH];
 * ref_len * alt_len <= DPA_SW_MAX_CELLS (the traceback keeps one byte per cell);
 * (|match| + |mismatch| + |gap_open| + |gap_extend|) * (ref_len + alt_len + 2) <
 * DPA_SW_SCORE_BOUND, so no int32 score or gap value can overflow.
 *
 * Output: pair i's CIGAR is written to cigars[cigar_offsets[i] .. + cigar_lengths[i]]
 * (ASCII, not NUL-terminated, packed in pair order); cigars must hold
 * dpa_sw_cigar_capacity() bytes (2 * (ref_len + alt_len) per pair, an upper bound).
 * ------------------------------------------------------------------------------------ */

#define DPA_SW_MAX_LENGTH 65536
#define DPA_SW_MAX_CELLS ((int64_t)1 << 30)
#define DPA_SW_SCORE_BOUND ((int64_t)1 << 30)

/* GATK's SWOverhangStrategy, same order. */
typedef enum dpa_sw_overhang {
    DPA_SW_OVERHANG_SOFTCLIP = 0,
    DPA_SW_OVERHANG_INDEL = 1,
    DPA_SW_OVERHANG_LEADING_INDEL = 2,
    DPA_SW_OVERHANG_IGNORE = 3
} dpa_sw_overhang;

typedef struct dpa_sw_batch {
    int32_t num_pairs;
    const uint8_t *ref_bases;     /* concatenated references */
    const int64_t *ref_offsets;
    const int32_t *ref_lengths;
    const uint8_t *alt_bases;     /* concatenated alternates */
    const int64_t *alt_offsets;
    const int32_t *alt_lengths;
} dpa_sw_batch;

typedef struct dpa_sw_params {
    int32_t match;       /* GATK SWParameters.matchValue        */
    int32_t mismatch;    /* .mismatchPenalty (usually negative)  */
    int32_t gap_open;    /* .gapOpenPenalty (usually negative)   */
    int32_t gap_extend;  /* .gapExtendPenalty (usually negative) */
    int32_t overhang;    /* dpa_sw_overhang */
    int32_t backend;     /* dpa_backend for this call; -1 = the context's. GPU: every pair on
                            the GPUs (DPA_ERR_NO_DEVICE when none is usable); AUTO: the GPUs
                            only for batches large enough to win (docs/sw-cuda.md); HYBRID:
                            GPUs and CPU threads share the batch. Results are byte-identical
                            on every backend; a GPU error recomputes on the CPU (one warning). */
} dpa_sw_params;

typedef struct dpa_sw_output {
    char *cigars;               /* caller buffer of cigar_capacity bytes */
    int64_t cigar_capacity;
    int64_t *cigar_offsets;     /* num_pairs */
    int32_t *cigar_lengths;     /* num_pairs */
    int32_t *alignment_offsets; /* num_pairs */
} dpa_sw_output;

typedef struct dpa_sw_stats {
    int64_t pairs;
    int64_t cells;          /* sum of ref_len * alt_len */
    int64_t exact_matches;  /* pairs answered by the exact-substring shortcut */
    int64_t cigar_bytes;    /* total length of the packed CIGARs */
    int32_t isa;            /* dpa_isa of the CPU kernel */
    int64_t gpu_pairs;      /* pairs aligned on a GPU */
} dpa_sw_stats;

/* GATK's haplotype-to-reference parameters (200, -150, -260, -11), SOFTCLIP, backend -1. */
DPA_API void dpa_sw_params_init(dpa_sw_params *params);
/* Checks the batch and the parameters; the message names the first offending field. */
DPA_API dpa_status dpa_sw_validate(const dpa_sw_batch *batch, const dpa_sw_params *params);
/* Bytes the cigars buffer must hold for this batch. */
DPA_API dpa_status dpa_sw_cigar_capacity(const dpa_sw_batch *batch, int64_t *out);
/* params and stats may be NULL (defaults / not wanted). */
DPA_API dpa_status dpa_sw_compute(dpa_context *ctx, const dpa_sw_batch *batch,
                                  const dpa_sw_params *params, const dpa_sw_output *output,
                                  dpa_sw_stats *stats);

/* ------------------------------------------------------------------------------------
 * All-pairs genotype distance counts (PLINK 1.9 --genome / --distance flat-missing and
 * PLINK 2 --make-king counts; see docs/distance.md)
 *
 * Input: a PLINK 1 .bed body in SNP-major order, taken as is: num_variants rows of
 * row_bytes = (num_samples + 3) / 4 bytes (no magic), sample k of a row in bits
 * 2*(k%4)..2*(k%4)+1 of byte k/4 with PLINK's codes 00 hom A1, 01 missing, 10 het, 11 hom A2;
 * the unused bits of a row's last byte are ignored. variant_use (optional) selects the
 * variants that count (1 = use, 0 = skip; any other byte is DPA_ERR_INVALID_ARG): the
 * caller passes the .bed buffer untouched and marks the non-autosomal variants 0, as PLINK
 * skips them; NULL = every variant.
 *
 * For a pair (i, j) over the used variants called in both ("flat-missing"): NSNP called in
 * both; IBS0 opposite homozygotes; IBS1 one het, one hom; IBS2 identical (IBS0 + IBS1 +
 * IBS2 = NSNP); HETHET both het; HET1_HOM2 i het, j hom; HET2_HOM1 j het, i hom. Written as
 * 7 uint32 per pair in that order (DPA_DISTANCE_COUNTS).
 *
 * Which pairs (tile): NULL = the whole triangle, pairs i < j with i outer: pair (i, j) at
 * index i*N - i*(i+1)/2 + (j - i - 1), N(N-1)/2 pairs. A tile {row0, row1, col0, col1} is the
 * rectangle of rows [row0, row1) x columns [col0, col1), row-major: pair (r, c) at
 * (r - row0) * (col1 - col0) + (c - col0), with i = r and j = c (so HET1_HOM2 is "row het,
 * column hom"); rows and columns may overlap (r == c gives a sample's own counts), so a
 * caller splitting a triangle (Spark, several hosts) asks for the tiles on and above the
 * diagonal and keeps r < c.
 *
 * Limits: num_samples in [1, DPA_DISTANCE_MAX_SAMPLES]; num_variants in
 * [0, DPA_DISTANCE_MAX_VARIANTS] (counts are uint32); the output must hold
 * dpa_distance_pair_count() * DPA_DISTANCE_COUNTS uint32.
 * ------------------------------------------------------------------------------------ */

#define DPA_DISTANCE_COUNTS 7
#define DPA_DISTANCE_MAX_SAMPLES (1 << 24)
#define DPA_DISTANCE_MAX_VARIANTS ((int64_t)UINT32_MAX)

/* Index of each count within a pair's 7. */
enum {
    DPA_DISTANCE_NSNP = 0,
    DPA_DISTANCE_IBS0 = 1,
    DPA_DISTANCE_IBS1 = 2,
    DPA_DISTANCE_IBS2 = 3,
    DPA_DISTANCE_HETHET = 4,
    DPA_DISTANCE_HET1_HOM2 = 5,
    DPA_DISTANCE_HET2_HOM1 = 6
};

typedef struct dpa_genotype_batch {
    int32_t num_samples;
    int64_t num_variants;
    int64_t row_bytes;            /* must be (num_samples + 3) / 4 */
    const uint8_t *genotypes;     /* num_variants * row_bytes bytes, .bed SNP-major rows */
    const uint8_t *variant_use;   /* num_variants flags (1 use, 0 skip); NULL = all */
} dpa_genotype_batch;

typedef struct dpa_distance_tile {
    int32_t row0, row1;           /* rows [row0, row1) */
    int32_t col0, col1;           /* columns [col0, col1) */
} dpa_distance_tile;

typedef struct dpa_distance_params {
    int32_t backend;     /* dpa_backend for this call; -1 = the context's. GPU without a
                            usable GPU fails with DPA_ERR_NO_DEVICE naming why. Counts are
                            identical on every backend, device and ISA. */
    int32_t block;       /* samples per side of a scheduler task (a square of pairs); 0 =
                            default (64); 8..4096 */
} dpa_distance_params;

typedef struct dpa_distance_stats {
    int64_t pairs;             /* pairs written */
    int64_t variants_used;     /* variants counted (variant_use 1) */
    int64_t variants_skipped;  /* variants with variant_use 0 */
    int64_t pair_variants;     /* pairs x variants_used */
    int32_t isa;               /* dpa_isa of the CPU kernel */
    int64_t gpu_pairs;         /* pairs counted on a GPU (0 for now) */
} dpa_distance_stats;

/* backend -1, block 0. */
DPA_API void dpa_distance_params_init(dpa_distance_params *params);
/* Checks every field of the batch (and the tile when not NULL); the message names the first
 * offending field, index and limit. */
DPA_API dpa_status dpa_distance_validate(const dpa_genotype_batch *batch,
                                         const dpa_distance_tile *tile);
/* Pairs the call writes for this batch and tile (tile NULL = the triangle). */
DPA_API dpa_status dpa_distance_pair_count(const dpa_genotype_batch *batch,
                                           const dpa_distance_tile *tile, int64_t *out);
/* out holds out_len uint32, at least pair_count * DPA_DISTANCE_COUNTS. tile, params and
 * stats may be NULL (the triangle / defaults / not wanted). */
DPA_API dpa_status dpa_distance_counts(dpa_context *ctx, const dpa_genotype_batch *batch,
                                       const dpa_distance_tile *tile,
                                       const dpa_distance_params *params, uint32_t *out,
                                       int64_t out_len, dpa_distance_stats *stats);

/* ------------------------------------------------------------------------------------
 * X-drop seed extension (SeqAn 2.x semantics, see docs/xdrop.md)
 *
 * Each pair extends one seed of a query against a target with SeqAn's gapped X-drop
 * (extendSeed(seed, target, query, EXTEND_BOTH, Score<int, Simple>(match, mismatch, gap),
 * xdrop, GappedXDrop())), linear gaps, and gives the same seed ends and side scores.
 *
 * Bases: A C G T in either case, U = T, every other letter is N; N against N scores a
 * match. Every byte must be a letter. The seed is Seed<Simple>(tpos, qpos, seed_length):
 * seed_length may be 0 and need not be an exact match. Strand DPA_XDROP_REVERSE extends
 * against the reverse complement of the target; tpos and the output target coordinates
 * then refer to that reverse complement.
 *
 * Output per pair (int32, in pair order): left and right, the score SeqAn's one-direction
 * extension returns on the prefixes and on the suffixes (0 for an empty side; it can be
 * negative: SeqAn ends at its "longest extension" cell, not at the maximum), score = left +
 * right + the seed's own column sum, and the extended seed qbeg/qend/tbeg/tend (0-based,
 * half-open). Every value fits int32 for validated input: |score| <= 1000 * (query_length +
 * target_length) < 2^31.
 *
 * Limits: every length in [1, DPA_XDROP_MAX_LENGTH]; match in [1, 1000]; mismatch and gap
 * in [-1000, -1]; xdrop in [0, DPA_XDROP_MAX_X] (SeqAn's internal penalty clamp never
 * applies inside them); the seed inside both sequences.
 * ------------------------------------------------------------------------------------ */

#define DPA_XDROP_MAX_LENGTH ((1 << 20) - 1)
#define DPA_XDROP_MAX_SCORE 1000   /* |match|, |mismatch|, |gap| at most this */
#define DPA_XDROP_MAX_X (1 << 30)

typedef enum dpa_xdrop_strand {
    DPA_XDROP_FORWARD = 0,
    DPA_XDROP_REVERSE = 1   /* extend against the target's reverse complement */
} dpa_xdrop_strand;

typedef struct dpa_xdrop_batch {
    int32_t num_pairs;
    const uint8_t *query_bases;    /* concatenated queries (SeqAn's vertical sequence)   */
    const int64_t *query_offsets;
    const int32_t *query_lengths;
    const uint8_t *target_bases;   /* concatenated targets (SeqAn's horizontal sequence) */
    const int64_t *target_offsets;
    const int32_t *target_lengths;
    const int32_t *qpos;           /* seed start in the query                            */
    const int32_t *tpos;           /* seed start in the (strand-oriented) target         */
    const int32_t *seed_lengths;   /* >= 0                                               */
    const uint8_t *strands;        /* dpa_xdrop_strand per pair                          */
} dpa_xdrop_batch;

typedef struct dpa_xdrop_params {
    int32_t match;     /* > 0 */
    int32_t mismatch;  /* < 0 */
    int32_t gap;       /* < 0, linear */
    int32_t xdrop;     /* >= 0 */
    int32_t backend;   /* dpa_backend for this call; -1 = the context's. GPU without a
                          usable GPU fails with DPA_ERR_NO_DEVICE naming why. Results are
                          identical on every backend. */
} dpa_xdrop_params;

typedef struct dpa_xdrop_output {  /* each array holds num_pairs values */
    int32_t *score;
    int32_t *qbeg, *qend;
    int32_t *tbeg, *tend;
    int32_t *left, *right;
} dpa_xdrop_output;

typedef struct dpa_xdrop_stats {
    int64_t pairs;
    int64_t cells;      /* SeqAn's inner-loop cells: sum over anti-diagonals of the band */
    int64_t gpu_pairs;  /* pairs extended on a GPU */
    int32_t isa;        /* dpa_isa of the CPU kernel */
} dpa_xdrop_stats;

/* match 1, mismatch -1, gap -1, xdrop 100, backend -1. */
DPA_API void dpa_xdrop_params_init(dpa_xdrop_params *params);
/* Checks the batch and the parameters; the message names the first offending field. */
DPA_API dpa_status dpa_xdrop_validate(const dpa_xdrop_batch *batch,
                                      const dpa_xdrop_params *params);
/* params and stats may be NULL (defaults / not wanted). */
DPA_API dpa_status dpa_xdrop_compute(dpa_context *ctx, const dpa_xdrop_batch *batch,
                                     const dpa_xdrop_params *params,
                                     const dpa_xdrop_output *output, dpa_xdrop_stats *stats);

/* ------------------------------------------------------------------------------------
 * PDHMM: GATK's partially-determined PairHMM (LoglessPDPairHMM semantics, docs/pdhmm.md)
 *
 * Each pair gives log10 P(read | haplotype) like the PairHMM above, in double precision
 * (GATK's Java and GKL 0.9.1's IntelPDHMM compute PDHMM in double only), on a haplotype
 * whose positions may carry undetermined alternatives: hap_pd_bases[j] holds GATK's
 * PartiallyDeterminedHaplotype bits for hap_bases[j]:
 *   SNP 1        the position is a SNP site; a read base A/C/G/T (either case) also
 *                matches when its bit A 8, C 16, G 32, T 64 is set;
 *   DEL_START 2  a deletion starts after this position: the columns up to its DEL_END
 *                carry the branch (pre-deletion) state forward;
 *   DEL_END 4    a deletion ends at this position: the next column takes the maximum of
 *                the branch and the normal state, and this column's insertion row takes
 *                the maximum of the branch and normal values above it.
 * (bit 128, N, is not read.) Quality bytes are phred values 0..127 (GKL rejects negative
 * bytes; so do we). Bases are compared as bytes (case matters), 'N' on either side
 * matches.
 *
 * Limits (DPA_ERR_LIMIT / DPA_ERR_INVALID_ARG beyond them): read and haplotype lengths in
 * [1, DPA_PDHMM_MAX_LENGTH]; read_len * hap_len <= DPA_PDHMM_MAX_CELLS; a SNP position
 * compared with a read byte outside A C G T a c g t N that differs from the haplotype
 * byte (which is not N) is DPA_ERR_INVALID_ARG, as GATK throws "Found unexpected base in
 * alt alleles" there.
 * ------------------------------------------------------------------------------------ */
#define DPA_PDHMM_MAX_LENGTH 65536
#define DPA_PDHMM_MAX_CELLS ((int64_t)1 << 31)
/* PartiallyDeterminedHaplotype bits. */
enum {
    DPA_PD_SNP = 1,
    DPA_PD_DEL_START = 2,
    DPA_PD_DEL_END = 4,
    DPA_PD_A = 8,
    DPA_PD_C = 16,
    DPA_PD_G = 32,
    DPA_PD_T = 64
};
typedef struct dpa_pdhmm_batch {
    int32_t num_pairs;
    const uint8_t *hap_bases;     /* concatenated haplotypes (pairs may share one)     */
    const uint8_t *hap_pd_bases;  /* same layout as hap_bases: the PD bits per base    */
    const int64_t *hap_offsets;   /* num_pairs                                          */
    const int32_t *hap_lengths;   /* num_pairs                                          */
    const uint8_t *read_bases;    /* concatenated reads (pairs may share one)           */
    const uint8_t *base_quals;    /* same layout as read_bases                          */
    const uint8_t *ins_quals;
    const uint8_t *del_quals;
    const uint8_t *gcp_quals;
    const int64_t *read_offsets;  /* num_pairs                                          */
    const int32_t *read_lengths;  /* num_pairs                                          */
} dpa_pdhmm_batch;
/* Where a row starts in GATK's column state machine. GATK's Java (4.6 and 4.7) carries the
 * state the last column leaves into the next row's first column; GKL 0.9.1's native
 * IntelPDHMM (what GATK 4.7's FASTEST_AVAILABLE PDHMM runs on an AVX host) starts every row
 * NORMAL. They can differ only when a row ends inside a deletion: the haplotype's last
 * DEL_START has no DEL_END after it (docs/pdhmm.md). */
typedef enum dpa_pdhmm_rows {
    DPA_PDHMM_ROWS_GATK = 0,  /* carry the state across rows: GATK's LoglessPDPairHMM */
    DPA_PDHMM_ROWS_GKL = 1    /* every row starts NORMAL: GKL 0.9.1's IntelPDHMM */
} dpa_pdhmm_rows;
/* What out receives. The scaled sum is for callers that must take the log10 themselves: GATK's
 * Java takes it with Math.log10, which differs from the C library's log10 in the last bit on
 * about 1 input in 2,000, so a JVM that wants GATK's bits takes log10(sum) - log10(2^1020)
 * with Math.log10 (the Java facade does, for rows GATK). */
typedef enum dpa_pdhmm_result {
    DPA_PDHMM_RESULT_LOG10 = 0,      /* log10(sum) - log10(2^1020) with the C library's log10 */
    DPA_PDHMM_RESULT_SCALED_SUM = 1  /* sum: the last row's M + I summed, 2^1020 x probability */
} dpa_pdhmm_result;
typedef struct dpa_pdhmm_params {
    int32_t backend;   /* dpa_backend for this call; -1 = the context's */
    int32_t rows;      /* dpa_pdhmm_rows */
    int32_t result;    /* dpa_pdhmm_result */
} dpa_pdhmm_params;
typedef struct dpa_pdhmm_stats {
    int64_t pairs;
    int64_t cells;      /* sum of read_len * hap_len */
    int64_t gpu_pairs;  /* pairs computed on a GPU */
    int32_t isa;        /* dpa_isa of the CPU kernel */
} dpa_pdhmm_stats;
/* backend -1, rows DPA_PDHMM_ROWS_GATK, result DPA_PDHMM_RESULT_LOG10. The struct grows at its
 * end between versions (result came in 0.1.0's second revision): always fill it through this
 * function, then set the fields you need. */
DPA_API void dpa_pdhmm_params_init(dpa_pdhmm_params *params);
/* Checks every field; the message names the first offending field, pair and index. */
DPA_API dpa_status dpa_pdhmm_validate(const dpa_pdhmm_batch *batch);
/* out holds out_len >= num_pairs doubles; pair i's log10 likelihood (or its scaled sum, as
 * params->result asks) goes to out[i]. On an
 * error out is untouched. params and stats may be NULL. A result above 0 or NaN (gap-open
 * qualities whose error probabilities sum past 1, or PD flags that branch so often on a short
 * pair that the paths sum past 1) fails the call with DPA_ERR_INVALID_ARG, where GATK throws.
 * Pairs with identical haplotype bytes run fastest: the CPU kernels give a vector to reads of
 * one haplotype (docs/pdhmm.md). */
DPA_API dpa_status dpa_pdhmm_compute(dpa_context *ctx, const dpa_pdhmm_batch *batch,
                                     const dpa_pdhmm_params *params, double *out,
                                     int64_t out_len, dpa_pdhmm_stats *stats);

/* ------------------------------------------------------------------------------------
 * PaPaRa 2 scoring (papara_core 2.5 semantics, see docs/papara.md)
 *
 * Two steps. dpa_papara_build_profiles turns a reference tree and its alignment into one
 * ancestral profile per tree edge, enumerated in PaPaRa's order (visit_edges); then
 * dpa_papara_score scores every read against every profile with PaPaRa's free-shift DP.
 * Parsing (Newick, PHYLIP, FASTA) is not in this library (src/io, the CLI).
 *
 * Tree: num_nodes nodes; parent[i] is the parent's index or -1 for the one root; a node's
 * children are ordered by index (Newick order); every node but the root has exactly two
 * children or none (a tip); the root has two (merged into one edge of the summed length)
 * or three. length[i] (finite; PaPaRa takes negative ones too) is the branch to the parent; a tip names its
 * alignment row in row[i] (distinct rows); inner nodes have row -1. Rows no tip names are
 * ignored here (PaPaRa scores them as reads).
 *
 * Alignment characters (tree rows): upper or lower case of _ACMGRSVTWYHKDB-, U = T,
 * N ? . = - (state 15). Columns whose state is 15 in every tree row are dropped.
 *
 * Profile site byte: bits 0-3 the parsimony state (A=1 C=2 G=4 T=8, IUPAC unions,
 * 15 = gap), bit 4 the gap flag (PaPaRa's AUX_CGAP); bits 5-7 zero.
 * ------------------------------------------------------------------------------------ */

#define DPA_PAPARA_MAX_NODES (1 << 22)
#define DPA_PAPARA_MAX_SITES ((int64_t)1 << 24)
#define DPA_PAPARA_MAX_READ_LENGTH (1 << 20)
#define DPA_PAPARA_MAX_SCORE 1000   /* |open|, |extend|, |match|, |match_cgap| at most this */
#define DPA_PAPARA_CGAP_BIT 0x10

typedef enum dpa_papara_gap_model {
    DPA_PAPARA_GAP_PROB = 0,  /* 2-state gap likelihoods, flag = L(non-gap) < L(gap) */
    DPA_PAPARA_GAP_CGAP = 1   /* PaPaRa -c: parsimony-like gap flags (pvec_cgap)     */
} dpa_papara_gap_model;

typedef struct dpa_papara_tree {
    int32_t num_nodes;
    const int32_t *parent;   /* -1 for the root */
    const double *length;    /* branch to the parent; ignored for the root */
    const int32_t *row;      /* tip: alignment row; inner node: -1 */
} dpa_papara_tree;

typedef struct dpa_papara_alignment {
    int32_t num_rows;
    int64_t num_columns;
    const uint8_t *chars;    /* num_rows x num_columns, row-major */
} dpa_papara_alignment;

typedef struct dpa_papara_profiles {  /* caller's buffers, sized by dpa_papara_profile_shape */
    uint8_t *sites;          /* num_edges x num_sites site bytes, edge-major */
    int32_t *edge_nodes;     /* 2 x num_edges: the nodes each edge joins (PaPaRa's pair) */
    int64_t *columns;        /* num_sites: the alignment column of each site */
    double *gap_share;       /* optional (NULL): the prob model's gap share f */
} dpa_papara_profiles;

/* Checks tree and alignment; gives the edge and site counts. */
DPA_API dpa_status dpa_papara_profile_shape(const dpa_papara_tree *tree,
                                            const dpa_papara_alignment *alignment,
                                            int32_t *num_edges, int64_t *num_sites);
/* gap_model is a dpa_papara_gap_model. Needs about 2 x num_nodes x num_sites x 18 bytes
 * of scratch for the prob model (2 for cgap). */
DPA_API dpa_status dpa_papara_build_profiles(dpa_context *ctx, const dpa_papara_tree *tree,
                                             const dpa_papara_alignment *alignment,
                                             int32_t gap_model,
                                             const dpa_papara_profiles *out);

/* Scoring. Reads are state masks 1..15 (A=1 C=2 G=4 T=8); PaPaRa's read filter (drop
 * N ? . -, keep ACGTUMRWSYKVHDB) is the caller's (docs/papara.md). For read base j and
 * profile site i (mask a, gap flag g), max-plus with S(-1, i) = S(j, -1) = 0:
 *   SM = S(j-1,i-1) + (read & a ? match : 0) + (g ? match_cgap : 0)
 *   SL = max(S(j,i-1) + (g ? 0 : open), SL(j,i-1) + (g ? 0 : extend))   SL(j,-1) = -inf
 *   SU = max(S(j-1,i) + open, SU(j-1,i) + extend)                       SU(-1,i) = -inf
 *   S  = max(SM, SL, SU); score = max over the last read base and the last site.
 * Best profile: the highest score, ties to the lowest profile index. */
typedef struct dpa_papara_batch {
    int32_t num_profiles;
    int64_t num_sites;
    const uint8_t *profiles;     /* num_profiles x num_sites site bytes */
    int32_t num_reads;
    const uint8_t *read_masks;   /* concatenated reads */
    const int64_t *read_offsets; /* num_reads */
    const int32_t *read_lengths; /* num_reads, each in [1, DPA_PAPARA_MAX_READ_LENGTH] */
} dpa_papara_batch;

typedef struct dpa_papara_params {
    int32_t gap_open;    /* <= 0 (PaPaRa -3) */
    int32_t gap_extend;  /* <= 0 (-1) */
    int32_t match;       /* >= 0 (2) */
    int32_t match_cgap;  /* < 0 and match + match_cgap < 0, as PaPaRa assumes (-3) */
    int32_t backend;     /* dpa_backend for this call; -1 = the context's */
    int32_t score_model; /* DPA_PAPARA_SCORE_PAPARA2 (0, default) or _PAPER2012 */
} dpa_papara_params;

/* Score models. PAPARA2: the recurrence above (papara_core 2.5). PAPER2012: the 2012
 * paper's kernel (papara_nt's align_pvec_score): min-plus, the LOWEST score wins (best
 * profile = lowest, ties to the lowest index); fixed costs mismatch 3, flagged site 3, gap
 * in the read 3 + 1 to open and 1 to extend (0 on flagged sites), insertion 3; the read
 * aligned end to end inside the profile's band of width num_sites - read_length, so every
 * read must be shorter than num_sites; free start and end in the profile. gap_open ..
 * match_cgap are still validated but not used. CPU scalar only (a GPU backend is
 * DPA_ERR_UNSUPPORTED; AUTO and HYBRID run on the CPU); no traceback. */
#define DPA_PAPARA_SCORE_PAPARA2 0
#define DPA_PAPARA_SCORE_PAPER2012 1

typedef struct dpa_papara_output {
    int32_t *scores;        /* optional: num_reads x num_profiles, read-major */
    int32_t *best_score;    /* num_reads */
    int32_t *best_profile;  /* num_reads */
    int32_t *num_tied;      /* optional: profiles scoring best_score, per read */
} dpa_papara_output;

typedef struct dpa_papara_stats {
    int64_t cells;      /* profiles x sites x read bases */
    int64_t gpu_tasks;
    int32_t isa;        /* dpa_isa of the CPU kernel */
} dpa_papara_stats;

/* -3, -1, 2, -3, backend -1 (PaPaRa's defaults, -p -3:-1:2:-3). */
DPA_API void dpa_papara_params_init(dpa_papara_params *params);
DPA_API dpa_status dpa_papara_validate(const dpa_papara_batch *batch,
                                       const dpa_papara_params *params);
/* params and stats may be NULL. */
DPA_API dpa_status dpa_papara_score(dpa_context *ctx, const dpa_papara_batch *batch,
                                    const dpa_papara_params *params,
                                    const dpa_papara_output *output, dpa_papara_stats *stats);

/* Traceback of one read against one profile with PaPaRa's tie rules (align_freeshift_pvec),
 * for the placements a caller keeps. ops gets num_sites + read_length bytes at most, in
 * forward order: DPA_PAPARA_OP_M (site and read base), _D (site, no read base), _I (read
 * base, no site); every site and every read base appear once. *score equals
 * dpa_papara_score's for the pair. Scratch: read_length x num_sites bytes (at most
 * DPA_PAPARA_MAX_TRACEBACK_CELLS). Single-threaded; no context needed. */
#define DPA_PAPARA_OP_M 0
#define DPA_PAPARA_OP_D 1
#define DPA_PAPARA_OP_I 2
#define DPA_PAPARA_MAX_TRACEBACK_CELLS ((int64_t)1 << 32)
DPA_API dpa_status dpa_papara_traceback(const uint8_t *profile, int64_t num_sites,
                                        const uint8_t *read, int32_t read_length,
                                        const dpa_papara_params *params, uint8_t *ops,
                                        int64_t *num_ops, int32_t *score);
/* Many tracebacks on the context's CPU threads (the scheduler; params->backend ignored):
 * read r of batch (validated as for dpa_papara_score) against profile profile_of_read[r].
 * Read r's ops go to ops + ops_offsets[r], a slot of num_sites + read_lengths[r] bytes;
 * slots in read order, not overlapping, inside ops_len. num_ops[r] and scores[r] as
 * dpa_papara_traceback's. The papara2 score model only. On failure (the message names the
 * read) the outputs may be partly written. */
DPA_API dpa_status dpa_papara_traceback_batch(dpa_context *ctx, const dpa_papara_batch *batch,
                                              const int32_t *profile_of_read,
                                              const dpa_papara_params *params, uint8_t *ops,
                                              int64_t ops_len, const int64_t *ops_offsets,
                                              int64_t *num_ops, int32_t *scores);

/* ------------------------------------------------------------------------------------
 * HMMER3 filters: MSV, bias, Viterbi filter (hmmsearch 3.4 semantics, see docs/hmm-filter.md)
 *
 * Profiles come from HMMER3/f text (.hmm files from hmmbuild 3.1-3.4; protein only; COMPO
 * and the STATS LOCAL MSV / VITERBI lines required). Each (profile, sequence) goes through
 * hmmsearch's pipeline up to the Viterbi filter, bit-identically: MSV (SSV first) score, its
 * Gumbel P-value, pass if P <= F1; the bias filter's null (two-state HMM) and P, pass if
 * <= F1; the Viterbi filter only when that P > F2 (else the sequence passes), pass if its
 * P <= F2. Bit scores are float as HMMER's; +inf for an 8/16-bit overflow (P = 0).
 *
 * Residues: ACDEFGHIKLMNPQRSTVWY and the degenerate BJZOUX in either case (U scores as C,
 * O as K, B J Z X as background-weighted means), '*' and '~' (score -inf). Any other byte
 * (gap symbols, digits, space) is DPA_ERR_INVALID_ARG naming the sequence and position.
 * Length 0 is skipped (computed = 0, flags 0); lengths above DPA_HMM_MAX_SEQ_LENGTH (hmmsearch's
 * limit) are DPA_ERR_LIMIT.
 * ------------------------------------------------------------------------------------ */

#define DPA_HMM_MAX_SEQ_LENGTH 100000
#define DPA_HMM_MAX_MODEL_LENGTH 100000

typedef struct dpa_hmm_profiles dpa_hmm_profiles; /* immutable once loaded; shareable */

/* Loads every model of a file / of len bytes of text; the message of a failure names the
 * file (or "<buffer>"), line, model index and NAME, and the field. *out is NULL on failure. */
DPA_API dpa_status dpa_hmm_profiles_load_file(const char *path, dpa_hmm_profiles **out);
DPA_API dpa_status dpa_hmm_profiles_load_buffer(const char *text, size_t len,
                                                dpa_hmm_profiles **out);
DPA_API void dpa_hmm_profiles_free(dpa_hmm_profiles *profiles);
DPA_API int32_t dpa_hmm_profiles_count(const dpa_hmm_profiles *profiles);
/* NAME / LENG of model i, or NULL / -1 when i is out of range. */
DPA_API const char *dpa_hmm_profiles_name(const dpa_hmm_profiles *profiles, int32_t i);
DPA_API int32_t dpa_hmm_profiles_length(const dpa_hmm_profiles *profiles, int32_t i);

typedef struct dpa_hmm_seq_batch {
    int32_t num_seqs;
    const uint8_t *residues;  /* concatenated ASCII sequences */
    const int64_t *offsets;   /* start of each in residues    */
    const int32_t *lengths;   /* 0..DPA_HMM_MAX_SEQ_LENGTH     */
} dpa_hmm_seq_batch;

typedef struct dpa_hmm_filter_params {
    double F1;            /* MSV and bias threshold, (0, 1]; hmmsearch 0.02 */
    double F2;            /* Viterbi filter threshold, (0, 1]; hmmsearch 1e-3 */
    int32_t bias_filter;  /* 1 = on (default), 0 = hmmsearch --nobias */
    int32_t all_scores;   /* 1 = compute every stage's score for every sequence (flags unchanged) */
    int32_t backend;      /* dpa_backend for this call; -1 = the context's. No CUDA kernels yet:
                             GPU fails with DPA_ERR_NO_DEVICE, AUTO and HYBRID run on the CPU. */
} dpa_hmm_filter_params;

#define DPA_HMM_COMPUTED_MSV 1u
#define DPA_HMM_COMPUTED_BIAS 2u
#define DPA_HMM_COMPUTED_VIT 4u

typedef struct dpa_hmm_filter_result { /* one per (model, sequence), model-major */
    float msv_bits, bias_bits, vit_bits;   /* valid where `computed` says */
    double msv_pvalue, bias_pvalue, vit_pvalue;
    uint8_t pass_msv, pass_bias, pass_vit; /* cumulative: pass_vit implies pass_bias ... */
    uint8_t computed;                      /* DPA_HMM_COMPUTED_* */
} dpa_hmm_filter_result;

typedef struct dpa_hmm_filter_stats {
    int64_t pairs;       /* (model, sequence) pairs of length >= 1 */
    int64_t cells;       /* sum of M x L over those pairs */
    int64_t gpu_pairs;
    int64_t passed_msv, passed_bias, passed_vit;
    int32_t isa;         /* dpa_isa of the CPU kernel */
} dpa_hmm_filter_stats;

/* F1 0.02, F2 1e-3, bias filter on, all_scores 0, backend -1. */
DPA_API void dpa_hmm_filter_params_init(dpa_hmm_filter_params *params);
DPA_API dpa_status dpa_hmm_filter_validate(const dpa_hmm_seq_batch *batch,
                                           const dpa_hmm_filter_params *params);
/* results holds count(profiles) x num_seqs entries (results_len), model-major. params and
 * stats may be NULL. A rejected call (arguments, batch, no GPU for a GPU-forced call) writes
 * nothing; a failure during the computation (out of memory) zeroes results. */
DPA_API dpa_status dpa_hmm_filter_compute(dpa_context *ctx, const dpa_hmm_profiles *profiles,
                                          const dpa_hmm_seq_batch *batch,
                                          const dpa_hmm_filter_params *params,
                                          dpa_hmm_filter_result *results, int64_t results_len,
                                          dpa_hmm_filter_stats *stats);

#ifdef __cplusplus
}
#endif
#endif /* DPACCEL_H */
