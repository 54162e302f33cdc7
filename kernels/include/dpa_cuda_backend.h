/*
 * dpa_cuda_backend.h — the C ABI between the engine (libdpaccel) and the CUDA backend
 * (libdpaccel_cuda.so). The engine dlopen()s the backend and calls the one exported
 * symbol DPA_CUDA_GET_OPS_SYMBOL; everything else goes through the versioned ops table,
 * so the core library has no link-time dependency on CUDA and loads on machines with no
 * GPU or no driver.
 *
 * Rules for the backend:
 *   - never prints, exits or aborts; errors are returned as dpa_status with a message in
 *     err (NUL-terminated, truncated to err_len); diagnostics go to the host's log callback;
 *   - every entry point is thread-safe; concurrent workload calls on one device run on
 *     different pooled streams;
 *   - no cudaMalloc on the hot path: buffers are pooled per stream for the life of the
 *     backend object and grown only when a larger batch arrives;
 *   - a sticky CUDA error marks the device unusable (device_info().usable = 0) and is
 *     returned as DPA_ERR_DEVICE; the engine then recomputes the work on the CPU.
 */
#ifndef DPA_CUDA_BACKEND_H
#define DPA_CUDA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "dpaccel.h"
#include "common/work.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The table's ABI. 3: one entry table per workload, looked up by id (the rule below), and
 * the host's log callback passed to open. 4: the host names the devices to open. */
#define DPA_CUDA_ABI_VERSION 4
#define DPA_CUDA_GET_OPS_SYMBOL "dpa_cuda_get_ops"

typedef struct dpa_cuda_backend dpa_cuda_backend;

/* Test-only fault kinds for inject_fault (reliability tests). */
typedef enum dpa_cuda_fault {
    DPA_CUDA_FAULT_NONE = 0,
    DPA_CUDA_FAULT_OOM = 1,    /* next workload call on the device fails as out of memory */
    DPA_CUDA_FAULT_STICKY = 2  /* next workload call fails as a sticky error: device retired */
} dpa_cuda_fault;

/*
 * Workloads. How the table grows without an ABI change for each workload:
 *   - dpa_cuda_ops (the core table) is frozen at DPA_CUDA_ABI_VERSION; it only opens and
 *     describes devices and hands out one entry table per workload through entry(id);
 *   - a new workload takes the next id and its own entry struct, which starts with
 *     dpa_cuda_entry_header; a library without it returns NULL and the engine runs that
 *     workload on the CPU (the reason is in the GPU-forced error);
 *   - an entry struct only grows at its end; header.struct_size tells the engine which
 *     members exist; a changed signature takes a new id, never an edit in place.
 */
typedef enum dpa_cuda_workload_id {
    DPA_CUDA_WORKLOAD_PAIRHMM = 1,
    DPA_CUDA_WORKLOAD_SW = 2,
    DPA_CUDA_WORKLOAD_XDROP = 3,    /* X-drop: dpa_cuda_xdrop_entry */
    DPA_CUDA_WORKLOAD_DISTANCE = 4, /* genotype distance: dpa_cuda_distance_entry */
    DPA_CUDA_WORKLOAD_HMM_FILTER = 5, /* HMMER3 SSV/MSV/Viterbi filter DP (hmm_filter_launch.cu) */
    DPA_CUDA_WORKLOAD_PAPARA = 6,     /* PaPaRa read-vs-edge scoring (dpa_cuda_papara_entry) */
    /* 7 was PDHMM returning log10 likelihoods (retired 2026-11-28: now the scaled sums) */
    DPA_CUDA_WORKLOAD_PDHMM = 8,      /* GATK partially-determined PairHMM (pdhmm_cuda.cu) */
    DPA_CUDA_WORKLOAD_COUNT = 9 /* one past the largest id */
} dpa_cuda_workload_id;

typedef struct dpa_cuda_entry_header {
    uint32_t id;           /* dpa_cuda_workload_id */
    uint32_t struct_size;  /* sizeof the whole entry struct as the library built it */
} dpa_cuda_entry_header;

/* DPA_CUDA_WORKLOAD_PAIRHMM. run computes n tasks of a validated batch on one device,
 * writing out[task.out] (log10 likelihoods, same rule as the CPU kernels: float, then
 * double for pairs whose float sum is below 1e-28, or double only). Splits internally when
 * the work exceeds device memory. *double_recomputes is incremented by the pairs
 * recomputed. */
typedef struct dpa_cuda_pairhmm_entry {
    dpa_cuda_entry_header header;
    dpa_status (*run)(dpa_cuda_backend *backend, int32_t device, const dpa_pairhmm_batch *batch,
                      const dpa_phmm_task *tasks, int64_t n, int32_t precision, double *out,
                      int64_t *double_recomputes, char *err, size_t err_len);
} dpa_cuda_pairhmm_entry;

/* DPA_CUDA_WORKLOAD_SW. run aligns (GATK semantics, docs/sw.md, docs/sw-cuda.md) the pairs
 * pairs[0..n) of a batch that passed dpa_sw_validate(), on one device. For each pair p, it
 * writes its CIGAR text at cigars + slots[p] (at most 2 * (ref_len + alt_len) bytes), its
 * length in cigar_lengths[p] and the alignment offset in alignment_offsets[p];
 * byte-identical to the CPU kernels. *exact_matches is set to the pairs answered by the
 * exact-substring shortcut. Splits internally into chunks of the device budget. On an
 * error the outputs are partly written: the caller recomputes the pairs. */
typedef struct dpa_cuda_sw_entry {
    dpa_cuda_entry_header header;
    dpa_status (*run)(dpa_cuda_backend *backend, int32_t device, const dpa_sw_batch *batch,
                      const dpa_sw_params *params, const int32_t *pairs, int64_t n,
                      char *cigars, const int64_t *slots, int32_t *cigar_lengths,
                      int32_t *alignment_offsets, int64_t *exact_matches, char *err,
                      size_t err_len);
} dpa_cuda_sw_entry;

/* DPA_CUDA_WORKLOAD_DISTANCE (docs/distance.md). The engine's bit planes as it built them
 * (native/src/cpu/distance/distance.h): samples [first, first + count), three planes per
 * sample of `words` 64-bit words (a multiple of 8): homA1 at (s*3+0)*words, homA2 at
 * (s*3+1)*words, het at (s*3+2)*words for s = sample - first. */
typedef struct dpa_cuda_dist_planes {
    const uint64_t *bits;
    int32_t first, count;
    int64_t words;
    /* bed != NULL (bits then NULL): the device builds the planes itself from the caller's
     * .bed rows (row_bytes each, num_variants of them; variant_use as in dpa_genotype_batch,
     * NULL = all; words as dpa_dist_words(variants used)), so the host neither builds nor
     * copies them (docs/distance.md, "CUDA"). */
    const uint8_t *bed;
    int64_t row_bytes, num_variants;
    const uint8_t *variant_use;
} dpa_cuda_dist_planes;

/* One tile of pairs: rows [r0, r1) x columns [c0, c1), sample indices of the batch. */
typedef struct dpa_cuda_dist_tile {
    int32_t r0, r1, c0, c1;
} dpa_cuda_dist_tile;

/* Where pair (r, c)'s seven counts go in the caller's output (dpaccel.h's layouts): upper =
 * 1, the triangle of n samples, only c > r, at 7 * (r*n - r*(r+1)/2 + c - r - 1); upper = 0,
 * a rectangle with first row row0 and columns [col0, col0 + cols), at
 * 7 * ((r - row0) * cols + c - col0). */
typedef struct dpa_cuda_dist_layout {
    int32_t upper;
    int32_t n;
    int32_t row0, col0, cols;
} dpa_cuda_dist_layout;

/* run writes the seven counts (dpaccel.h order) of every pair of tiles[0..ntiles) that the
 * layout keeps (all of a rectangle's, c > r of the triangle's) into out, identical to the
 * CPU kernels; *pairs_done = the pairs written. Each tile's samples must lie inside the
 * planes. Splits internally (sample ranges, variant chunks) to the device budget. On an
 * error the outputs are partly written: the caller recomputes the tiles. */
typedef struct dpa_cuda_distance_entry {
    dpa_cuda_entry_header header;
    dpa_status (*run)(dpa_cuda_backend *backend, int32_t device,
                      const dpa_cuda_dist_planes *planes, const dpa_cuda_dist_tile *tiles,
                      int64_t ntiles, const dpa_cuda_dist_layout *layout, uint32_t *out,
                      int64_t *pairs_done, char *err, size_t err_len);
} dpa_cuda_distance_entry;

/* DPA_CUDA_WORKLOAD_XDROP (docs/xdrop.md). run extends the seeds pairs[0..n) of a batch
 * that passed dpa_xdrop_validate(), on one device, with SeqAn's gapped X-drop exactly as the
 * CPU kernels do: for each pair p it writes the seven outputs at index p of out and adds the
 * swept cells (sum over anti-diagonals of the band) to *cells. Splits internally to the
 * device budget. On an error the outputs are partly written: the caller recomputes the
 * pairs. */
typedef struct dpa_cuda_xdrop_entry {
    dpa_cuda_entry_header header;
    dpa_status (*run)(dpa_cuda_backend *backend, int32_t device, const dpa_xdrop_batch *batch,
                      const dpa_xdrop_params *params, const int32_t *pairs, int64_t n,
                      const dpa_xdrop_output *out, int64_t *cells, char *err, size_t err_len);
} dpa_cuda_xdrop_entry;

/* DPA_CUDA_WORKLOAD_PDHMM. run computes the pairs pairs[0..n) of a batch that passed
 * dpa_pdhmm_validate(), on one device, writing out[pairs[k]] (the scaled sum of the last row,
 * bit-identical to the CPU kernels: cpu/pdhmm/pdhmm.h); rows is dpa_pdhmm_rows. On an error out is partly written: the caller
 * recomputes the pairs. */
typedef struct dpa_cuda_pdhmm_entry {
    dpa_cuda_entry_header header;
    dpa_status (*run)(dpa_cuda_backend *backend, int32_t device, const dpa_pdhmm_batch *batch,
                      const int32_t *pairs, int64_t n, int32_t rows, double *out, char *err,
                      size_t err_len);
} dpa_cuda_pdhmm_entry;

/* What the host gives the backend at open: where its diagnostics go (DPACCEL_CUDA_TIMING
 * lines). log may be NULL: the backend is then silent. */
/* PaPaRa (docs/papara.md): scores reads [first_read, first_read + num_reads) of batch against
 * profiles [first_profile, first_profile + num_profiles); out holds num_reads x num_profiles
 * int32, read-major, the scalar reference's values. The caller has validated batch and
 * params (dpa_papara_validate). */
typedef struct dpa_cuda_papara_entry {
    dpa_cuda_entry_header header;
    dpa_status (*run)(dpa_cuda_backend *backend, int32_t device, const dpa_papara_batch *batch,
                      const dpa_papara_params *params, int32_t first_profile,
                      int32_t num_profiles, int32_t first_read, int32_t num_reads,
                      int32_t *out, char *err, size_t err_len);
} dpa_cuda_papara_entry;

/* DPA_CUDA_WORKLOAD_HMM_FILTER (docs/hmm-filter.md). The integer DP of hmmsearch 3.4's
 * filters; the engine turns the integers into scores and runs the bias filter and the
 * decisions itself (cpu/hmm/hmm_filter.h). A model is its quantised tables as the engine's
 * profile holds them: rb 29 x (M+1) bytes, rw 29 x (M+1) words, tw (M+1) x 8 words in
 * DPA_HMM_W_* order (row k: BM, MM, IM, DM into node k; MD, MI, II, DD out of it). */
typedef struct dpa_cuda_hmm_model {
    const uint8_t *rb;
    const int16_t *rw;
    const int16_t *tw;
    int32_t M;
    int32_t ddbound_w;
    uint8_t bias_b, base_b, tbm_b, tec_b;
    int16_t xw_e_move, xw_e_loop, base_w;
} dpa_cuda_hmm_model;

/* Sequences: digital codes 0..28 (Easel's amino alphabet), sequence s at dsq + offsets[s],
 * lengths[s] residues (1..100,000). */
typedef struct dpa_cuda_hmm_seqs {
    const uint8_t *dsq;
    const int64_t *offsets;
    const int32_t *lengths;
    int32_t count;
} dpa_cuda_hmm_seqs;

/* One (model, sequence) DP. len_param is the target-length value the kind needs:
 * SSV none, MSV tjb_b (0..255), VIT xw_move (the N/C/J move word). */
typedef struct dpa_cuda_hmm_task {
    int32_t model, seq, len_param;
} dpa_cuda_hmm_task;

enum {
    DPA_CUDA_HMM_SSV = 0, /* out: HMMER's SSV xE, 128 + best diagonal, 255 on overflow */
    DPA_CUDA_HMM_MSV = 1, /* out: the full MSV's final xJ (0..255), or -1 on overflow */
    DPA_CUDA_HMM_VIT = 2  /* out: the Viterbi filter's final xC (-32768..32767), 32768 on overflow */
};

/* run computes tasks[0..n) of one kind on one device, writing out[t] for task t: exactly
 * the integers of the scalar reference (dpa_hmm_ssv_xe_ref, dpa_hmm_msv_full_ref,
 * dpa_hmm_vit_ref). Uploads the models and sequences the tasks name; splits internally to
 * the device budget. A model with a DD word above 0 (no probability gives one) is refused
 * (DPA_ERR_INVALID_ARG): the D->D scan needs DD <= 0. On an error out is partly written:
 * the caller recomputes the tasks. */
typedef struct dpa_cuda_hmm_filter_entry {
    dpa_cuda_entry_header header;
    dpa_status (*run)(dpa_cuda_backend *backend, int32_t device, const dpa_cuda_hmm_model *models,
                      int32_t num_models, const dpa_cuda_hmm_seqs *seqs, int32_t kind,
                      const dpa_cuda_hmm_task *tasks, int64_t n, int32_t *out, char *err,
                      size_t err_len);
    /* Added 2026-11-29 (present when header.struct_size covers it): run with seqs->dsq
     * holding the caller's residue bytes, which the device digitises through code_of (256
     * entries, each below 29; refused otherwise). The host then never allocates a digitised
     * copy of the batch (at 300 M residues its page faults alone were a third of a GPU call). */
    dpa_status (*run_mapped)(dpa_cuda_backend *backend, int32_t device, const dpa_cuda_hmm_model *models,
                             int32_t num_models, const dpa_cuda_hmm_seqs *seqs, const uint8_t *code_of,
                             int32_t kind, const dpa_cuda_hmm_task *tasks, int64_t n, int32_t *out,
                             char *err, size_t err_len);
} dpa_cuda_hmm_filter_entry;

typedef struct dpa_cuda_host {
    dpa_log_fn log;
    void *log_user;
    /* CUDA device ordinals to open, in this order (backend device i = devices[i]); 0
     * devices = every visible one. An ordinal that is not visible fails the open. */
    const int32_t *devices;
    int32_t num_devices;
} dpa_cuda_host;

typedef struct dpa_cuda_ops {
    uint32_t abi_version;  /* DPA_CUDA_ABI_VERSION */
    uint32_t struct_size;  /* sizeof(dpa_cuda_ops) */

    /* Opens host's devices, or every visible device (at most max_devices; <= 0 = all). A
     * machine with no driver or no device, or a named device that is not visible, gives
     * DPA_ERR_NO_DEVICE and a reason in err. host may be NULL. */
    dpa_status (*open)(int32_t max_devices, const dpa_cuda_host *host, dpa_cuda_backend **out,
                       char *err, size_t err_len);
    void (*close)(dpa_cuda_backend *backend);
    int32_t (*device_count)(const dpa_cuda_backend *backend);
    dpa_status (*device_info)(const dpa_cuda_backend *backend, int32_t device,
                              dpa_device_info *out);

    /* Test-only switch: arms a fault for the next workload call on device. */
    dpa_status (*inject_fault)(dpa_cuda_backend *backend, int32_t device, int32_t fault);

    /* The entry table of a workload (its header first), or NULL when this library has
     * none for that id. The pointer stays valid while the library is loaded. */
    const dpa_cuda_entry_header *(*entry)(uint32_t workload_id);
} dpa_cuda_ops;

typedef const dpa_cuda_ops *(*dpa_cuda_get_ops_fn)(void);

/* Typed lookups for tests and tools that call the backend directly. */
static inline const dpa_cuda_pairhmm_entry *dpa_cuda_pairhmm_of(const dpa_cuda_ops *ops)
{
    return (const dpa_cuda_pairhmm_entry *)(const void *)ops->entry(DPA_CUDA_WORKLOAD_PAIRHMM);
}
static inline const dpa_cuda_sw_entry *dpa_cuda_sw_of(const dpa_cuda_ops *ops)
{
    return (const dpa_cuda_sw_entry *)(const void *)ops->entry(DPA_CUDA_WORKLOAD_SW);
}

static inline const dpa_cuda_distance_entry *dpa_cuda_distance_of(const dpa_cuda_ops *ops)
{
    return (const dpa_cuda_distance_entry *)(const void *)ops->entry(DPA_CUDA_WORKLOAD_DISTANCE);
}

static inline const dpa_cuda_xdrop_entry *dpa_cuda_xdrop_of(const dpa_cuda_ops *ops)
{
    return (const dpa_cuda_xdrop_entry *)(const void *)ops->entry(DPA_CUDA_WORKLOAD_XDROP);
}

static inline const dpa_cuda_pdhmm_entry *dpa_cuda_pdhmm_of(const dpa_cuda_ops *ops)
{
    return (const dpa_cuda_pdhmm_entry *)(const void *)ops->entry(DPA_CUDA_WORKLOAD_PDHMM);
}

/* The one exported symbol (looked up with dlsym by the engine; tests may link it). */
static inline const dpa_cuda_papara_entry *dpa_cuda_papara_of(const dpa_cuda_ops *ops)
{
    return (const dpa_cuda_papara_entry *)(const void *)ops->entry(DPA_CUDA_WORKLOAD_PAPARA);
}

static inline const dpa_cuda_hmm_filter_entry *dpa_cuda_hmm_filter_of(const dpa_cuda_ops *ops)
{
    return (const dpa_cuda_hmm_filter_entry *)(const void *)ops->entry(DPA_CUDA_WORKLOAD_HMM_FILTER);
}

const dpa_cuda_ops *dpa_cuda_get_ops(void);

#ifdef __cplusplus
}
#endif
#endif
