/*
 * pairhmm_cuda.h — what the PairHMM launcher (host) and the kernels (device) share: the
 * packed batch layout, the kernel configurations and the cost model's constants.
 *
 * Packed layout of one chunk (built on the host in one pinned buffer, copied to the
 * device with ONE cudaMemcpyAsync, results copied back with ONE cudaMemcpyAsync):
 *
 *   rdata   uint32 per read position: code | base_q << 8 | ins_q << 16 | del_q << 24
 *   rgcp    uint8 per read position: gap-continuation quality
 *   hcode   uint8 per haplotype position (base code, see below)
 *   pairs   dpa_phmm_pdesc per pair, sorted by (config, passes, hap length) descending
 *   warps   dpa_phmm_wdesc per warp task, grouped by config
 *   count   int32 (+pad): number of pairs flagged for the double pass   <- D2H starts here
 *   res     double per pair, indexed by pdesc.res (chunk-local task index)
 *   -- device only --
 *   flags   int32 per pair: pdesc indices of flagged pairs
 *   scratch boundary rows of multi-pass warp tasks (float) and of the double pass
 *
 * Base codes: one fixed bijection of byte values (the same for every chunk, call and
 * device): 'N' -> 0 (matches anything), 'A' 'C' 'G' 'T' -> 1..4, every other byte to a code
 * >= 5. "Equal bytes or N" becomes "equal codes or code 0". The float kernels look priors
 * up in a per-thread table of the 5 codes 0..4; a pair whose read or haplotype holds any
 * other letter runs in double (a property of the pair alone, so the numerics of a pair
 * never depend on its neighbours, the chunking or the device).
 */
#ifndef DPA_PAIRHMM_CUDA_H
#define DPA_PAIRHMM_CUDA_H

#include <stdint.h>

/* Threads per block of every PairHMM kernel (4 warps). */
#define DPA_PHMM_BLOCK 128
/* Codes in the float kernels' prior table (N, A, C, G, T). */
#define DPA_PHMM_TABLE_CODES 5

typedef struct dpa_phmm_pdesc {
    uint32_t read_off; /* into rdata / rgcp */
    int32_t read_len;
    uint32_t hap_off;  /* into hcode */
    int32_t hap_len;
    int32_t res;       /* into res */
    int32_t pad_;
} dpa_phmm_pdesc;

typedef struct dpa_phmm_wdesc {
    int32_t first;   /* first pdesc of the warp task */
    int32_t count;   /* pairs in it (<= 32 / G) */
    int32_t steps;   /* max hap length + G - 1 */
    int32_t passes;  /* max ceil(read_len / (G*R)) */
    int64_t scratch; /* offset of its boundary rows, in cells (multi-pass only) */
} dpa_phmm_wdesc;

/* Prefix sharing (docs/pairhmm.md, "Prefix sharing"; pairhmm_share.h, pairhmm_shared_kernel.cu).
 * Every shared pair is a task of its own, as in the all-pairs kernels, run by a group of
 * DPA_PHMM_SHARED_G threads; it may start from a checkpoint column that another pair of the
 * same read saves in the same launch (each thread waits for its part of the entry: a ready
 * flag) and may save checkpoints while it passes their columns. A checkpoint is one entry
 * of DPA_PHMM_ENTRY_FLOATS floats: per thread of the group, R rows of M, I, D and the
 * running sum of the last row. */
#define DPA_PHMM_SHARED_G 8
/* Read classes of the shared kernel: rows per thread 16 (reads of at most 128 rows) and
 * DPA_PHMM_SHORT8_R (at most 160); longer reads take the all-pairs kernels. */
#define DPA_PHMM_SHARED_CLASSES 2
#define DPA_PHMM_ENTRY_FLOATS ((3 * DPA_PHMM_SHORT8_R + 1) * DPA_PHMM_SHARED_G)
typedef struct dpa_phmm_sdesc {
    int32_t resume;       /* first column already known (0: none) */
    int32_t load;         /* its checkpoint, an entry index relative to ebase; -1: none */
    int32_t save0, save1; /* its saves: (column, entry relative to ebase) word pairs
                           * [save0, save1) of ssaves, ascending columns */
    int32_t ebase;        /* the read's first checkpoint entry */
    int32_t pad_[3];
} dpa_phmm_sdesc;

/* Arguments of every PairHMM kernel (passed by value). */
typedef struct dpa_phmm_kargs {
    const uint32_t *rdata;
    const uint8_t *rgcp;
    const uint8_t *hcode;
    const dpa_phmm_pdesc *pairs;
    const dpa_phmm_wdesc *warps; /* this launch's warp tasks */
    int32_t num_warps;
    int32_t wide_first;         /* pdescs [wide_first, num_pairs): double only (letters) */
    void *scratch;              /* cells: float4 (float) or double4 (double) */
    double *res;
    int32_t *count;             /* flagged pairs (float) / pairs to do (double) */
    int32_t *flags;             /* flagged pdesc indices; NULL in the double pass = all */
    int32_t num_pairs;          /* pairs of the chunk */
    int32_t max_hap;            /* double pass: scratch cells per warp = max_hap + 1 */
    const double *err;          /* 128 entries: 10^(-q/10) */
    /* shared kernel only: pdescs [shared_first, shared_first + shared pairs) have sdescs */
    int32_t shared_first;
    const dpa_phmm_sdesc *sdesc;
    const int32_t *ssaves;
    float *ckpt;                /* checkpoint entries */
    int32_t *ready;             /* per entry and thread of a group: 1 once it is written */
} dpa_phmm_kargs;

/* Result-slot markers (NaN payloads no result takes: a float result is log10 of a sum
 * >= 1e-28, a double one log10 of a sum the double pass computed). The float kernels write
 * FLAGGED for a pair they leave to the double pass; the direct path of the launcher writes
 * PENDING into every slot before the launch, and so sees on the host, slot by slot, which
 * pairs are done and which need the double pass. */
#define DPA_PHMM_RES_PENDING 0x7ff4d0a5e5d00000ULL
#define DPA_PHMM_RES_FLAGGED 0x7ff4d0a5e5d0f1a9ULL

/* Kernel configurations: G threads per pair (1 = inter-task, thread per pair), R read
 * rows per thread. One float kernel per entry; the double pass uses DPA_PHMM_DOUBLE_G/R. */
typedef struct dpa_phmm_cfg {
    int32_t g, r;
    int32_t u; /* uniform coefficients: see dpa_phmm_uniform_cfg */
} dpa_phmm_cfg;

/* Configurations the cost model chooses from (entries 0..DPA_PHMM_NUM_CFG-1 of
 * dpa_phmm_cfgs), and all float kernels: the R = 16 ones also exist in a uniform-coefficient
 * form for reads whose insertion, deletion and gap qualities are constant and whose length
 * is a multiple of 16 (the same bits, fewer registers). At most 15 (4-bit fields, and
 * 15 is the sort class of double-only pairs). */
#define DPA_PHMM_NUM_CFG 10
#define DPA_PHMM_NUM_KERN 15
/* phmm_f32<32, 8> runs reads of at most 32 * this many rows with this many rows per thread
 * (the launcher's latency model counts it) */
#define DPA_PHMM_SHORT_R 5
/* phmm_f32<8, 16> (configuration DPA_PHMM_CFG_8_16) runs a warp whose reads all fit 8 * this
 * many rows in one pass with this many rows per thread, instead of two passes of 16: a
 * 151-bp read in one pass of n + 7 steps (the launcher's passes, warp plan and cost model
 * count it through dpa_phmm_passes) */
#define DPA_PHMM_SHORT8_R 20
#define DPA_PHMM_CFG_8_16 5
#define DPA_PHMM_DOUBLE_G 32
#define DPA_PHMM_DOUBLE_R 8

#ifdef __cplusplus
extern "C" {
#endif
/* Defined in pairhmm_kernels.cu. */
extern const dpa_phmm_cfg dpa_phmm_cfgs[DPA_PHMM_NUM_KERN];
/* The uniform-coefficient kernel for a read of length L (a multiple of 16) that the cost
 * model gave configuration cfg, or cfg itself when there is none: the R = 16 forms of
 * <8,16>, <16,16>, <32,16>; reads of <32,16> whose length 32 divides take R = 32 (half the
 * per-step overhead per cell and one pass up to 1024 rows: <16,32> up to 512 rows, <32,32>
 * above) when r32 (the device gives the 80 KiB prior table). <4,16> has no uniform form;
 * <8,16> keeps its per-row kernel for reads of 129-160 rows (one pass instead of two). */
static inline int32_t dpa_phmm_uniform_cfg(int32_t cfg, int64_t L, int r32)
{
    switch (cfg) {
    case 5: return L <= 8 * 16 ? 10 : 5; /* 129-160 rows: <8,16>'s one-pass 20-row path, not
                                           * two uniform passes */
    case 7: return 11;
    case 9: return r32 && L % 32 == 0 ? (L <= 512 ? 13 : 14) : 12;
    default: return cfg;
    }
}
/* Passes of a read of L rows under configuration cfg (after the uniform mapping): L / (G R)
 * rounded up, and 1 for the short paths (<32,8> runs reads of <= 160 rows as 32 x 5 in one
 * pass anyway; <8,16> runs reads of <= 160 rows as 8 x 20). */
static inline int64_t dpa_phmm_passes(int32_t cfg, int64_t L)
{
    const int64_t gr = (int64_t)dpa_phmm_cfgs[cfg].g * dpa_phmm_cfgs[cfg].r;
    if (cfg == DPA_PHMM_CFG_8_16 && L <= 8 * DPA_PHMM_SHORT8_R) return 1;
    return L < 1 ? 1 : (L + gr - 1) / gr;
}
/* Host-side launch entry points of the float kernels, indexed like dpa_phmm_cfgs, and of the double pass,
 * for cudaLaunchKernel / cudaFuncSetAttribute. */
const void *dpa_phmm_kernel_f32(int32_t cfg);
const void *dpa_phmm_kernel_f64(void);
/* Shared memory a float kernel needs for its prior table. */
size_t dpa_phmm_smem_f32(int32_t cfg);
/* The prefix-sharing kernel of read class cls (0: 16 rows per thread, 1: 20), its rows per
 * thread and its shared memory. Defined in pairhmm_shared_kernel.cu. Its warp tasks are
 * dpa_phmm_wdesc (first pdesc, count, steps = longest new part + G - 1, passes 1). */
const void *dpa_phmm_kernel_shared(int32_t cls);
int32_t dpa_phmm_shared_rows(int32_t cls);
size_t dpa_phmm_smem_shared(int32_t cls);
#ifdef __cplusplus
}
#endif

#endif
