// emu_cuda_lib.cc — a stand-in libdpaccel_cuda.so for machines without a GPU: one fake
// "device" whose only entry is DPA_CUDA_WORKLOAD_HMM_FILTER, computed by warp_emulator.cc's
// lockstep emulation of the CUDA kernels' algorithms. Loaded through DPACCEL_CUDA_LIB, it lets
// kernels/tests/test_cuda_hmm_filter.cc run on a CPU: the engine's GPU path (the stage split,
// SSV decisions and full-MSV fallback, the CPU bias filter between GPU stages, HYBRID's shared
// queue) and the entry's contract are exercised end to end. It says nothing about the CUDA
// code itself (compiled, never run, when written): only a GPU run of the same test does.
//
//   g++ -O2 -std=c++17 -shared -fPIC -I../../native/include -I../../native/src -I../../native/tests \
//       -I../../kernels/include ../../tools/hmm/emu_cuda_lib.cc native/libdpaccel_core.a -o libemu_cuda.so
//   DPACCEL_CUDA_LIB=$PWD/libemu_cuda.so ./test_cuda_hmm_filter
#define main warp_emulator_main
#include "warp_emulator.cc"
#undef main

#include <cstdio>
#include <cstring>

extern "C" {
#include "dpa_cuda_backend.h"
}

namespace {

struct dpa_cuda_backend_emu {
    int dummy;
};
dpa_cuda_backend_emu g_backend;

dpa_status e_open(int32_t, const dpa_cuda_host *, dpa_cuda_backend **out, char *, size_t)
{
    *out = (dpa_cuda_backend *)(void *)&g_backend;
    return DPA_OK;
}
void e_close(dpa_cuda_backend *) {}
int32_t e_count(const dpa_cuda_backend *) { return 1; }
dpa_status e_info(const dpa_cuda_backend *, int32_t device, dpa_device_info *o)
{
    if (device != 0) return DPA_ERR_INVALID_ARG;
    std::memset(o, 0, sizeof *o);
    std::snprintf(o->name, sizeof o->name, "warp emulator (CPU)");
    o->cc_major = 9;
    o->multiprocessors = 1;
    o->total_memory = (uint64_t)1 << 30;
    o->usable = 1;
    return DPA_OK;
}
dpa_status e_fault(dpa_cuda_backend *, int32_t, int32_t) { return DPA_ERR_INVALID_ARG; }

dpa_status e_hmm(dpa_cuda_backend *, int32_t device, const dpa_cuda_hmm_model *models, int32_t num_models,
                 const dpa_cuda_hmm_seqs *seqs, int32_t kind, const dpa_cuda_hmm_task *tasks, int64_t n,
                 int32_t *out, char *err, size_t err_len)
{
    if (device != 0 || kind < 0 || kind > 2) {
        std::snprintf(err, err_len, "emu hmm-filter: device %d kind %d", device, kind);
        return DPA_ERR_INVALID_ARG;
    }
    for (int64_t t = 0; t < n; t++) {
        const dpa_cuda_hmm_task &k = tasks[t];
        if (k.model < 0 || k.model >= num_models || k.seq < 0 || k.seq >= seqs->count) {
            std::snprintf(err, err_len, "emu hmm-filter: task %lld names model %d of %d, sequence %d of %d",
                          (long long)t, k.model, num_models, k.seq, seqs->count);
            return DPA_ERR_INVALID_ARG;
        }
        if (kind == DPA_CUDA_HMM_MSV && (k.len_param < 0 || k.len_param > 255)) {
            std::snprintf(err, err_len, "emu hmm-filter: task %lld: tjb_b", (long long)t);
            return DPA_ERR_INVALID_ARG;
        }
        const dpa_cuda_hmm_model &m = models[k.model];
        if (kind == DPA_CUDA_HMM_VIT)
            for (int32_t j = 1; j < m.M; j++)
                if (m.tw[(size_t)j * 8 + 7] > 0) {
                    std::snprintf(err, err_len, "emu hmm-filter: model %d node %d: DD word > 0", k.model, j);
                    return DPA_ERR_INVALID_ARG;
                }
        dpa_hmm_profile p;
        std::memset(&p, 0, sizeof p);
        p.M = m.M;
        p.rb = const_cast<uint8_t *>(m.rb);
        p.rw = const_cast<int16_t *>(m.rw);
        p.tw = const_cast<int16_t *>(m.tw);
        p.bias_b = m.bias_b;
        p.base_b = m.base_b;
        p.tbm_b = m.tbm_b;
        p.tec_b = m.tec_b;
        p.xw_e_move = m.xw_e_move;
        p.xw_e_loop = m.xw_e_loop;
        p.base_w = m.base_w;
        p.ddbound_w = m.ddbound_w;
        const uint8_t *dsq = seqs->dsq + seqs->offsets[k.seq];
        const int L = seqs->lengths[k.seq];
        out[t] = kind == 0 ? emu_ssv(p, dsq, L) : kind == 1 ? emu_msv(p, dsq, L, k.len_param)
                                                            : emu_vit(p, dsq, L, k.len_param);
    }
    return DPA_OK;
}

dpa_status e_hmm_mapped(dpa_cuda_backend *b, int32_t device, const dpa_cuda_hmm_model *models, int32_t num_models,
                        const dpa_cuda_hmm_seqs *seqs, const uint8_t *code_of, int32_t kind,
                        const dpa_cuda_hmm_task *tasks, int64_t n, int32_t *out, char *err, size_t err_len)
{
    // digitise the sequences the tasks name, as the device does through code_of
    std::vector<uint8_t> dsq;
    std::vector<int64_t> off(seqs->count, 0);
    for (int32_t s = 0; s < seqs->count; s++) {
        off[s] = (int64_t)dsq.size();
        for (int32_t i = 0; i < seqs->lengths[s]; i++) dsq.push_back(code_of[seqs->dsq[seqs->offsets[s] + i]]);
    }
    const dpa_cuda_hmm_seqs coded = { dsq.data(), off.data(), seqs->lengths, seqs->count };
    return e_hmm(b, device, models, num_models, &coded, kind, tasks, n, out, err, err_len);
}

const dpa_cuda_hmm_filter_entry hmm_entry = { { DPA_CUDA_WORKLOAD_HMM_FILTER, sizeof(dpa_cuda_hmm_filter_entry) },
                                              e_hmm, e_hmm_mapped };
const dpa_cuda_entry_header *e_entry(uint32_t id)
{
    return id == DPA_CUDA_WORKLOAD_HMM_FILTER ? &hmm_entry.header : nullptr;
}
const dpa_cuda_ops ops = { DPA_CUDA_ABI_VERSION, sizeof(dpa_cuda_ops), e_open, e_close, e_count,
                           e_info, e_fault, e_entry };

}  // namespace

extern "C" __attribute__((visibility("default"))) const dpa_cuda_ops *dpa_cuda_get_ops(void) { return &ops; }
