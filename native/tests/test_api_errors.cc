// Every bad argument of the public API gets the right status and a message naming the
// field, and leaves the context usable.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>

#include "test_util.h"

using namespace dpa_test;

namespace {

struct Fixture : ::testing::Test {
    dpa_context *ctx = nullptr;
    Batch b;
    std::vector<double> out;
    void SetUp() override
    {
        dpa_options o;
        dpa_options_init(&o);
        o.num_threads = 2;
        o.backend = DPA_BACKEND_CPU;
        ASSERT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
        std::mt19937_64 rng(3);
        for (int i = 0; i < 3; i++) b.reads.push_back(random_read(rng, 10 + i, 6, 40));
        b.haps = { "ACGTACGTAC", "ACGTTT" };
        out.assign(6, 0);
    }
    void TearDown() override { dpa_context_destroy(ctx); }

    // Applies `mutate` to a valid view and expects `status` with `needle` in the message.
    void expect_error(const std::function<void(dpa_pairhmm_batch &)> &mutate, dpa_status status,
                      const std::string &needle, int64_t out_len = 6)
    {
        dpa_pairhmm_batch v = b.view();
        mutate(v);
        dpa_status st = dpa_pairhmm_compute(ctx, &v, nullptr, out.data(), out_len, nullptr);
        EXPECT_EQ(st, status) << dpa_status_name(st) << ": " << dpa_last_error();
        EXPECT_NE(std::string(dpa_last_error()).find(needle), std::string::npos)
            << "message: " << dpa_last_error() << " (expected to mention '" << needle << "')";
        // the context still works
        dpa_pairhmm_batch good = b.view();
        EXPECT_EQ(dpa_pairhmm_compute(ctx, &good, nullptr, out.data(), 6, nullptr), DPA_OK);
    }
};

}  // namespace

TEST_F(Fixture, NullPointers)
{
    expect_error([](dpa_pairhmm_batch &v) { v.read_bases = nullptr; }, DPA_ERR_NULL_ARG, "read_bases");
    expect_error([](dpa_pairhmm_batch &v) { v.base_quals = nullptr; }, DPA_ERR_NULL_ARG, "base_quals");
    expect_error([](dpa_pairhmm_batch &v) { v.ins_quals = nullptr; }, DPA_ERR_NULL_ARG, "ins_quals");
    expect_error([](dpa_pairhmm_batch &v) { v.del_quals = nullptr; }, DPA_ERR_NULL_ARG, "del_quals");
    expect_error([](dpa_pairhmm_batch &v) { v.gcp_quals = nullptr; }, DPA_ERR_NULL_ARG, "gcp_quals");
    expect_error([](dpa_pairhmm_batch &v) { v.read_offsets = nullptr; }, DPA_ERR_NULL_ARG, "read_offsets");
    expect_error([](dpa_pairhmm_batch &v) { v.read_lengths = nullptr; }, DPA_ERR_NULL_ARG, "read_lengths");
    expect_error([](dpa_pairhmm_batch &v) { v.hap_bases = nullptr; }, DPA_ERR_NULL_ARG, "hap_bases");
    expect_error([](dpa_pairhmm_batch &v) { v.hap_offsets = nullptr; }, DPA_ERR_NULL_ARG, "hap_offsets");
    expect_error([](dpa_pairhmm_batch &v) { v.hap_lengths = nullptr; }, DPA_ERR_NULL_ARG, "hap_lengths");
    dpa_pairhmm_batch v = b.view();
    EXPECT_EQ(dpa_pairhmm_compute(nullptr, &v, nullptr, out.data(), 6, nullptr), DPA_ERR_NULL_ARG);
    EXPECT_EQ(dpa_pairhmm_compute(ctx, nullptr, nullptr, out.data(), 6, nullptr), DPA_ERR_NULL_ARG);
    EXPECT_EQ(dpa_pairhmm_compute(ctx, &v, nullptr, nullptr, 6, nullptr), DPA_ERR_NULL_ARG);
    EXPECT_EQ(dpa_context_create(nullptr, nullptr), DPA_ERR_NULL_ARG);
}

TEST_F(Fixture, LengthsAndCounts)
{
    std::vector<int32_t> zero = { 10, 0, 12 }, huge = { 10, DPA_PAIRHMM_MAX_LENGTH + 1, 12 },
                         neg = { 10, -5, 12 };
    expect_error([&](dpa_pairhmm_batch &v) { v.read_lengths = zero.data(); }, DPA_ERR_INVALID_ARG, "read_lengths[1] = 0");
    expect_error([&](dpa_pairhmm_batch &v) { v.read_lengths = neg.data(); }, DPA_ERR_INVALID_ARG, "read_lengths[1] = -5");
    expect_error([&](dpa_pairhmm_batch &v) { v.read_lengths = huge.data(); }, DPA_ERR_LIMIT, "1048576");
    std::vector<int32_t> hzero = { 10, 0 };
    expect_error([&](dpa_pairhmm_batch &v) { v.hap_lengths = hzero.data(); }, DPA_ERR_INVALID_ARG, "hap_lengths[1] = 0");
    std::vector<int64_t> badoff = { 0, -1, 20 };
    expect_error([&](dpa_pairhmm_batch &v) { v.read_offsets = badoff.data(); }, DPA_ERR_INVALID_ARG, "read_offsets[1]");
    expect_error([](dpa_pairhmm_batch &v) { v.num_reads = -1; }, DPA_ERR_INVALID_ARG, "num_reads");
    expect_error([](dpa_pairhmm_batch &) {}, DPA_ERR_INVALID_ARG, "out_len = 5", 5);
}

TEST_F(Fixture, QualitiesAbove127)
{
    for (const char *field : { "base_quals", "ins_quals", "del_quals", "gcp_quals" }) {
        Batch bad = b;
        Read &r = bad.reads[2];
        std::vector<uint8_t> &q = std::string(field) == "base_quals" ? r.q
                                  : std::string(field) == "ins_quals" ? r.ins
                                  : std::string(field) == "del_quals" ? r.del : r.gcp;
        q[4] = 128;
        dpa_pairhmm_batch v = bad.view();
        EXPECT_EQ(dpa_pairhmm_compute(ctx, &v, nullptr, out.data(), 6, nullptr), DPA_ERR_INVALID_ARG);
        std::string msg = dpa_last_error();
        EXPECT_NE(msg.find(field), std::string::npos) << msg;
        EXPECT_NE(msg.find("read 2 at position 4 = 128"), std::string::npos) << msg;
    }
}

TEST_F(Fixture, Groups)
{
    std::vector<int32_t> gr = { 2, 2 }, gh = { 1, 1 };
    expect_error([&](dpa_pairhmm_batch &v) { v.num_groups = 2; v.group_num_reads = gr.data(); v.group_num_haps = gh.data(); },
                 DPA_ERR_INVALID_ARG, "num_reads = 3");
    expect_error([&](dpa_pairhmm_batch &v) { v.num_groups = 2; v.group_num_reads = nullptr; v.group_num_haps = gh.data(); },
                 DPA_ERR_NULL_ARG, "group_num_reads");
    std::vector<int32_t> gneg = { -1, 4 };
    expect_error([&](dpa_pairhmm_batch &v) { v.num_groups = 2; v.group_num_reads = gneg.data(); v.group_num_haps = gh.data(); },
                 DPA_ERR_INVALID_ARG, "group 0");
}

TEST_F(Fixture, Params)
{
    dpa_pairhmm_batch v = b.view();
    dpa_pairhmm_params p;
    dpa_pairhmm_params_init(&p);
    p.precision = 7;
    EXPECT_EQ(dpa_pairhmm_compute(ctx, &v, &p, out.data(), 6, nullptr), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::string(dpa_last_error()).find("precision"), std::string::npos);
    dpa_pairhmm_params_init(&p);
    p.backend = 9;
    EXPECT_EQ(dpa_pairhmm_compute(ctx, &v, &p, out.data(), 6, nullptr), DPA_ERR_INVALID_ARG);
    dpa_pairhmm_params_init(&p);
    p.backend = DPA_BACKEND_GPU;  // no GPU in this context (GPU disabled)
    EXPECT_EQ(dpa_pairhmm_compute(ctx, &v, &p, out.data(), 6, nullptr), DPA_ERR_NO_DEVICE);
    EXPECT_NE(std::string(dpa_last_error()).find("gpu"), std::string::npos) << dpa_last_error();
}

TEST(ContextOptions, BadOptionsAreErrors)
{
    dpa_context *ctx = nullptr;
    dpa_options o;
    dpa_options_init(&o);
    o.num_threads = -1;
    EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::string(dpa_last_error()).find("num_threads"), std::string::npos);
    dpa_options_init(&o);
    o.cpu_disable = "avx512,sse9";
    EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::string(dpa_last_error()).find("sse9"), std::string::npos);
    dpa_options_init(&o);
    o.struct_size = 3;
    EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_ERR_INVALID_ARG);
    dpa_options_init(&o);
    o.backend = DPA_BACKEND_GPU;
    o.gpu_disable = 1;
    EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_ERR_NO_DEVICE);
    EXPECT_NE(std::string(dpa_last_error()).find("backend gpu requested"), std::string::npos)
        << dpa_last_error();
    EXPECT_EQ(ctx, nullptr);
    dpa_context_destroy(nullptr);  // harmless
}

TEST(ContextOptions, EnvironmentIsReadAndChecked)
{
    dpa_context *ctx = nullptr;
    const char *saved = std::getenv("DPACCEL_THREADS");
    std::string keep = saved ? saved : "";
    setenv("DPACCEL_THREADS", "zero", 1);
    EXPECT_EQ(dpa_context_create(nullptr, &ctx), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::string(dpa_last_error()).find("DPACCEL_THREADS"), std::string::npos);
    setenv("DPACCEL_THREADS", "3", 1);
    ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
    int32_t t = 0;
    dpa_context_threads(ctx, &t);
    EXPECT_EQ(t, 3);
    dpa_context_destroy(ctx);
    if (saved) setenv("DPACCEL_THREADS", keep.c_str(), 1); else unsetenv("DPACCEL_THREADS");
}

// The GPU unit knobs are read and range-checked at context creation like every other
// variable: a bad value names the variable and the allowed range.
TEST(ContextOptions, GpuUnitKnobsAreChecked)
{
    struct Case { const char *name, *bad, *good; };
    const Case cases[] = { { "DPACCEL_GPU_UNITS_PER_FEEDER", "65", "8" },
                           { "DPACCEL_GPU_UNITS_PER_FEEDER", "0", "1" },
                           { "DPACCEL_GPU_UNIT_MIN_COST", "0", "25000000" },
                           { "DPACCEL_GPU_UNIT_MIN_COST", "1e6", "1" },
                           { "DPACCEL_HYBRID_MIN_CPU_SHARE", "101", "100" },
                           { "DPACCEL_HYBRID_MIN_CPU_SHARE", "0.1", "0" } };
    for (const Case &c : cases) {
        SCOPED_TRACE(std::string(c.name) + "=" + c.bad);
        const char *saved = std::getenv(c.name);
        const std::string keep = saved ? saved : "";
        dpa_context *ctx = nullptr;
        setenv(c.name, c.bad, 1);
        EXPECT_EQ(dpa_context_create(nullptr, &ctx), DPA_ERR_INVALID_ARG);
        const std::string msg = dpa_last_error();
        EXPECT_NE(msg.find(c.name), std::string::npos) << msg;
        EXPECT_NE(msg.find("expected an integer in ["), std::string::npos) << msg;
        setenv(c.name, c.good, 1);
        ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
        dpa_context_destroy(ctx);
        if (saved) setenv(c.name, keep.c_str(), 1); else unsetenv(c.name);
    }
}

// options.gpu_devices and DPACCEL_GPU_DEVICES: a bad list names its source and says what is
// expected; a good one creates the context (with GPUs off: the list is checked all the same).
TEST(ContextOptions, GpuDeviceListsAreChecked)
{
    dpa_context *ctx = nullptr;
    dpa_options o;
    for (const char *bad : { "x", "1,", ",1", "-1", "1024", "0,0", "1 ,2", " 1", "1;2", "+1" }) {
        SCOPED_TRACE(std::string("gpu_devices = '") + bad + "'");
        dpa_options_init(&o);
        o.gpu_disable = 1;
        o.gpu_devices = bad;
        EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_ERR_INVALID_ARG);
        const std::string msg = dpa_last_error();
        EXPECT_NE(msg.find("options.gpu_devices = '"), std::string::npos) << msg;
        EXPECT_EQ(ctx, nullptr);
    }
    dpa_options_init(&o);
    o.gpu_disable = 1;
    o.gpu_devices = "0,0";
    EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::string(dpa_last_error()).find("device 0 is listed twice"), std::string::npos);
    for (const char *good : { "", "0", "3,1", "0,1,2,3,4,5,6,7", "1023" }) {
        SCOPED_TRACE(std::string("gpu_devices = '") + good + "'");
        dpa_options_init(&o);
        o.gpu_disable = 1;
        o.gpu_devices = good;
        ASSERT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
        dpa_context_destroy(ctx);
        ctx = nullptr;
    }
    const char *saved = std::getenv("DPACCEL_GPU_DEVICES");
    const std::string keep = saved ? saved : "";
    setenv("DPACCEL_GPU_DEVICES", "zero", 1);
    dpa_options_init(&o);
    o.gpu_disable = 1;
    EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::string(dpa_last_error()).find("DPACCEL_GPU_DEVICES = 'zero'"), std::string::npos)
        << dpa_last_error();
    o.gpu_devices = "1"; // the option wins over the variable
    ASSERT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
    dpa_context_destroy(ctx);
    if (saved) setenv("DPACCEL_GPU_DEVICES", keep.c_str(), 1); else unsetenv("DPACCEL_GPU_DEVICES");
}

TEST(Status, NamesAreStable)
{
    EXPECT_STREQ(dpa_status_name(DPA_OK), "DPA_OK");
    EXPECT_STREQ(dpa_status_name(DPA_ERR_INTERNAL), "DPA_ERR_INTERNAL");
    EXPECT_EQ((int)DPA_ERR_NO_DEVICE, 6);  // mirrored by the JNI layer and Java's Status
    EXPECT_STREQ(dpa_version(), DPA_VERSION_STRING);
}
