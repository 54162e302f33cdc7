// test_engine_scheduler.cc — the one batch scheduler (engine/scheduler.h) through a toy
// workload registered with a test-only descriptor, on a context whose CUDA backend is a
// fake: an ops table whose "devices" compute on the host and fail on demand. So the GPU
// feeders, HYBRID sharing, several devices, pool and thread feeders, fault fail-over and
// retirement run on every machine, GPU or not. The toy's result of task t is a hash of t,
// so the expected output is known independently of the scheduler.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

extern "C" {
#include "engine/context.h"
#include "engine/scheduler.h"
}

namespace {

uint64_t expected_of(int64_t t)
{
    uint64_t z = (uint64_t)t + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

constexpr int kMaxDev = 4;

// The fake backend: per device an armed fault, a retired flag, the tasks it finished.
struct FakeGpus {
    int ndev = 0;
    std::atomic<int> fault[kMaxDev];
    std::atomic<int> retired[kMaxDev];
    std::atomic<int64_t> done[kMaxDev];
    std::atomic<int64_t> calls[kMaxDev];
    std::atomic<int64_t> largest[kMaxDev]; // the most tasks one call was given
    int delay_us = 0; // per call: a slow GPU lets HYBRID's CPU workers take chunks
    // rendezvous > 0: a device's first call waits (up to 10 s) until `rendezvous` devices
    // have made theirs, so a test proves the devices are fed at the same time, not one
    // after the other, without depending on how fast threads start on a loaded machine
    int rendezvous = 0;
    std::atomic<int> arrived{0};
    std::atomic<int> rendezvous_timeouts{0};
    std::atomic<int> first_call[kMaxDev];
    FakeGpus()
    {
        for (int d = 0; d < kMaxDev; d++)
            fault[d] = 0, retired[d] = 0, done[d] = 0, calls[d] = 0, largest[d] = 0, first_call[d] = 0;
    }
};

FakeGpus *fake_of(const dpa_cuda_backend *b)
{
    return reinterpret_cast<FakeGpus *>(const_cast<dpa_cuda_backend *>(b));
}

dpa_status fake_info(const dpa_cuda_backend *b, int32_t device, dpa_device_info *out)
{
    FakeGpus *f = fake_of(b);
    if (device < 0 || device >= f->ndev) return DPA_ERR_INVALID_ARG;
    std::memset(out, 0, sizeof *out);
    std::snprintf(out->name, sizeof out->name, "fake %d", device);
    out->usable = !f->retired[device].load();
    return DPA_OK;
}
int32_t fake_count(const dpa_cuda_backend *b) { return fake_of(b)->ndev; }
void fake_close(dpa_cuda_backend *) {}
dpa_status fake_inject(dpa_cuda_backend *b, int32_t device, int32_t fault)
{
    fake_of(b)->fault[device] = fault;
    return DPA_OK;
}
const dpa_cuda_entry_header fake_entry = { DPA_CUDA_WORKLOAD_PAIRHMM, sizeof(dpa_cuda_entry_header) };
const dpa_cuda_entry_header *fake_entry_of(uint32_t) { return &fake_entry; }
const dpa_cuda_ops fake_ops = { DPA_CUDA_ABI_VERSION, sizeof(dpa_cuda_ops), nullptr, fake_close,
                                fake_count, fake_info, fake_inject, fake_entry_of };

// The toy job: tasks 0..n-1 with a cost each, out[t] = expected_of(t).
struct Toy {
    std::vector<int64_t> cost;  // by task
    std::vector<int64_t> order; // the scheduler's order of tasks
    std::vector<uint64_t> out;
    std::vector<std::atomic<int>> cpu_visits;
    std::atomic<int64_t> cpu_calls{0}, cpu_tasks{0};
    int64_t fail_task = -1;       // the CPU kernel fails on this task
    int cpu_delay_us = 0;         // per CPU call
    FakeGpus *wait_for = nullptr; // CPU calls join its rendezvous and wait (up to 10 s) for it
    std::atomic<bool> cpu_arrived{false};
    std::thread::id caller;
    std::atomic<int> solo_off_caller{0}, solo_not_alone{0};
    int64_t solo_cost = INT64_MAX;
    std::mutex mu;
    std::vector<std::pair<int64_t, int64_t>> ranges; // CPU calls' (first, count)
    explicit Toy(std::vector<int64_t> c) : cost(std::move(c)), out(cost.size(), 0), cpu_visits(cost.size())
    {
        order.resize(cost.size());
        for (size_t i = 0; i < cost.size(); i++) order[i] = (int64_t)i, cpu_visits[i] = 0;
        caller = std::this_thread::get_id();
    }
    int64_t total() const
    {
        int64_t s = 0;
        for (int64_t c : cost) s += c;
        return s;
    }
};

dpa_status toy_sort(void *job, int64_t n)
{
    Toy *t = static_cast<Toy *>(job);
    std::stable_sort(t->order.begin(), t->order.begin() + n,
                     [t](int64_t a, int64_t b) { return t->cost[a] > t->cost[b]; });
    return DPA_OK;
}

int64_t toy_cost(const void *job, int64_t i)
{
    const Toy *t = static_cast<const Toy *>(job);
    return t->cost[t->order[i]];
}

dpa_status toy_cpu(void *job, int64_t first, int64_t count, int64_t *counter)
{
    Toy *t = static_cast<Toy *>(job);
    t->cpu_calls++;
    {
        std::lock_guard<std::mutex> g(t->mu);
        t->ranges.emplace_back(first, count);
    }
    if (t->cpu_delay_us) std::this_thread::sleep_for(std::chrono::microseconds(t->cpu_delay_us));
    if (t->wait_for) {
        // the CPU side is one party of the rendezvous: it arrives with its first chunk in
        // hand, so neither side can take everything before the other has started
        if (!t->cpu_arrived.exchange(true)) t->wait_for->arrived++;
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (t->wait_for->arrived.load() < t->wait_for->rendezvous &&
               std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    for (int64_t k = first; k < first + count; k++) {
        const int64_t task = t->order[k];
        if (task == t->fail_task) return DPA_ERR_INTERNAL;
        if (t->cost[task] > t->solo_cost) {
            if (count != 1) t->solo_not_alone++;
            if (std::this_thread::get_id() != t->caller) t->solo_off_caller++;
        }
        t->out[task] = expected_of(task);
        t->cpu_visits[task]++;
    }
    t->cpu_tasks += count;
    *counter += count;
    return DPA_OK;
}

dpa_status toy_gpu(void *job, const void *entry, dpa_cuda_backend *backend, int32_t device,
                   int64_t first, int64_t count, int64_t *counter, char *err, size_t err_len)
{
    Toy *t = static_cast<Toy *>(job);
    FakeGpus *f = fake_of(backend);
    EXPECT_EQ(entry, &fake_entry);
    f->calls[device]++;
    for (int64_t m = f->largest[device].load(); count > m &&
                                               !f->largest[device].compare_exchange_weak(m, count);) {
    }
    if (f->rendezvous > 0 && f->first_call[device].exchange(1) == 0) {
        f->arrived++;
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (f->arrived.load() < f->rendezvous && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        if (f->arrived.load() < f->rendezvous) f->rendezvous_timeouts++;
    }
    if (f->delay_us) std::this_thread::sleep_for(std::chrono::microseconds(f->delay_us));
    const int fault = f->fault[device].exchange(DPA_CUDA_FAULT_NONE);
    if (fault != DPA_CUDA_FAULT_NONE) {
        // a failed call may leave part of its range written: garbage the CPU must redo
        for (int64_t k = first; k < first + count; k += 2) t->out[t->order[k]] = 0xdeadbeef;
        if (fault == DPA_CUDA_FAULT_STICKY) f->retired[device] = 1;
        std::snprintf(err, err_len, "fake device %d: injected %s", device,
                      fault == DPA_CUDA_FAULT_STICKY ? "sticky error" : "out of memory");
        return fault == DPA_CUDA_FAULT_STICKY ? DPA_ERR_DEVICE : DPA_ERR_OUT_OF_MEMORY;
    }
    for (int64_t k = first; k < first + count; k++) t->out[t->order[k]] = expected_of(t->order[k]);
    f->done[device] += count;
    *counter += count;
    return DPA_OK;
}

double toy_cpu_seconds(int64_t cost, int64_t, int32_t threads, dpa_isa)
{
    return (double)cost / (1e9 * threads);
}
double toy_gpu_seconds(int64_t cost, int64_t, int32_t devices)
{
    return 1e-5 + (double)cost / (1e10 * devices);
}

dpa_workload toy_workload(int feeders, int64_t solo_cost)
{
    dpa_workload w;
    std::memset(&w, 0, sizeof w);
    w.name = "toy";
    w.title = "Toy";
    w.cuda_id = DPA_CUDA_WORKLOAD_PAIRHMM;
    w.sort = toy_sort;
    w.sort_for_one_gpu = 1;
    w.cost = toy_cost;
    w.cpu_seconds = toy_cpu_seconds;
    w.gpu_seconds = toy_gpu_seconds;
    w.chunks_per_thread = 8;
    w.chunk_min_cost = 50;
    w.whole_below_cost = 200;
    w.chunk_multiple = 4;
    w.solo_cost = solo_cost;
    w.split_min_cost = 1000;
    w.feeders_per_gpu = feeders;
    w.units_per_feeder = 2;
    w.hybrid_units_per_feeder = 8;
    w.unit_min_cost = 0;
    w.cpu = toy_cpu;
    w.gpu = toy_gpu;
    return w;
}

struct LogSink {
    std::mutex mu;
    std::vector<std::string> warnings;
    static void fn(void *user, dpa_log_level level, const char *msg)
    {
        auto *s = static_cast<LogSink *>(user);
        if (level != DPA_LOG_WARN) return;
        std::lock_guard<std::mutex> g(s->mu);
        s->warnings.emplace_back(msg);
    }
};

// A context with `threads` threads and `ndev` fake GPUs (0 = none).
struct Ctx {
    dpa_context *ctx = nullptr;
    FakeGpus gpus;
    LogSink sink;
    Ctx(int threads, int ndev)
    {
        dpa_options o;
        dpa_options_init(&o);
        o.num_threads = threads;
        o.gpu_disable = 1; // no real CUDA library; the fake goes in below
        o.log_fn = LogSink::fn;
        o.log_user = &sink;
        EXPECT_EQ(dpa_context_create(&o, &ctx), DPA_OK) << dpa_last_error();
        gpus.ndev = ndev;
        if (ndev > 0) {
            ctx->cuda.ops = &fake_ops;
            ctx->cuda.backend = reinterpret_cast<dpa_cuda_backend *>(&gpus);
            ctx->cuda.devices = ndev;
            ctx->cuda.entries[DPA_CUDA_WORKLOAD_PAIRHMM] = &fake_entry;
        }
    }
    ~Ctx() { dpa_context_destroy(ctx); }
    int64_t gpu_done() const
    {
        int64_t s = 0;
        for (int d = 0; d < gpus.ndev; d++) s += gpus.done[d].load();
        return s;
    }
};

std::vector<int64_t> costs(uint64_t seed, int64_t n, int64_t lo, int64_t hi)
{
    std::mt19937_64 g(seed);
    std::vector<int64_t> c((size_t)n);
    for (auto &x : c) x = lo + (int64_t)(g() % (uint64_t)(hi - lo + 1));
    return c;
}

void expect_exact(const Toy &t)
{
    for (size_t i = 0; i < t.out.size(); i++)
        ASSERT_EQ(t.out[i], expected_of((int64_t)i)) << "task " << i;
}

uint64_t test_seed()
{
    const char *e = std::getenv("DPA_TEST_SEED");
    return e ? std::strtoull(e, nullptr, 10) : std::random_device{}();
}

dpa_status run(Ctx &c, const dpa_workload &w, Toy &t, int backend, dpa_sched_result *r)
{
    const dpa_sched_call call = { (int64_t)t.cost.size(), t.total(), backend, DPA_ISA_SCALAR };
    return dpa_sched_run(c.ctx, &w, &t, &call, r);
}

} // namespace

TEST(EngineScheduler, EveryBackendGivesTheSameResultsOnEveryShape)
{
    const uint64_t seed = test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    const int64_t sizes[] = { 1, 3, 4, 5, 17, 100, 2000 };
    const int backends[] = { DPA_BACKEND_CPU, DPA_BACKEND_GPU, DPA_BACKEND_HYBRID, DPA_BACKEND_AUTO };
    for (int threads : { 1, 2, 5 })
        for (int ndev : { 0, 1, 3 })
            for (int feeders : { 1, 4 })
                for (int64_t n : sizes)
                    for (int backend : backends) {
                        if (ndev == 0 && backend == DPA_BACKEND_GPU) continue;
                        SCOPED_TRACE("threads " + std::to_string(threads) + " gpus " +
                                     std::to_string(ndev) + " feeders " + std::to_string(feeders) +
                                     " n " + std::to_string(n) + " backend " +
                                     std::to_string(backend));
                        Ctx c(threads, ndev);
                        Toy t(costs(seed + (uint64_t)n, n, 1, 400));
                        const dpa_workload w = toy_workload(feeders, INT64_MAX);
                        dpa_sched_result r;
                        ASSERT_EQ(run(c, w, t, backend, &r), DPA_OK) << dpa_last_error();
                        expect_exact(t);
                        EXPECT_EQ(r.counter, n) << "every task counted once";
                        EXPECT_EQ(r.gpu_tasks, c.gpu_done());
                        EXPECT_EQ(r.gpu_tasks + t.cpu_tasks.load(), n) << "a task ran twice or never";
                        if (backend == DPA_BACKEND_CPU || ndev == 0) EXPECT_EQ(r.gpu_tasks, 0);
                        if (backend == DPA_BACKEND_GPU) EXPECT_EQ(r.gpu_tasks, n);
                        EXPECT_TRUE(c.sink.warnings.empty());
                    }
}

TEST(EngineScheduler, HybridSharesABigBatchBetweenGpusAndCpuWorkers)
{
    // Both devices and the CPU side meet with their first pieces of work in hand, so the CPU
    // and both GPUs each get work however slowly threads start on a loaded machine (a fast
    // fake GPU once drained the queue before the pool started).
    Ctx c(4, 2);
    c.gpus.rendezvous = 3;
    Toy t(costs(7, 4000, 100, 1000));
    t.wait_for = &c.gpus;
    const dpa_workload w = toy_workload(1, INT64_MAX);
    dpa_sched_result r;
    ASSERT_EQ(run(c, w, t, DPA_BACKEND_HYBRID, &r), DPA_OK) << dpa_last_error();
    expect_exact(t);
    EXPECT_GT(r.gpu_tasks, 0);
    EXPECT_GT(t.cpu_tasks.load(), 0) << "HYBRID gave the CPU nothing";
    EXPECT_EQ(r.gpu_tasks + t.cpu_tasks.load(), 4000);
    EXPECT_GT(c.gpus.done[0].load(), 0);
    EXPECT_GT(c.gpus.done[1].load(), 0);
    EXPECT_EQ(c.gpus.rendezvous_timeouts.load(), 0) << "the GPUs were not fed at the same time";
}

TEST(EngineScheduler, SeveralGpusAreAllFedEvenWithAOneThreadPool)
{
    // one pool thread, three devices: two feeders get threads of their own
    Ctx c(1, 3);
    c.gpus.rendezvous = 3; // every device's first unit waits for the others: fed at once
    Toy t(costs(11, 3000, 1000, 2000));
    const dpa_workload w = toy_workload(1, INT64_MAX);
    dpa_sched_result r;
    ASSERT_EQ(run(c, w, t, DPA_BACKEND_GPU, &r), DPA_OK) << dpa_last_error();
    expect_exact(t);
    EXPECT_EQ(r.gpu_tasks, 3000);
    for (int d = 0; d < 3; d++) EXPECT_GT(c.gpus.done[d].load(), 0) << "device " << d << " idle";
    EXPECT_EQ(c.gpus.rendezvous_timeouts.load(), 0) << "the devices were fed one after the other";
}

TEST(EngineScheduler, SmallBatchesGoWholeToOneGpuRoundRobin)
{
    Ctx c(4, 2);
    const dpa_workload w = toy_workload(1, INT64_MAX);
    for (int call = 0; call < 4; call++) {
        Toy t(costs(3 + call, 5, 10, 20)); // 50..100 < split_min_cost
        dpa_sched_result r;
        ASSERT_EQ(run(c, w, t, DPA_BACKEND_GPU, &r), DPA_OK) << dpa_last_error();
        expect_exact(t);
    }
    EXPECT_EQ(c.gpus.calls[0].load(), 2);
    EXPECT_EQ(c.gpus.calls[1].load(), 2);
}

TEST(EngineScheduler, InjectedOutOfMemoryRecomputesOnTheCpuAndWarnsOnce)
{
    for (int feeders : { 1, 4 })
        for (int64_t n : { 10, 3000 }) {
            SCOPED_TRACE("feeders " + std::to_string(feeders) + " n " + std::to_string(n));
            Ctx c(3, 2);
            const dpa_workload w = toy_workload(feeders, INT64_MAX);
            for (int round = 0; round < 3; round++) {
                c.gpus.fault[0] = DPA_CUDA_FAULT_OOM;
                c.gpus.fault[1] = DPA_CUDA_FAULT_OOM;
                Toy t(costs(100 + round, n, 10, 400));
                dpa_sched_result r;
                ASSERT_EQ(run(c, w, t, DPA_BACKEND_GPU, &r), DPA_OK) << dpa_last_error();
                expect_exact(t);
                EXPECT_EQ(r.gpu_tasks + t.cpu_tasks.load(), n);
                EXPECT_LT(r.gpu_tasks, n) << "a failed unit was counted as GPU work";
            }
            ASSERT_EQ(c.sink.warnings.size(), 1u) << "one warning per context";
            EXPECT_NE(c.sink.warnings[0].find("failed in Toy"), std::string::npos) << c.sink.warnings[0];
            EXPECT_NE(c.sink.warnings[0].find("injected out of memory"), std::string::npos);
            EXPECT_FALSE(c.gpus.retired[0].load());
        }
}

TEST(EngineScheduler, StickyFaultRetiresTheDeviceAndTheOthersCarryOn)
{
    Ctx c(2, 2);
    const dpa_workload w = toy_workload(1, INT64_MAX);
    c.gpus.rendezvous = 2; // both devices take a unit (an instant device 1 could drain all)
    c.gpus.fault[0] = DPA_CUDA_FAULT_STICKY;
    Toy t(costs(5, 3000, 500, 1000));
    dpa_sched_result r;
    ASSERT_EQ(run(c, w, t, DPA_BACKEND_GPU, &r), DPA_OK) << dpa_last_error();
    expect_exact(t);
    EXPECT_TRUE(c.gpus.retired[0].load());
    EXPECT_EQ(c.sink.warnings.size(), 1u);

    // later calls use device 1 only
    const int64_t calls0 = c.gpus.calls[0].load();
    Toy t2(costs(6, 3000, 500, 1000));
    ASSERT_EQ(run(c, w, t2, DPA_BACKEND_GPU, &r), DPA_OK) << dpa_last_error();
    expect_exact(t2);
    EXPECT_EQ(r.gpu_tasks, 3000);
    EXPECT_EQ(c.gpus.calls[0].load(), calls0) << "a retired device got work";

    // every device retired: GPU-forced calls fail naming why, AUTO runs on the CPU
    c.gpus.fault[1] = DPA_CUDA_FAULT_STICKY;
    Toy t3(costs(8, 3000, 500, 1000));
    ASSERT_EQ(run(c, w, t3, DPA_BACKEND_GPU, &r), DPA_OK) << dpa_last_error();
    expect_exact(t3);
    Toy t4(costs(9, 100, 500, 1000));
    EXPECT_EQ(run(c, w, t4, DPA_BACKEND_GPU, &r), DPA_ERR_NO_DEVICE);
    EXPECT_NE(std::string(dpa_last_error()).find("toy: backend gpu requested but every GPU was retired"),
              std::string::npos) << dpa_last_error();
    ASSERT_EQ(run(c, w, t4, DPA_BACKEND_AUTO, &r), DPA_OK) << dpa_last_error();
    expect_exact(t4);
    EXPECT_EQ(r.gpu_tasks, 0);
    EXPECT_EQ(c.sink.warnings.size(), 1u);
}

TEST(EngineScheduler, NoGpuOrNoKernelsForTheWorkloadIsAClearError)
{
    Ctx none(2, 0);
    const dpa_workload w = toy_workload(1, INT64_MAX);
    Toy t(costs(1, 10, 1, 5));
    dpa_sched_result r;
    EXPECT_EQ(run(none, w, t, DPA_BACKEND_GPU, &r), DPA_ERR_NO_DEVICE);
    EXPECT_NE(std::string(dpa_last_error()).find("toy: backend gpu requested but GPU disabled by configuration"),
              std::string::npos) << dpa_last_error();
    Toy empty(std::vector<int64_t>{});
    EXPECT_EQ(run(none, w, empty, DPA_BACKEND_GPU, &r), DPA_ERR_NO_DEVICE) << "checked for n = 0 too";

    Ctx gpus(2, 2);
    gpus.ctx->cuda.entries[DPA_CUDA_WORKLOAD_PAIRHMM] = nullptr; // a library without this workload
    EXPECT_EQ(run(gpus, w, t, DPA_BACKEND_GPU, &r), DPA_ERR_NO_DEVICE);
    EXPECT_NE(std::string(dpa_last_error()).find("has no kernels for this workload"), std::string::npos)
        << dpa_last_error();
    ASSERT_EQ(run(gpus, w, t, DPA_BACKEND_HYBRID, &r), DPA_OK) << dpa_last_error();
    expect_exact(t);
    EXPECT_EQ(r.gpu_tasks, 0);
}

// Kernels that have not yet run on a GPU (cuda_loader.c's list, empty today: the mechanism is
// exercised with the HMM filter's id): the engine leaves their entry out unless
// DPACCEL_CUDA_UNVERIFIED=1, and a GPU-forced call says why.
TEST(EngineScheduler, KernelsNotYetRunOnAGpuStayUnusedAndTheErrorSaysSo)
{
    Ctx gpus(2, 2);
    gpus.ctx->cuda.entries[DPA_CUDA_WORKLOAD_HMM_FILTER] = &fake_entry;
    dpa_cuda_drop_unverified(&gpus.ctx->cuda);
    EXPECT_NE(gpus.ctx->cuda.entries[DPA_CUDA_WORKLOAD_HMM_FILTER], nullptr)
        << "passed its tests on a GPU (2026-11-28): no longer left out";
    dpa_cuda_drop_workloads(&gpus.ctx->cuda, 1u << DPA_CUDA_WORKLOAD_HMM_FILTER);
    EXPECT_EQ(gpus.ctx->cuda.entries[DPA_CUDA_WORKLOAD_HMM_FILTER], nullptr);
    EXPECT_EQ(gpus.ctx->cuda.unverified, 1u << DPA_CUDA_WORKLOAD_HMM_FILTER);
    EXPECT_NE(gpus.ctx->cuda.entries[DPA_CUDA_WORKLOAD_PAIRHMM], nullptr) << "run on GPUs: kept";
    dpa_workload w = toy_workload(1, INT64_MAX);
    w.cuda_id = DPA_CUDA_WORKLOAD_HMM_FILTER;
    Toy t(costs(1, 10, 1, 5));
    dpa_sched_result r;
    EXPECT_EQ(run(gpus, w, t, DPA_BACKEND_GPU, &r), DPA_ERR_NO_DEVICE);
    EXPECT_NE(std::string(dpa_last_error()).find("have not yet passed their tests on a GPU "
                                                 "(DPACCEL_CUDA_UNVERIFIED=1 uses them)"),
              std::string::npos)
        << dpa_last_error();
    ASSERT_EQ(run(gpus, w, t, DPA_BACKEND_HYBRID, &r), DPA_OK) << dpa_last_error();
    expect_exact(t);
    EXPECT_EQ(r.gpu_tasks, 0);
}

TEST(EngineScheduler, SoloTasksRunAloneOnTheCallingThread)
{
    for (int ndev : { 0, 1 }) {
        Ctx c(4, ndev);
        // a few huge tasks among many small ones
        std::vector<int64_t> cost = costs(21, 500, 1, 50);
        for (int i = 0; i < 500; i += 97) cost[(size_t)i] = 100000;
        Toy t(cost);
        t.solo_cost = 10000;
        const dpa_workload w = toy_workload(1, 10000);
        c.gpus.fault[0] = DPA_CUDA_FAULT_OOM; // GPU-forced: everything comes back to the CPU
        dpa_sched_result r;
        ASSERT_EQ(run(c, w, t, ndev ? DPA_BACKEND_GPU : DPA_BACKEND_CPU, &r), DPA_OK) << dpa_last_error();
        expect_exact(t);
        EXPECT_EQ(t.solo_not_alone.load(), 0);
        EXPECT_EQ(t.solo_off_caller.load(), 0);
    }
}

TEST(EngineScheduler, ACpuKernelFailureIsReportedWithTheWorkloadName)
{
    for (int threads : { 1, 4 }) {
        Ctx c(threads, 0);
        Toy t(costs(2, 1000, 10, 100));
        t.fail_task = 321;
        const dpa_workload w = toy_workload(1, INT64_MAX);
        dpa_sched_result r;
        EXPECT_EQ(run(c, w, t, DPA_BACKEND_CPU, &r), DPA_ERR_INTERNAL);
        EXPECT_NE(std::string(dpa_last_error()).find("toy: a CPU kernel failed"), std::string::npos)
            << dpa_last_error();
    }
}

TEST(EngineScheduler, ChunksAreMultiplesOfTheWorkloadsVector)
{
    // every CPU range but the batch's last starts at a multiple of chunk_multiple (4)
    Ctx c(3, 0);
    Toy t(costs(4, 1001, 50, 60));
    const dpa_workload w = toy_workload(1, INT64_MAX);
    dpa_sched_result r;
    ASSERT_EQ(run(c, w, t, DPA_BACKEND_CPU, &r), DPA_OK) << dpa_last_error();
    expect_exact(t);
    EXPECT_GT(t.cpu_calls.load(), 8) << "a batch of ~55 k cost on 3 threads should be chunked";
    for (size_t i = 0; i < t.cpu_visits.size(); i++) EXPECT_EQ(t.cpu_visits[i].load(), 1) << i;
    for (const auto &rg : t.ranges) {
        EXPECT_EQ(rg.first % 4, 0) << "range " << rg.first << "+" << rg.second;
        if (rg.first + rg.second != 1001) EXPECT_EQ(rg.second % 4, 0) << "range " << rg.first;
    }
}

// GPU units: as many equal units as feeder turns, none below the workload's minimum, so a
// call just above the minimum is one unit (not a full one and a sliver), and a call of k
// minimums is k units on k feeders.
// HYBRID with the cost model's split (hybrid_units_per_feeder 0): the GPU's share goes out in
// one unit per feeder, so a device's feeders overlap as they do without HYBRID (one unit per
// device left a PairHMM call's whole GPU share on one feeder, 2x slower on an H200), and
// unit_min_cost still keeps a small call whole.
TEST(EngineScheduler, HybridCostModelSplitsTheGpuShareOverTheFeeders)
{
    struct Case { int64_t min_cost; int64_t most, least; };
    // 1,000 tasks of cost 100; two threads at 1e9 a second against a GPU at 1e10: the GPU's
    // share is ~83% (~83,300), i.e. ~20,800 a feeder; a unit takes whole chunks of 64 tasks
    const Case cases[] = { { 0, 300, 1 },            // four units of <= 20,800 + one chunk
                           { 100000, 1000, 830 } };  // the minimum: all the CPU has not taken
    for (const Case &k : cases) {
        SCOPED_TRACE("min_cost " + std::to_string(k.min_cost));
        Ctx c(2, 1);
        c.gpus.rendezvous = 2; // the device's first unit and the CPU side's first chunk
        dpa_workload w = toy_workload(4, INT64_MAX);
        w.hybrid_units_per_feeder = 0;
        w.unit_min_cost = k.min_cost;
        Toy t(std::vector<int64_t>(1000, 100));
        t.wait_for = &c.gpus;
        dpa_sched_result r;
        ASSERT_EQ(run(c, w, t, DPA_BACKEND_HYBRID, &r), DPA_OK) << dpa_last_error();
        expect_exact(t);
        EXPECT_LE(c.gpus.largest[0].load(), k.most);
        EXPECT_GE(c.gpus.largest[0].load(), k.least);
    }
}

double slow_cpu_seconds(int64_t cost, int64_t, int32_t threads, dpa_isa)
{
    return (double)cost / (1e3 * threads);
}
double fast_gpu_seconds(int64_t cost, int64_t, int32_t devices)
{
    return (double)cost / (1e12 * devices);
}

// A HYBRID CPU worker takes a chunk only if one thread would finish it before the GPUs
// finish everything still queued (cost model until the first measurements). Here one chunk
// takes a CPU thread ~6 s by the model and the GPU 2 ms a unit: the CPU takes nothing.
// Before the rule, every worker took chunks from the cheap end and the call waited for them.
TEST(EngineScheduler, HybridCpuWorkersLeaveChunksTheGpusWouldFinishFirst)
{
    Ctx c(2, 1);
    c.gpus.delay_us = 2000; // a GPU call takes 2 ms: time enough for idle CPU workers
    dpa_workload w = toy_workload(1, INT64_MAX);
    w.cpu_seconds = slow_cpu_seconds;
    w.gpu_seconds = fast_gpu_seconds;
    w.split_min_cost = 0;
    Toy t(std::vector<int64_t>(4000, 100));
    dpa_sched_result r;
    ASSERT_EQ(run(c, w, t, DPA_BACKEND_HYBRID, &r), DPA_OK) << dpa_last_error();
    expect_exact(t);
    EXPECT_EQ(t.cpu_tasks.load(), 0);
    EXPECT_EQ(r.gpu_tasks, 4000);
}

// hybrid_min_cpu_share: below it HYBRID runs as GPU-only. The toy model gives two CPU threads
// ~17% of a call beside one GPU.
TEST(EngineScheduler, HybridBelowTheWorkloadsCpuShareRunsOnTheGpuAlone)
{
    struct Case { double min_share; bool cpu_works; };
    const Case cases[] = { { 0.5, false }, { 0.1, true } };
    for (const Case &k : cases) {
        SCOPED_TRACE("min share " + std::to_string(k.min_share));
        Ctx c(2, 1);
        if (k.cpu_works) c.gpus.rendezvous = 2; // both sides hold a piece before either goes on
        dpa_workload w = toy_workload(1, INT64_MAX);
        w.hybrid_min_cpu_share = k.min_share;
        Toy t(std::vector<int64_t>(4000, 100));
        if (k.cpu_works) t.wait_for = &c.gpus;
        dpa_sched_result r;
        ASSERT_EQ(run(c, w, t, DPA_BACKEND_HYBRID, &r), DPA_OK) << dpa_last_error();
        expect_exact(t);
        EXPECT_EQ(t.cpu_tasks.load() > 0, k.cpu_works);
        EXPECT_EQ(r.gpu_tasks + t.cpu_tasks.load(), 4000);
        EXPECT_EQ(c.gpus.rendezvous_timeouts.load(), 0);
    }
}

TEST(EngineScheduler, GpuUnitsAreEqualAndNeverBelowTheMinimum)
{
    struct Case { int64_t tasks, min_cost; int expect_calls; };
    // 1,000 tasks of cost 100 (total 100,000), 4 feeders x 2 units on one device
    const Case cases[] = { { 1000, 0, 8 },        // no minimum: 8 units
                           { 1000, 90000, 1 },    // 1.1 minimums: one unit, not 90k + 10k
                           { 1000, 30000, 3 },    // 3.3 minimums: three equal units
                           { 1000, 200000, 1 } }; // below the minimum: whole
    for (const Case &k : cases) {
        SCOPED_TRACE("min_cost " + std::to_string(k.min_cost));
        Ctx c(2, 1);
        dpa_workload w = toy_workload(4, INT64_MAX);
        w.sort_for_one_gpu = 0;
        w.split_min_cost = 0;
        w.unit_min_cost = k.min_cost;
        Toy t(std::vector<int64_t>((size_t)k.tasks, 100));
        dpa_sched_result r;
        ASSERT_EQ(run(c, w, t, DPA_BACKEND_GPU, &r), DPA_OK) << dpa_last_error();
        expect_exact(t);
        EXPECT_EQ(r.gpu_tasks, k.tasks);
        EXPECT_EQ(c.gpus.calls[0].load(), k.expect_calls);
    }
}
