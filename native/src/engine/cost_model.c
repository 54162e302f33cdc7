/* cost_model.c — see cost_model.h. */
#include "engine/cost_model.h"

/* Float cells per second per thread, by ISA (measured, docs/BENCHMARKS.md). */
static double cpu_rate(dpa_isa isa)
{
    switch (isa) {
    case DPA_ISA_AVX512: return 4.0e9;
    case DPA_ISA_AVX2: return 2.5e9;
    default: return 0.4e9;
    }
}

double dpa_cost_cpu_seconds(int64_t cells, int64_t pairs, int32_t threads, dpa_isa isa)
{
    (void)pairs;
    return (double)cells / (cpu_rate(isa) * (threads > 0 ? threads : 1));
}

/* A GPU call pays a fixed price (launch, one copy each way, synchronisation) of about
 * 50 us, plus a small per-pair packing cost on the host, then streams at ~1e12 cells/s. */
double dpa_cost_gpu_seconds(int64_t cells, int64_t pairs, int32_t devices)
{
    return 50e-6 + (double)pairs * 20e-9 + (double)cells / (1.0e12 * (devices > 0 ? devices : 1));
}

/* Smith-Waterman. CPU: cells per second per thread of the SIMD kernels (docs/sw-simd.md).
 * GPU: a fixed price per call (launch, copies, synchronisation), host packing per pair, then
 * the kernel's rate (docs/sw-cuda.md). */
double dpa_cost_sw_cpu_seconds(int64_t cells, int32_t threads, dpa_isa isa)
{
    const double rate = isa == DPA_ISA_AVX512 ? 5.0e9 : isa == DPA_ISA_AVX2 ? 2.4e9 : 0.4e9;
    return (double)cells / (rate * (threads > 0 ? threads : 1));
}

double dpa_cost_sw_gpu_seconds(int64_t cells, int64_t pairs, int32_t devices)
{
    return 300e-6 + (double)pairs * 0.2e-6 + (double)cells / (0.5e12 * (devices > 0 ? devices : 1));
}

/* pair-words (64 pair-SNPs) per second per thread, one thread of the 2-core Zen 4 dev VM
 * after the register-blocked kernels (docs/BENCHMARKS.md, 2026-11-29: 145, 61 and 7 G
 * pair-SNPs/s). AVX-512 is the VPOPCNTQ kernel's rate; a CPU without VPOPCNTQ (Skylake-X)
 * runs at about the AVX2 rate, so there the CPU is overrated 2x, which only moves the CPU/GPU
 * crossover of calls shorter than ~1 ms. */
double dpa_cost_distance_cpu_seconds(int64_t pair_words, int32_t threads, dpa_isa isa)
{
    const double rate = isa == DPA_ISA_AVX512 ? 2.2e9 : isa == DPA_ISA_AVX2 ? 0.95e9 : 0.1e9;
    return (double)pair_words / (rate * (threads > 0 ? threads : 1));
}

double dpa_cost_distance_gpu_seconds(int64_t pair_words, int64_t tiles, int32_t devices)
{
    return 100e-6 + (double)tiles * 1e-6 + (double)pair_words / (10e12 * (devices > 0 ? devices : 1));
}

/* X-drop: about 0.7 G cells/s per thread for the scalar sweep (SeqAn's speed, issue 21), a
 * SIMD kernel a few times that, plus ~200 cells' worth of set-up per seed; the estimate only
 * has to rank CPU against GPU, and there is no GPU kernel yet. */
/* X-drop: cells are the workload's estimate (xdrop_workload.c: whole sides, band capped),
 * ~1.35x the cells swept on 12%-divergent long reads at X = 100. Measured 2026-11-28 on
 * H100 hosts (docs/BENCHMARKS.md): ~1.2 G swept cells/s per AVX-512 thread, ~260 G per
 * H100 kernel, ~250 G per GPU for the whole unit with two feeders overlapping. */
double dpa_cost_xdrop_cpu_seconds(int64_t cells, int64_t seeds, int32_t threads, dpa_isa isa)
{
    const double per_thread = isa == DPA_ISA_SCALAR ? 0.7e9 : 1.6e9;
    return ((double)cells + 200.0 * (double)seeds) / (per_thread * (threads > 0 ? threads : 1));
}

double dpa_cost_xdrop_gpu_seconds(int64_t cells, int64_t seeds, int32_t devices)
{
    (void)seeds;
    return 1e-3 + (double)cells / (3.3e11 * (devices > 0 ? devices : 1));
}

/* PaPaRa (docs/papara.md): cost = profile cells (profiles x sites x read bases). Measured
 * on the 1604.PRANK shape (docs/BENCHMARKS.md, "PaPaRa"): one thread of the int16 kernels
 * 7.8-8.9 G cells/s (AVX-512 and AVX2 alike) on the dev VM, 16 threads of an H200 host 7.4
 * each (119 G cells/s); the scalar reference ~0.3; the 16-bit CUDA kernel 2.09 T cells/s on an H200 for a
 * whole call, priced at 1.6 (the HYBRID runs were measured with it). The CPU is priced
 * low on purpose: in HYBRID a CPU share that runs long ends the call after the GPU. */
double dpa_cost_papara_cpu_seconds(int64_t cells, int64_t tasks, int32_t threads, dpa_isa isa)
{
    const double per_thread = isa == DPA_ISA_AVX512 ? 4e9 : isa == DPA_ISA_AVX2 ? 3.5e9 : 0.3e9;
    return ((double)cells + 1000.0 * (double)tasks) / (per_thread * (threads > 0 ? threads : 1));
}

double dpa_cost_papara_gpu_seconds(int64_t cells, int64_t tasks, int32_t devices)
{
    (void)tasks;
    return 1e-3 + (double)cells / (1.6e12 * (devices > 0 ? devices : 1));
}

/* HMM filter (whole pipeline, cells = M x L): measured one-thread figures on the 2-core dev
 * VM (docs/hmm-filter.md, "Speed"): AVX2 ~16, AVX-512 ~14, scalar ~0.25 G cells/s. */
double dpa_cost_hmm_filter_cpu_seconds(int64_t cells, int64_t pairs, int32_t threads, dpa_isa isa)
{
    const double per_thread = isa == DPA_ISA_AVX512 ? 14e9 : isa == DPA_ISA_AVX2 ? 16e9 : 0.3e9;
    return ((double)cells + 2000.0 * (double)pairs) / (per_thread * (threads > 0 ? threads : 1));
}

/* GPU: UNMEASURED placeholder. The CUDA kernels (hmm_filter_kernels.cu) have not been timed
 * when this was written; priced at 50 G cells/s per device plus 20 us per pair (three stage
 * launches, the host's bias filter), below a multi-core AVX2 CPU, so AUTO keeps the filter
 * on the CPU until a measurement replaces this; GPU and HYBRID use the kernels when asked. */
double dpa_cost_hmm_filter_gpu_seconds(int64_t cells, int64_t pairs, int32_t devices)
{
    return 5e-3 + ((double)cells / 50e9 + 20e-6 * (double)pairs) / (devices > 0 ? devices : 1);
}
