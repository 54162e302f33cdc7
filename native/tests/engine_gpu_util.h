// engine_gpu_util.h — what the engine-level GPU tests (test_engine_gpu.cc,
// test_engine_sw_gpu.cc) share: a context with the GPU enabled, a sink that keeps the
// warnings the engine logs (fault fallbacks must log exactly one), and a fixture that skips
// loudly, saying why, on machines without a usable GPU.
#pragma once
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "dpaccel.h"

namespace dpa_test {

struct WarnSink {
    std::mutex m;
    std::vector<std::string> warnings;
    static void fn(void *user, dpa_log_level level, const char *msg)
    {
        auto *s = static_cast<WarnSink *>(user);
        std::lock_guard<std::mutex> g(s->m);
        if (level == DPA_LOG_WARN) s->warnings.emplace_back(msg);
    }
};

// 4 threads, the GPU enabled whatever the environment says; NULL when creation fails.
inline dpa_context *make_gpu_context(int backend, WarnSink *sink = nullptr)
{
    dpa_options o;
    dpa_options_init(&o);
    o.num_threads = 4;
    o.backend = backend;
    o.gpu_disable = 0;
    if (sink) {
        o.log_fn = WarnSink::fn;
        o.log_user = sink;
    }
    dpa_context *ctx = nullptr;
    if (dpa_context_create(&o, &ctx) != DPA_OK) return nullptr;
    return ctx;
}

// `probe` is an AUTO context with at least one usable GPU; otherwise the test is skipped.
class GpuContextTest : public ::testing::Test {
  protected:
    void SetUp() override
    {
        probe = make_gpu_context(DPA_BACKEND_AUTO);
        int32_t n = 0;
        if (probe) dpa_context_device_count(probe, &n);
        if (n == 0) {
            char line[2048] = "";
            if (probe) dpa_context_describe(probe, line, sizeof line);
            GTEST_SKIP() << "SKIPPED (no usable GPU on this machine): " << line;
        }
    }
    void TearDown() override { dpa_context_destroy(probe); }
    dpa_context *probe = nullptr;
};

}  // namespace dpa_test
