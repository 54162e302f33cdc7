/*
 * pairhmm_device.cuh — the PairHMM forward algorithm on the device, shared by the
 * all-pairs kernels (pairhmm_kernels.cu) and the prefix-sharing kernel
 * (pairhmm_shared_kernel.cu). Device code only; included by exactly those .cu files,
 * each of which gets its own copy (anonymous namespace).
 *
 *
 * One algorithm, one template: a GROUP of G threads computes one (read, haplotype) pair;
 * thread t of the group owns R consecutive read rows and sweeps the haplotype columns
 * along an anti-diagonal wavefront (thread t works on column j = s - t + 1 at step s).
 * Per step a thread receives, from thread t-1 through __shfl_up_sync, the bottom row of
 * t-1 at column j (M, I, D) and the haplotype code of column j; everything else (its R
 * rows of M, I, D and their transition probabilities) stays in registers.
 *   - G = 32, 16, 8, 4: intra-task (a warp holds 32/G pairs), the strategy of the
 *     warp-per-pair GPU PairHMMs;
 *   - G = 1: inter-task, one thread per pair, boundary rows in an interleaved (coalesced)
 *     global layout, the strategy of the thread-per-pair GPU PairHMMs.
 * Reads longer than G*R rows take several passes; the bottom row of a pass is written to a
 * global boundary buffer (cells interleaved across the warp's groups: coalesced) and read
 * back by thread 0 in the next pass.
 *
 * Reads are aligned to the BOTTOM of the group's G*R*passes rows: the rows above the read
 * are "virtual" rows that copy GATK's row 0 exactly (prior 0, mi = md = 0, ii = dd = 1,
 * D column 0 = initial/hap_len), so the last read row is always register R-1 of thread
 * G-1 and the final sum needs no dynamic register index.
 *
 * Float kernels look emission priors, already multiplied by the row's match transition,
 * up in a per-thread shared-memory table prior[code][row] * mm[row] (one LDS.128 per 4
 * cells instead of a compare and a select per cell; see step() for the folded update);
 * the double kernel (recompute pass) compares codes.
 *
 * Contents: cell types and explicitly rounded operations; load_rows (a thread's read
 * rows and prior table for one pass); step and sweep (the wavefront); group_task (one
 * pair by a group); put_f32 (a float result or its flag for the double pass).
 */
#ifndef DPA_PAIRHMM_DEVICE_CUH
#define DPA_PAIRHMM_DEVICE_CUH

#include <cuda_runtime.h>

#include "pairhmm_cuda.h"

/* Steps of the wavefront loop unrolled together (4 ran 6-8% faster than 2 on the H100,
 * docs/pairhmm-cuda.md). */
#ifndef DPA_PHMM_UNROLL
#define DPA_PHMM_UNROLL 4
#endif

namespace {

struct __align__(32) dcell {
    double m, i, d, pad;
};

template <typename T> struct ptraits;
template <> struct ptraits<float> {
    typedef float4 cell;
    static __device__ __forceinline__ float initial() { return 0x1p120f; }
    static constexpr double log10_initial = 36.12359947967774; /* 120 log10(2) */
};
template <> struct ptraits<double> {
    typedef dcell cell;
    static __device__ __forceinline__ double initial() { return 0x1p1020; }
    static constexpr double log10_initial = 307.0505955772608; /* 1020 log10(2) */
};

__device__ __forceinline__ void cell_get(const float4 &c, float &m, float &i, float &d)
{
    m = c.x;
    i = c.y;
    d = c.z;
}
__device__ __forceinline__ void cell_get(const dcell &c, double &m, double &i, double &d)
{
    m = c.m;
    i = c.i;
    d = c.d;
}
__device__ __forceinline__ float4 cell_make(float m, float i, float d)
{
    return make_float4(m, i, d, 0.0f);
}
__device__ __forceinline__ dcell cell_make(double m, double i, double d)
{
    dcell c;
    c.m = m;
    c.i = i;
    c.d = d;
    c.pad = 0;
    return c;
}

/* Explicitly rounded operations: the compiler may not contract or reorder them, so every
 * kernel configuration (G, R, pass structure, architecture) performs exactly the same
 * roundings for a cell and a pair's result does not depend on how it was scheduled. */
__device__ __forceinline__ float xmul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ float xadd(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ float xfma(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double xmul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ double xadd(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ double xfma(double a, double b, double c) { return __fma_rn(a, b, c); }

template <int G, typename V> __device__ __forceinline__ V shfl_up1(V v)
{
    if constexpr (G == 1) {
        return v;
    } else {
        return __shfl_up_sync(0xffffffffu, v, 1, G);
    }
}

/* The transition coefficients of a thread's R rows: one set per row, or (U, "uniform")
 * one set for all of them. U kernels run only pairs whose insertion, deletion and gap
 * qualities are constant along the read and whose length is a multiple of R (the launcher
 * checks both), so a thread holds either R real rows with equal coefficients or R virtual
 * rows: the same values as the per-row form, 4 registers instead of 4 R (R = 16: 4 blocks
 * per SM instead of 3). Float: gm holds gm / mm. */
template <typename T, int R, bool U> struct coefs {
    T gm_[R], mi_[R], md_[R], gc_[R];
    __device__ __forceinline__ T gm(int r) const { return gm_[r]; }
    __device__ __forceinline__ T mi(int r) const { return mi_[r]; }
    __device__ __forceinline__ T md(int r) const { return md_[r]; }
    __device__ __forceinline__ T gc(int r) const { return gc_[r]; }
    __device__ __forceinline__ void set(int r, T gm, T mi, T md, T gc)
    {
        gm_[r] = gm;
        mi_[r] = mi;
        md_[r] = md;
        gc_[r] = gc;
    }
};
template <typename T, int R> struct coefs<T, R, true> {
    T gm_, mi_, md_, gc_;
    __device__ __forceinline__ T gm(int) const { return gm_; }
    __device__ __forceinline__ T mi(int) const { return mi_; }
    __device__ __forceinline__ T md(int) const { return md_; }
    __device__ __forceinline__ T gc(int) const { return gc_; }
    __device__ __forceinline__ void set(int, T gm, T mi, T md, T gc)
    {
        gm_ = gm;
        mi_ = mi;
        md_ = md;
        gc_ = gc;
    }
};

/* A thread's R rows in one pass: transition coefficients and the cells of the current
 * column. Float (table): mm is unused, and pm / px (prior * mm) only feed the table. */
template <typename T, int R, bool U> struct rows {
    coefs<T, R, U> k;
    T mm[R], pm[R], px[R];
    int rc[R];
    T M[R], I[R], D[R];
};

/* What a thread carries from one wavefront step to the next, besides its rows. */
template <typename T> struct carry {
    T pM, pI, pD; /* row above, previous column (received a step ago) */
    int hc;       /* haplotype code of this step's column (received a step ahead, so the
                   * table load does not wait for a shuffle) */
    int nxt_hc;   /* thread 0: code of the column after next, prefetched */
    typename ptraits<T>::cell nxt_b; /* thread 0: next column's boundary row */
    T sum;
};

/*
 * One wavefront step (column j = s - t + 1 for thread t). GUARD: some lane of the warp may
 * be outside 1 <= j <= n, so the update is conditional; the sweep runs the middle steps,
 * where every lane is inside, with GUARD = false (no branch, no merge of two register
 * states, which cost ~14 moves per step). LOADB / STOREB: see sweep.
 *
 * Cell update (explicitly rounded, the same sequence in every instance):
 *   D = md M' + gc D'                        (M', D': this row, column j-1)
 *   I = fma(gc, I^, mi M^)                   (I^, M^: row above, column j, just computed)
 *   float:  M = pmm fma(gmr, dI + dD, dM)    (dM, dI, dD: row above, column j-1)
 *   double: M = prior fma(mm, dM, gm (dI + dD))
 * The float form folds the emission prior into the table (pmm = prior mm, gmr = gm / mm,
 * both rounded once from the double expressions): 7 FP operations per cell instead of 8,
 * and two fewer values per row in registers. I's chain through a thread's rows is one
 * FMA per row (mi M^ does not wait for I^), so a step's critical path is R FMAs.
 */
template <typename T, int G, int R, bool U, bool TABLE, bool LOADB, bool STOREB, bool GUARD>
__device__ __forceinline__ void step(int s, const uint8_t *hap, int n, T d0, int t, int g,
                                     typename ptraits<T>::cell *scratch, const float4 *tbl,
                                     rows<T, R, U> &w, carry<T> &c)
{
    constexpr int P = 32 / G;
    constexpr int Q = (R + 3) / 4;
    const int j = s - t + 1;
    const int hc = c.hc;
    float4 pq[Q];
    if constexpr (TABLE) {
        const float4 *tp = tbl + hc * Q * DPA_PHMM_BLOCK;
#pragma unroll
        for (int q = 0; q < Q; q++) pq[q] = tp[q * DPA_PHMM_BLOCK];
    }
    T uM = shfl_up1<G>(w.M[R - 1]);
    T uI = shfl_up1<G>(w.I[R - 1]);
    T uD = shfl_up1<G>(w.D[R - 1]);
    /* thread t-1 is one column ahead: its code now is this thread's next */
    c.hc = shfl_up1<G>(hc);
    if (t == 0) {
        c.hc = c.nxt_hc;
        /* column s + 3 (j = s + 1 here); from s, not from the previous index, so the
         * unrolled steps' loads do not form a dependent chain */
        c.nxt_hc = __ldg(hap + min(s + 2, n - 1));
        if (LOADB) {
            cell_get(c.nxt_b, uM, uI, uD);
            c.nxt_b = scratch[min(j + 1, n) * P + g];
        } else {
            uM = 0;
            uI = 0;
            uD = d0;
        }
    }
    if (!GUARD || (j >= 1 && j <= n)) {
        /* top-down; a: row above at column j-1 (old), b: row above at column j (new) */
        T aM = c.pM, aI = c.pI, aD = c.pD, bM = uM, bI = uI;
#pragma unroll
        for (int r = 0; r < R; r++) {
            const T oM = w.M[r], oI = w.I[r], oD = w.D[r];
            T nM;
            if constexpr (TABLE) {
                const float4 v = pq[r / 4];
                const T pmm = (r & 3) == 0 ? v.x : (r & 3) == 1 ? v.y : (r & 3) == 2 ? v.z : v.w;
                nM = xmul(pmm, xfma(w.k.gm(r), xadd(aI, aD), aM));
            } else {
                const T prior = (w.rc[r] == hc || hc == 0) ? w.pm[r] : w.px[r];
                nM = xmul(prior, xfma(w.mm[r], aM, xmul(w.k.gm(r), xadd(aI, aD))));
            }
            const T nI = xfma(w.k.gc(r), bI, xmul(w.k.mi(r), bM));
            w.D[r] = xfma(w.k.md(r), oM, xmul(w.k.gc(r), oD));
            w.M[r] = nM;
            w.I[r] = nI;
            aM = oM;
            aI = oI;
            aD = oD;
            bM = nM;
            bI = nI;
        }
        if (STOREB) {
            if (t == G - 1) scratch[j * P + g] = cell_make(w.M[R - 1], w.I[R - 1], w.D[R - 1]);
        } else {
            /* every lane adds (only thread G-1's sum is used): no branch */
            c.sum = xadd(c.sum, xadd(w.M[R - 1], w.I[R - 1]));
        }
    }
    c.pM = uM;
    c.pI = uI;
    c.pD = uD;
}

/* What sweep does after each step with the column the thread just computed (j, from
 * 1 - t up to steps - t; outside 1..n the thread computed nothing), its rows and its last
 * row's running sum: nothing in the all-pairs kernels; the prefix-sharing kernel saves
 * checkpoints there (pairhmm_shared_kernel.cu). */
struct no_hook {
    template <typename W, typename T> __device__ __forceinline__ void operator()(int, const W &, T)
    {
    }
};

/*
 * One pass of a group over every haplotype column. LOADB: thread 0 takes the row above
 * from the boundary buffer (else it is GATK's row 0); STOREB: thread G-1 writes its bottom
 * row to the buffer (else it adds it to the final sum). Separate instances keep the hot
 * single-pass loop free of the buffer code. nmin: the shortest haplotype of the warp's
 * groups; steps [G-1, nmin) have every lane inside its pair.
 */
template <typename T, int G, int R, bool U, bool TABLE, bool LOADB, bool STOREB,
          typename After = no_hook>
__device__ __forceinline__ void sweep(const uint8_t *hap, int n, int nmin, T d0, int t, int g,
                                      int steps, T pD0, typename ptraits<T>::cell *scratch,
                                      const float4 *tbl, rows<T, R, U> &w, T &sum,
                                      After after = After())
{
    constexpr int P = 32 / G;
    carry<T> c;
    c.pM = 0;
    c.pI = 0;
    c.pD = pD0;
    c.sum = sum;
    /* thread 0: codes of columns 1 and 2, and the boundary row of column 1, prefetched
     * (the buffer cell it reads is rewritten G-1 steps later at the earliest) */
    c.hc = 0;
    c.nxt_hc = 0;
    c.nxt_b = {};
    if (t == 0) {
        c.hc = __ldg(hap);
        c.nxt_hc = __ldg(hap + min(1, n - 1));
        if (LOADB) c.nxt_b = scratch[1 * P + g];
    }
    const int s1 = min(G - 1, steps), s2 = max(s1, nmin);
    int s = 0;
    for (; s < s1; s++) {
        step<T, G, R, U, TABLE, LOADB, STOREB, true>(s, hap, n, d0, t, g, scratch, tbl, w, c);
        after(s - t + 1, w, c.sum);
    }
    constexpr int UNROLL = DPA_PHMM_UNROLL; /* pragma arguments are not macro-expanded */
#pragma unroll UNROLL
    for (; s < s2; s++) {
        step<T, G, R, U, TABLE, LOADB, STOREB, false>(s, hap, n, d0, t, g, scratch, tbl, w, c);
        after(s - t + 1, w, c.sum);
    }
    for (; s < steps; s++) {
        step<T, G, R, U, TABLE, LOADB, STOREB, true>(s, hap, n, d0, t, g, scratch, tbl, w, c);
        after(s - t + 1, w, c.sum);
    }
    if (!STOREB) sum = c.sum;
}

/*
 * A thread's R rows for one pass: padded rows row0 .. row0 + R - 1 (read position = padded
 * row - pad; below 0 a virtual row, an exact copy of GATK's row 0), their coefficients,
 * M = I = 0 and D = 0 (virtual rows: d0) as at column 0, and (TABLE) the thread's prior
 * table. Sets mm_zero when a real row has mm = 0 (the folded float form does not exist).
 */
template <typename T, int R, bool U, bool TABLE>
__device__ __forceinline__ void load_rows(const dpa_phmm_kargs &a, const dpa_phmm_pdesc &pd,
                                          int row0, int pad, T d0, rows<T, R, U> &w,
                                          float4 *tbl, bool &mm_zero)
{
    constexpr int Q = (R + 3) / 4; /* float4 quads per thread and code in the table */
#pragma unroll
    for (int r = 0; r < R; r++) {
        const int pr = row0 + r - pad; /* read position, < 0: virtual row */
        if (pr >= 0) {
            const uint32_t word = __ldg(a.rdata + pd.read_off + pr);
            const double e = __ldg(a.err + ((word >> 8) & 0xff));
            const double ei = __ldg(a.err + ((word >> 16) & 0xff));
            const double ed = __ldg(a.err + (word >> 24));
            const double eg = __ldg(a.err + __ldg(a.rgcp + pd.read_off + pr));
            /* exactly the reference's double expressions, then one rounding to T */
            const double mmd = 1.0 - fmin(1.0, ei + ed); /* GATK clamps at 0 */
            const double pmd = 1.0 - e, pxd = e / 3.0;
            w.rc[r] = (int)(word & 0xff);
            T gm;
            if constexpr (TABLE) {
                mm_zero |= mmd == 0.0;
                w.mm[r] = 0;
                gm = mmd == 0.0 ? (T)0 : (T)((1.0 - eg) / mmd);
                w.pm[r] = (T)(pmd * mmd);
                w.px[r] = w.rc[r] == 0 ? w.pm[r] : (T)(pxd * mmd); /* read N matches anything */
            } else {
                w.mm[r] = (T)mmd;
                gm = (T)(1.0 - eg);
                w.pm[r] = (T)pmd;
                w.px[r] = w.rc[r] == 0 ? w.pm[r] : (T)pxd;
            }
            /* U: every row of this thread is real and gives the same values */
            w.k.set(r, gm, (T)ei, (T)ed, (T)eg);
            w.D[r] = 0;
        } else {
            w.mm[r] = 0;
            w.k.set(r, 0, 0, 0, 1); /* U: every row of this thread is virtual */
            w.pm[r] = 0; w.px[r] = 0; w.rc[r] = 0;
            w.D[r] = d0; /* virtual rows copy row 0: D = initial / n from column 0 on */
        }
        w.M[r] = 0;
        w.I[r] = 0;
    }
    if constexpr (TABLE) {
        /* prior[c][row] for every code c; code 0 (N) matches every row */
#pragma unroll
        for (int c = 0; c < DPA_PHMM_TABLE_CODES; c++) {
#pragma unroll
            for (int q = 0; q < Q; q++) {
                float e[4];
#pragma unroll
                for (int k = 0; k < 4; k++) {
                    const int r = 4 * q + k; /* R need not be a multiple of 4 */
                    e[k] = r >= R ? 0.0f
                                  : (float)((w.rc[r] == c || c == 0) ? w.pm[r] : w.px[r]);
                }
                tbl[(c * Q + q) * DPA_PHMM_BLOCK] = make_float4(e[0], e[1], e[2], e[3]);
            }
        }
    }
}

/*
 * Computes one pair with a group of G threads (thread t of group g; P groups per warp).
 * All 32 lanes of the warp must call it with the same steps/passes (warp-uniform loops;
 * shuffles use the full mask). Lanes of an inactive group compute a copy of a real pair
 * and write nothing but their own scratch cells.
 * Returns the scaled forward sum in thread G-1 (meaningless elsewhere). TABLE (float):
 * *fold_ok is false for the whole group when a read row has mm = 0 (insertion + deletion
 * error probabilities >= 1, qualities <= 3), where gm / mm does not exist; the caller
 * sends such a pair to the double pass.
 */
template <typename T, int G, int R, bool U, bool TABLE>
__device__ __forceinline__ T group_task(const dpa_phmm_kargs &a, const dpa_phmm_pdesc &pd,
                                        int t, int g, int steps, int passes,
                                        typename ptraits<T>::cell *scratch, float4 *tbl,
                                        bool *fold_ok)
{
    const int L = pd.read_len, n = pd.hap_len;
    const T d0 = ptraits<T>::initial() / (T)n;
    const int pad = passes * G * R - L;
    const uint8_t *hap = a.hcode + pd.hap_off;
    T sum = 0;
    bool mm_zero = false;
    int nmin = n; /* shortest haplotype among the warp's groups */
#pragma unroll
    for (int o = 16; o >= G; o /= 2) nmin = min(nmin, __shfl_xor_sync(0xffffffffu, nmin, o));

    for (int pass = 0; pass < passes; pass++) {
        const int row0 = pass * G * R + t * R; /* padded row index of register 0 */
        const bool last = pass == passes - 1;
        rows<T, R, U> w;
        load_rows<T, R, U, TABLE>(a, pd, row0, pad, d0, w, tbl, mm_zero);

        /* row above this thread's first row, at column j-1 (starts at column 0) */
        const T pD0 = (row0 - 1 < pad) ? d0 : (T)0;
        if (passes == 1) {
            sweep<T, G, R, U, TABLE, false, false>(hap, n, nmin, d0, t, g, steps, pD0, scratch,
                                                tbl, w, sum);
        } else if (pass == 0) {
            sweep<T, G, R, U, TABLE, false, true>(hap, n, nmin, d0, t, g, steps, pD0, scratch,
                                               tbl, w, sum);
        } else if (!last) {
            sweep<T, G, R, U, TABLE, true, true>(hap, n, nmin, d0, t, g, steps, pD0, scratch,
                                              tbl, w, sum);
        } else {
            sweep<T, G, R, U, TABLE, true, false>(hap, n, nmin, d0, t, g, steps, pD0, scratch,
                                               tbl, w, sum);
        }
        __syncwarp(); /* the boundary row written by thread G-1 is read by thread 0 next */
    }
    if constexpr (TABLE) {
        /* every lane votes (warp-uniform call); the group's lanes decide together */
        const unsigned votes = __ballot_sync(0xffffffffu, mm_zero);
        const unsigned gmask = G == 32 ? 0xffffffffu : ((1u << G) - 1u) << (g * G);
        *fold_ok = (votes & gmask) == 0;
    } else {
        *fold_ok = true;
    }
    return sum;
}

/* Writes the result of one pair from thread G-1: log10 of the float sum, or a flag for
 * the double pass when the sum is below 1e-28 (GATK's rule; compared in double as the
 * reference does) or when the folded float form does not exist for the pair (!fold_ok). */
__device__ __forceinline__ void put_f32(const dpa_phmm_kargs &a, int32_t pidx, int32_t res,
                                        float sum, bool fold_ok)
{
    const double v = (double)sum;
    if (!(v >= 1e-28) || !fold_ok) {
        a.flags[atomicAdd(a.count, 1)] = pidx;
        /* overwritten by the double pass; the host's direct path waits on it */
        a.res[res] = __longlong_as_double((long long)DPA_PHMM_RES_FLAGGED);
    } else {
        a.res[res] = log10(v) - ptraits<float>::log10_initial;
    }
}

}  // namespace

#endif
