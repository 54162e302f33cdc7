// cuda_test_util.h — opening the CUDA backend in a test (skipping loudly without a GPU),
// expanding a batch into tasks, and the CPU double reference for every task.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" {
#include "cpu/pairhmm/pairhmm.h"
#include "dpa_cuda_backend.h"
/* the backend's one export (the ABI header only declares its pointer type) */
const dpa_cuda_ops *dpa_cuda_get_ops(void);
}
#include "test_util.h"

namespace dpa_cuda_test {

// The backend's diagnostics (DPACCEL_CUDA_TIMING lines) arrive on the host's log callback;
// tests that read them capture stderr, so the callback prints there.
inline void log_to_stderr(void *, dpa_log_level, const char *msg) { std::fprintf(stderr, "%s\n", msg); }
inline const dpa_cuda_host *stderr_host()
{
    static const dpa_cuda_host host = { log_to_stderr, nullptr };
    return &host;
}

struct Backend {
    const dpa_cuda_ops *ops = dpa_cuda_get_ops();
    dpa_cuda_backend *b = nullptr;
    std::string why;
    dpa_status open_status = DPA_OK;
    Backend()
    {
        char err[512] = "";
        open_status = ops->open(0, stderr_host(), &b, err, sizeof err);
        if (open_status != DPA_OK) {
            b = nullptr;
            why = std::string(dpa_status_name_local(open_status)) + ": " + err;
        }
    }
    ~Backend()
    {
        if (b) ops->close(b);
    }
    Backend(const Backend &) = delete;
    Backend &operator=(const Backend &) = delete;
    static const char *dpa_status_name_local(dpa_status s)
    {
        switch (s) {
        case DPA_ERR_NO_DEVICE: return "DPA_ERR_NO_DEVICE";
        case DPA_ERR_DEVICE: return "DPA_ERR_DEVICE";
        case DPA_ERR_OUT_OF_MEMORY: return "DPA_ERR_OUT_OF_MEMORY";
        default: return "error";
        }
    }
};

#define DPA_REQUIRE_GPU(bk)                                                                 \
    do {                                                                                   \
        if (!(bk).b)                                                                       \
            GTEST_SKIP() << "\n*** NO USABLE GPU: CUDA test SKIPPED (not run, not passed): " \
                         << (bk).why << " ***";                                            \
    } while (0)

// Sets an environment variable for the life of the object (the backend reads
// DPACCEL_CUDA_FORCE_CFG / DPACCEL_CUDA_CHUNK_BYTES at open).
struct ScopedEnv {
    std::string name;
    ScopedEnv(const char *n, const std::string &v) : name(n) { setenv(n, v.c_str(), 1); }
    ~ScopedEnv() { unsetenv(name.c_str()); }
};

inline std::vector<dpa_phmm_task> all_tasks(const dpa_pairhmm_batch &b)
{
    std::vector<dpa_phmm_task> t;
    for (int32_t r = 0; r < b.num_reads; r++)
        for (int32_t h = 0; h < b.num_haps; h++)
            t.push_back(dpa_phmm_task{ r, h, (int64_t)r * b.num_haps + h });
    return t;
}

inline std::vector<double> reference(const dpa_pairhmm_batch &b,
                                     const std::vector<dpa_phmm_task> &tasks, int32_t precision)
{
    std::vector<double> out(tasks.size());
    for (size_t k = 0; k < tasks.size(); k++) {
        dpa_phmm_pair p = dpa_phmm_pair_of(&b, &tasks[k]);
        out[tasks[k].out] = dpa_phmm_log10_scalar(&p, precision, nullptr);
    }
    return out;
}

// Random stress batch: lengths 1..max_len (mixed, some long), N bases, qualities over the
// whole range 0..127 or a realistic range.
inline dpa_test::Batch stress_batch(std::mt19937_64 &rng, int reads, int haps, int max_len,
                                    int qmin, int qmax)
{
    dpa_test::Batch b;
    std::uniform_int_distribution<int> len(1, max_len);
    for (int i = 0; i < reads; i++) {
        int L = (i % 4 == 0) ? len(rng) : 1 + (int)(rng() % std::min(max_len, 160));
        dpa_test::Read r = dpa_test::random_read(rng, L, qmin, qmax);
        r.bases = dpa_test::random_bases(rng, L, "ACGTACGTACGTN");
        b.reads.push_back(r);
    }
    for (int i = 0; i < haps; i++) {
        int n = (i % 3 == 0) ? len(rng) : 1 + (int)(rng() % std::min(max_len, 300));
        b.haps.push_back(dpa_test::random_bases(rng, n, "ACGTACGTACGTACGTN"));
    }
    return b;
}

inline void expect_close(const std::vector<double> &got, const std::vector<double> &want,
                         double tol, uint64_t seed, const char *what)
{
    ASSERT_EQ(got.size(), want.size());
    int bad = 0;
    for (size_t k = 0; k < got.size() && bad < 10; k++) {
        const bool both_nan = std::isnan(got[k]) && std::isnan(want[k]);
        if (both_nan || got[k] == want[k]) continue; /* also equal infinities */
        if (!(std::fabs(got[k] - want[k]) <= tol)) {
            ADD_FAILURE() << what << ": result " << k << " = " << got[k] << ", reference "
                          << want[k] << " (tolerance " << tol << "), DPA_TEST_SEED=" << seed;
            bad++;
        }
    }
}

}  // namespace dpa_cuda_test
