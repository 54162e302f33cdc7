/*
 * distance_kernels.cu — the genotype-distance kernels (docs/distance.md, "CUDA"): one thread
 * block of 8 warps per job, a block of up to 64 x 64 sample pairs, walking the variants 512
 * at a time through shared memory.
 *
 * The seven counts of docs/distance.md are six binary GEMMs of the 0/1 planes, rows (i) by
 * columns (j), with O = homA1 | homA2 and C = O | het built in registers:
 *   NSNP = C.C   IBS0 = A.B + B.A   HETHET = H.H   HET1_HOM2 = H.O   HET2_HOM1 = O.H
 * IBS1 = H.O + O.H and IBS2 = NSNP - IBS0 - IBS1 (the terms of each sum never share a bit).
 * sm_80 and newer run them as `mma.sync.m16n8k256 ... b1.and.popc` (a 16 x 8 x 256-bit AND +
 * popcount product per instruction); each warp owns 32 rows x 16 columns, i.e. 2 x 2 tiles of
 * 16 x 8, and six accumulators per tile. Older devices (and DPACCEL_DIST_CUDA_POPC=1, the
 * cross-check) run the same counts with __popc, each thread owning 4 x 4 pairs.
 *
 * Fragment layout of m16n8k256 .b1 (PTX ISA, "Matrix Fragments for mma.m16n8k256"), lane =
 * 4 g + t: A (16 x 256, row) a0 = row g bits [32t, 32t + 32), a1 = row g + 8, a2/a3 the same
 * rows at bits 128 + 32t; B (256 x 8, col) b0 = column g bits [32t, 32t + 32), b1 at 128 + 32t;
 * C d0/d1 = row g columns 2t, 2t + 1, d2/d3 = row g + 8. The order of bits inside a 32-bit
 * register does not matter: A's and B's registers of one lane cover the same 32 variants.
 */
#include "distance_cuda.h"

#define NT 256
#define PAD (DPA_DIST_GPU_KWORDS + 4) /* words per (sample, plane) row in shared memory: rows
                                       * 60 words apart put the 8 groups x 4 lanes of a
                                       * fragment load on 32 distinct banks */
#define STAGE_VEC (2 * DPA_DIST_GPU_BLOCK * 3 * (DPA_DIST_GPU_KWORDS / 4)) /* uint4 per stage */

typedef uint32_t dist_smem[2][DPA_DIST_GPU_BLOCK][3][PAD];

/* One stage: words [kb * 16, kb * 16 + 16) of the three planes of the job's rows (side 0)
 * and columns (side 1); samples past the job's edge read as zero (they count nothing and
 * their results are never stored). */
__device__ __forceinline__ void load_stage(dist_smem sm, const dpa_dist_gjob &J,
                                           const uint32_t *__restrict__ planes, int64_t words32,
                                           int64_t kb)
{
    for (int i = threadIdx.x; i < STAGE_VEC; i += NT) {
        const int q = i & 3, row = i >> 2;
        const int p = row % 3, smp = (row / 3) % DPA_DIST_GPU_BLOCK, side = row / (3 * DPA_DIST_GPU_BLOCK);
        const int n = side ? J.nc : J.nr;
        const int base = side ? J.c0 : J.r0;
        uint4 v = make_uint4(0, 0, 0, 0);
        if (smp < n)
            v = __ldg(reinterpret_cast<const uint4 *>(
                planes + ((int64_t)(base + smp) * 3 + p) * words32 + kb * DPA_DIST_GPU_KWORDS) + q);
        *reinterpret_cast<uint4 *>(&sm[side][smp][p][q * 4]) = v;
    }
}

/* The MMA kernel's ring of NSTAGE stages in dynamic shared memory (92 KB: fits every sm_80+
 * device, 99 KB on sm_86/89): stage kb + 2 is in flight (cp.async) while stage kb is
 * multiplied, so a stage's global-memory latency hides behind the two before it (with one
 * stage between two barriers, call 1 of docs/lab/2026-11-28-distance-gpu.md measured 91 T
 * pair-SNPs/s computed, 11% of the six-product roof). */
#define NSTAGE 3
#define MMA_SMEM (NSTAGE * sizeof(dist_smem))

__device__ __forceinline__ void cp_async16(void *smem, const void *gmem)
{
    const unsigned sa = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(gmem));
}

/* load_stage through cp.async (the caller commits the group); samples past the job's edge
 * get zeros by plain stores, made visible by the barrier before the stage is read. */
__device__ __forceinline__ void load_stage_async(dist_smem sm, const dpa_dist_gjob &J,
                                                 const uint32_t *__restrict__ planes,
                                                 int64_t words32, int64_t kb)
{
    for (int i = threadIdx.x; i < STAGE_VEC; i += NT) {
        const int q = i & 3, row = i >> 2;
        const int p = row % 3, smp = (row / 3) % DPA_DIST_GPU_BLOCK, side = row / (3 * DPA_DIST_GPU_BLOCK);
        const int n = side ? J.nc : J.nr;
        const int base = side ? J.c0 : J.r0;
        uint32_t *dst = &sm[side][smp][p][q * 4];
        if (smp < n)
            cp_async16(dst, planes + ((int64_t)(base + smp) * 3 + p) * words32 +
                                kb * DPA_DIST_GPU_KWORDS + q * 4);
        else
            *reinterpret_cast<uint4 *>(dst) = make_uint4(0, 0, 0, 0);
    }
}

/* Stores one pair's six sums as the buffer's five counts (distance_cuda.h), or adds them
 * (later variant chunks). */
__device__ __forceinline__ void store_pair(uint32_t *o, const uint32_t s[6], int accumulate)
{
    const uint32_t v[DPA_DIST_GPU_COUNTS] = { s[0], s[1] + s[2], s[3], s[4], s[5] };
#pragma unroll
    for (int k = 0; k < DPA_DIST_GPU_COUNTS; k++) o[k] = accumulate ? o[k] + v[k] : v[k];
}

__device__ __forceinline__ void bmma(int32_t c[4], uint32_t a0, uint32_t a1, uint32_t a2,
                                     uint32_t a3, uint32_t b0, uint32_t b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
#else
    (void)c, (void)a0, (void)a1, (void)a2, (void)a3, (void)b0, (void)b1;
#endif
}

__global__ void __launch_bounds__(NT, 1)
dist_mma_kernel(const dpa_dist_gjob *__restrict__ jobs, const uint32_t *__restrict__ planes,
                int64_t words32, uint32_t *__restrict__ counts, int accumulate)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    extern __shared__ __align__(16) uint32_t dist_ring[];
    dist_smem *ring = reinterpret_cast<dist_smem *>(dist_ring);
    const dpa_dist_gjob J = jobs[blockIdx.x];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int g = lane >> 2, t = lane & 3;
    const int wr = (warp >> 2) * 32, wc = (warp & 3) * 16; /* the warp's rows and columns */
    int32_t acc[2][2][6][4];
#pragma unroll
    for (int mt = 0; mt < 2; mt++)
#pragma unroll
        for (int nt = 0; nt < 2; nt++)
#pragma unroll
            for (int k = 0; k < 6; k++)
#pragma unroll
                for (int e = 0; e < 4; e++) acc[mt][nt][k][e] = 0;
    /* warps whose rows or columns are all past the job's edge still load and sync */
    const int live = wr < J.nr && wc < J.nc;
    const int64_t stages = words32 / DPA_DIST_GPU_KWORDS;
    /* one commit group per stage, empty ones too, so "all but the newest group done" always
     * means "stage kb is here" */
#pragma unroll
    for (int k = 0; k < NSTAGE - 1; k++) {
        if (k < stages) load_stage_async(ring[k], J, planes, words32, k);
        asm volatile("cp.async.commit_group;\n" ::);
    }
    for (int64_t kb = 0; kb < stages; kb++) {
        asm volatile("cp.async.wait_group %0;\n" ::"n"(NSTAGE - 2));
        /* stage kb is visible to all; every thread is done with stage kb - 1, whose buffer
         * the load below refills */
        __syncthreads();
        if (kb + NSTAGE - 1 < stages)
            load_stage_async(ring[(kb + NSTAGE - 1) % NSTAGE], J, planes, words32, kb + NSTAGE - 1);
        asm volatile("cp.async.commit_group;\n" ::);
        if (!live) continue;
        uint32_t(*sm)[DPA_DIST_GPU_BLOCK][3][PAD] = ring[kb % NSTAGE];
#pragma unroll
        for (int kw = 0; kw < DPA_DIST_GPU_KWORDS; kw += 8) {
#pragma unroll
            for (int mt = 0; mt < 2; mt++) {
                const int r = wr + mt * 16 + g;
                uint32_t a[3][4];
#pragma unroll
                for (int p = 0; p < 3; p++) {
                    a[p][0] = sm[0][r][p][kw + t];
                    a[p][1] = sm[0][r + 8][p][kw + t];
                    a[p][2] = sm[0][r][p][kw + t + 4];
                    a[p][3] = sm[0][r + 8][p][kw + t + 4];
                }
                uint32_t ao[4], ac[4];
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    ao[e] = a[0][e] | a[1][e];
                    ac[e] = ao[e] | a[2][e];
                }
#pragma unroll
                for (int nt = 0; nt < 2; nt++) {
                    const int c = wc + nt * 8 + g;
                    uint32_t b[3][2];
#pragma unroll
                    for (int p = 0; p < 3; p++) {
                        b[p][0] = sm[1][c][p][kw + t];
                        b[p][1] = sm[1][c][p][kw + t + 4];
                    }
                    const uint32_t bo0 = b[0][0] | b[1][0], bo1 = b[0][1] | b[1][1];
                    const uint32_t bc0 = bo0 | b[2][0], bc1 = bo1 | b[2][1];
                    int32_t(*x)[4] = acc[mt][nt];
                    bmma(x[0], ac[0], ac[1], ac[2], ac[3], bc0, bc1);                 /* C.C */
                    bmma(x[1], a[0][0], a[0][1], a[0][2], a[0][3], b[1][0], b[1][1]); /* A.B */
                    bmma(x[2], a[1][0], a[1][1], a[1][2], a[1][3], b[0][0], b[0][1]); /* B.A */
                    bmma(x[3], a[2][0], a[2][1], a[2][2], a[2][3], b[2][0], b[2][1]); /* H.H */
                    bmma(x[4], a[2][0], a[2][1], a[2][2], a[2][3], bo0, bo1);         /* H.O */
                    bmma(x[5], ao[0], ao[1], ao[2], ao[3], b[2][0], b[2][1]);         /* O.H */
                }
            }
        }
    }
    if (!live) return;
#pragma unroll
    for (int mt = 0; mt < 2; mt++)
#pragma unroll
        for (int nt = 0; nt < 2; nt++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                const int r = wr + mt * 16 + g + (e >> 1) * 8, c = wc + nt * 8 + 2 * t + (e & 1);
                if (r >= J.nr || c >= J.nc) continue;
                uint32_t s[6];
#pragma unroll
                for (int k = 0; k < 6; k++) s[k] = (uint32_t)acc[mt][nt][k][e];
                store_pair(counts + J.out + ((int64_t)r * J.ld + c) * DPA_DIST_GPU_COUNTS, s, accumulate);
            }
#else
    (void)jobs, (void)planes, (void)words32, (void)counts, (void)accumulate;
#endif
}

/* The same counts with __popc: thread (y, x) of a 16 x 16 grid owns rows 4y..4y+3 and
 * columns 4x..4x+3 of the job. */
__global__ void __launch_bounds__(NT, 1)
dist_popc_kernel(const dpa_dist_gjob *__restrict__ jobs, const uint32_t *__restrict__ planes,
                 int64_t words32, uint32_t *__restrict__ counts, int accumulate)
{
    __shared__ __align__(16) dist_smem sm;
    const dpa_dist_gjob J = jobs[blockIdx.x];
    const int r0 = (threadIdx.x >> 4) * 4, c0 = (threadIdx.x & 15) * 4;
    uint32_t acc[4][4][6];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int k = 0; k < 6; k++) acc[i][j][k] = 0;
    const int64_t stages = words32 / DPA_DIST_GPU_KWORDS;
    for (int64_t kb = 0; kb < stages; kb++) {
        __syncthreads();
        load_stage(sm, J, planes, words32, kb);
        __syncthreads();
        for (int w = 0; w < DPA_DIST_GPU_KWORDS; w++) {
            uint32_t ra[4], rb[4], rh[4], cA[4], cB[4], cH[4];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                ra[i] = sm[0][r0 + i][0][w], rb[i] = sm[0][r0 + i][1][w], rh[i] = sm[0][r0 + i][2][w];
                cA[i] = sm[1][c0 + i][0][w], cB[i] = sm[1][c0 + i][1][w], cH[i] = sm[1][c0 + i][2][w];
            }
#pragma unroll
            for (int i = 0; i < 4; i++) {
                const uint32_t ro = ra[i] | rb[i], rc = ro | rh[i];
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const uint32_t co = cA[j] | cB[j], cc = co | cH[j];
                    acc[i][j][0] += __popc(rc & cc);
                    acc[i][j][1] += __popc((ra[i] & cB[j]) | (rb[i] & cA[j]));
                    acc[i][j][3] += __popc(rh[i] & cH[j]);
                    acc[i][j][4] += __popc(rh[i] & co);
                    acc[i][j][5] += __popc(ro & cH[j]);
                }
            }
        }
    }
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const int r = r0 + i, c = c0 + j;
            if (r >= J.nr || c >= J.nc) continue;
            store_pair(counts + J.out + ((int64_t)r * J.ld + c) * DPA_DIST_GPU_COUNTS, acc[i][j], accumulate);
        }
}

/* The planes from the .bed: thread = one sample of the planes, blockIdx.y (striding) = one
 * 64-bit word, i.e. the 64 used variants vmap[w * 64 ..] (-1 past the last: zero padding).
 * The four threads of one .bed byte read it together (one sector per variant row for a warp);
 * each thread writes its three words. Bit b of word w is used variant w * 64 + b, the host
 * planes' layout, so both give the same counts (the kernels only need every sample's planes
 * built alike). */
__global__ void __launch_bounds__(128)
dist_planes_kernel(const uint8_t *__restrict__ bed, int64_t row_bytes,
                   const int64_t *__restrict__ vmap, int32_t first, int32_t count, int64_t words,
                   uint64_t *__restrict__ planes)
{
    const int32_t s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= count) return;
    const int64_t col = (first + s) >> 2;
    const int sh = 2 * ((first + s) & 3);
    for (int64_t w = blockIdx.y; w < words; w += gridDim.y) {
        uint64_t a = 0, b = 0, h = 0;
#pragma unroll 8
        for (int k = 0; k < 64; k++) {
            const int64_t v = vmap[w * 64 + k];
            if (v < 0) break; /* padding: only at the end */
            const unsigned c = (__ldg(bed + v * row_bytes + col) >> sh) & 3u;
            a |= (uint64_t)(c == 0u) << k;
            b |= (uint64_t)(c == 3u) << k;
            h |= (uint64_t)(c == 2u) << k;
        }
        uint64_t *o = planes + (int64_t)s * 3 * words + w;
        o[0] = a, o[words] = b, o[2 * words] = h;
    }
}

cudaError_t dpa_dist_planes_launch(const uint8_t *bed, int64_t row_bytes, const int64_t *vmap,
                                   int32_t first, int32_t count, int64_t words, uint64_t *planes,
                                   cudaStream_t stream)
{
    if (count <= 0 || words <= 0) return cudaSuccess;
    const dim3 grid((unsigned)((count + 127) / 128), (unsigned)(words < 65535 ? words : 65535));
    dist_planes_kernel<<<grid, 128, 0, stream>>>(bed, row_bytes, vmap, first, count, words, planes);
    return cudaGetLastError();
}

cudaError_t dpa_dist_launch(const dpa_dist_gjob *jobs, int32_t njobs, const uint32_t *planes,
                            int64_t words32, uint32_t *counts, int accumulate, int popc,
                            cudaStream_t stream)
{
    if (njobs <= 0) return cudaSuccess;
    if (popc)
        dist_popc_kernel<<<njobs, NT, 0, stream>>>(jobs, planes, words32, counts, accumulate);
    else {
        /* over 48 KB of dynamic shared memory needs the opt-in (per device, cheap to repeat) */
        const cudaError_t e = cudaFuncSetAttribute(dist_mma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                   (int)MMA_SMEM);
        if (e != cudaSuccess) return e;
        dist_mma_kernel<<<njobs, NT, MMA_SMEM, stream>>>(jobs, planes, words32, counts, accumulate);
    }
    return cudaGetLastError();
}
