// test_cuda_faults.cc — faults degrade, never crash: injected OOM and sticky errors give
// the documented status, leave the process alive, and retire the device only when
// sticky; bad arguments are rejected; no driver/GPU is DPA_ERR_NO_DEVICE with a reason.
#include <cstring>

#include "cuda_test_util.h"

using namespace dpa_cuda_test;

namespace {

dpa_status run_small(Backend &bk, int32_t device, std::vector<double> *out, char *err,
                     size_t err_len)
{
    static dpa_test::Batch batch;
    if (batch.reads.empty()) {
        std::mt19937_64 rng(7);
        batch = stress_batch(rng, 5, 3, 120, 6, 40);
    }
    static dpa_pairhmm_batch b;
    b = batch.view();
    auto tasks = all_tasks(b);
    out->assign(tasks.size(), 0.0);
    int64_t rec = 0;
    return dpa_cuda_pairhmm_of(bk.ops)->run(bk.b, device, &b, tasks.data(), (int64_t)tasks.size(),
                           DPA_PRECISION_FLOAT_THEN_DOUBLE, out->data(), &rec, err, err_len);
}

}  // namespace

TEST(CudaFaults, OpenWithoutDeviceIsNoDevice)
{
    if (!std::getenv("DPA_EXPECT_NO_DEVICE"))
        GTEST_SKIP() << "runs only as the cuda_no_device CTest entry (CUDA_VISIBLE_DEVICES=-1)";
    Backend bk;
    EXPECT_EQ(bk.open_status, DPA_ERR_NO_DEVICE);
    EXPECT_FALSE(bk.why.empty());
    std::printf("[  REASON  ] %s\n", bk.why.c_str());
}

TEST(CudaFaults, InjectedOomIsRecoverable)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    std::vector<double> a, c;
    char err[512] = "";
    ASSERT_EQ(run_small(bk, 0, &a, err, sizeof err), DPA_OK) << err;
    ASSERT_EQ(bk.ops->inject_fault(bk.b, 0, DPA_CUDA_FAULT_OOM), DPA_OK);
    EXPECT_EQ(run_small(bk, 0, &c, err, sizeof err), DPA_ERR_OUT_OF_MEMORY);
    EXPECT_NE(std::strstr(err, "out of memory"), nullptr) << err;
    dpa_device_info info;
    ASSERT_EQ(bk.ops->device_info(bk.b, 0, &info), DPA_OK);
    EXPECT_EQ(info.usable, 1);
    ASSERT_EQ(run_small(bk, 0, &c, err, sizeof err), DPA_OK) << err;
    EXPECT_EQ(0, std::memcmp(a.data(), c.data(), a.size() * 8));
}

TEST(CudaFaults, InjectedStickyErrorRetiresDevice)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    std::vector<double> a;
    char err[512] = "";
    ASSERT_EQ(bk.ops->inject_fault(bk.b, 0, DPA_CUDA_FAULT_STICKY), DPA_OK);
    EXPECT_EQ(run_small(bk, 0, &a, err, sizeof err), DPA_ERR_DEVICE);
    EXPECT_NE(std::strstr(err, "retired"), nullptr) << err;
    dpa_device_info info;
    ASSERT_EQ(bk.ops->device_info(bk.b, 0, &info), DPA_OK);
    EXPECT_EQ(info.usable, 0);
    EXPECT_EQ(run_small(bk, 0, &a, err, sizeof err), DPA_ERR_DEVICE);
}

TEST(CudaFaults, BadArgumentsAreRejected)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    std::vector<double> a;
    char err[512] = "";
    EXPECT_EQ(run_small(bk, bk.ops->device_count(bk.b), &a, err, sizeof err), DPA_ERR_INVALID_ARG);
    EXPECT_EQ(run_small(bk, -1, &a, err, sizeof err), DPA_ERR_INVALID_ARG);
    EXPECT_EQ(bk.ops->inject_fault(bk.b, 0, 99), DPA_ERR_INVALID_ARG);
    dpa_device_info info;
    EXPECT_EQ(bk.ops->device_info(bk.b, 99, &info), DPA_ERR_INVALID_ARG);
    EXPECT_EQ(bk.ops->abi_version, (uint32_t)DPA_CUDA_ABI_VERSION);
    // rejected arguments leave the device in service: the same call with a valid device works
    EXPECT_EQ(run_small(bk, 0, &a, err, sizeof err), DPA_OK) << err;
}
