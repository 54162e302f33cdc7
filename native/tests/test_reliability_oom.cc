// Host out-of-memory: a batch whose memory cannot be had gets DPA_ERR_OUT_OF_MEMORY with a
// message, never a crash, and the same context computes correctly afterwards.
//
// How: each case runs in a child process (this binary, exec'ed afresh) that creates its
// context and allocates the output first, then lowers its soft address-space limit
// (RLIMIT_AS) to what it already maps plus a little headroom, so the engine's or the
// kernel's next large allocation fails for real (no hook inside the library). The child
// restores the limit, checks the context on a small batch against the independent reference,
// and exits 0 only if every check passed; under ASan it also runs LeakSanitizer before
// exiting, so the failed call's path is leak-checked too.
// Not run under valgrind (.ci/run filters it out): valgrind maps its own memory against the
// same limit.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>

#include "test_util.h"

#if defined(__SANITIZE_ADDRESS__)
// ASan's allocator aborts on a failed allocation unless told to return NULL like malloc does.
extern "C" const char *__asan_default_options() { return "allocator_may_return_null=1"; }
#endif
extern "C" int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

using namespace dpa_test;

namespace {

// This process's mapped address space in bytes (VmSize), or -1.
int64_t vm_size()
{
    FILE *f = std::fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long long kb = -1;
    while (std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "VmSize: %lld kB", &kb) == 1) break;
    std::fclose(f);
    return kb < 0 ? -1 : kb * 1024;
}

#define CHILD_CHECK(cond, code, ...)                                                        \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            std::fprintf(stderr, "oom child: check failed: %s: ", #cond);                   \
            std::fprintf(stderr, __VA_ARGS__);                                              \
            std::fprintf(stderr, "\n");                                                     \
            return code;                                                                    \
        }                                                                                   \
    } while (0)

// The address-space limit of this process, lowered to what it maps now plus headroom and
// restored afterwards.
struct Limit {
    rlimit saved{};
    bool lower(int64_t headroom)
    {
        const int64_t vm = vm_size();
        if (vm < 0 || getrlimit(RLIMIT_AS, &saved)) return false;
        rlimit lowered = saved;
        lowered.rlim_cur = (rlim_t)(vm + headroom);
        if (saved.rlim_max != RLIM_INFINITY && lowered.rlim_cur > saved.rlim_max) return false;
        return setrlimit(RLIMIT_AS, &lowered) == 0;
    }
    bool restore() { return setrlimit(RLIMIT_AS, &saved) == 0; }
};

int leak_check() { return __lsan_do_recoverable_leak_check && __lsan_do_recoverable_leak_check() ? 96 : 0; }

dpa_context *cpu_context(int threads)
{
    dpa_options o;
    dpa_options_init(&o);
    o.num_threads = threads;
    o.backend = DPA_BACKEND_CPU;
    dpa_context *ctx = nullptr;
    return dpa_context_create(&o, &ctx) == DPA_OK ? ctx : nullptr;
}

// Checks that ctx still computes a small batch right (against the independent reference).
int small_batch_still_works(dpa_context *ctx)
{
    std::mt19937_64 rng(81);
    Batch b;
    b.haps = { random_bases(rng, 60) };
    b.reads = { gatk_read(rng, b.haps[0], 40) };
    const double expected = reference_log10(b.reads[0], b.haps[0]);
    double out = 0;
    dpa_pairhmm_batch v = b.view();
    CHILD_CHECK(dpa_pairhmm_compute(ctx, &v, nullptr, &out, 1, nullptr) == DPA_OK, 20, "%s",
                dpa_last_error());
    CHILD_CHECK(std::abs(out - expected) < 1e-5, 21, "%.9f vs %.9f", out, expected);
    return 0;
}

// 2048 reads x 4096 haplotypes: 8.4 M pairs whose task list (~134 MB) cannot be allocated.
int case_engine_tasks()
{
    Batch big;
    for (int i = 0; i < 2048; i++) big.reads.push_back(uniform_read("A", 30, 45, 45, 10));
    for (int i = 0; i < 4096; i++) big.haps.push_back("C");
    const int64_t n = big.results();
    dpa_pairhmm_batch v = big.view();
    dpa_context *ctx = cpu_context(2);
    double *out = static_cast<double *>(std::malloc(sizeof(double) * (size_t)n));
    CHILD_CHECK(ctx && out, 10, "setup: %s", dpa_last_error());
    Limit limit;
    CHILD_CHECK(limit.lower(32 << 20), 11, "setrlimit");
    const dpa_status st = dpa_pairhmm_compute(ctx, &v, nullptr, out, n, nullptr);
    CHILD_CHECK(limit.restore(), 12, "setrlimit");
    CHILD_CHECK(st == DPA_ERR_OUT_OF_MEMORY, 13, "got %s: %s", dpa_status_name(st), dpa_last_error());
    CHILD_CHECK(std::strstr(dpa_last_error(), "out of memory for 8388608 tasks"), 14, "message: %s",
                dpa_last_error());
    const int rc = small_batch_still_works(ctx);
    dpa_context_destroy(ctx);
    std::free(out);
    return rc ? rc : leak_check();
}

// One 8-base read against a 2^20-base haplotype in double precision: the kernel's
// O(haplotype) scratch (24 MB or more) cannot be allocated. GKL crashes the JVM on this shape
// from 60 kb on.
int case_kernel_scratch(int threads)
{
    std::mt19937_64 rng(82);
    Batch big;
    big.haps = { random_bases(rng, DPA_PAIRHMM_MAX_LENGTH) };
    big.reads = { gatk_read(rng, big.haps[0].substr(500, 8), 8) };
    dpa_pairhmm_batch v = big.view();
    dpa_pairhmm_params p;
    dpa_pairhmm_params_init(&p);
    p.precision = DPA_PRECISION_DOUBLE;
    dpa_context *ctx = cpu_context(threads);
    CHILD_CHECK(ctx, 10, "setup: %s", dpa_last_error());
    double out = 0;
    Limit limit;
    CHILD_CHECK(limit.lower(4 << 20), 11, "setrlimit");
    const dpa_status st = dpa_pairhmm_compute(ctx, &v, &p, &out, 1, nullptr);
    CHILD_CHECK(limit.restore(), 12, "setrlimit");
    CHILD_CHECK(st == DPA_ERR_OUT_OF_MEMORY, 13, "got %s: %s", dpa_status_name(st), dpa_last_error());
    CHILD_CHECK(std::strstr(dpa_last_error(), "OUT_OF_MEMORY"), 14, "message: %s", dpa_last_error());
    const int rc = small_batch_still_works(ctx);
    dpa_context_destroy(ctx);
    return rc ? rc : leak_check();
}

// A 30,000 x 30,000 Smith-Waterman pair needs 900 MB of traceback.
int case_sw_traceback()
{
    std::mt19937_64 rng(83);
    const std::string ref = random_bases(rng, 30000), alt = random_bases(rng, 30000);
    dpa_context *ctx = cpu_context(2);
    CHILD_CHECK(ctx, 10, "setup: %s", dpa_last_error());
    std::vector<char> cigars(120000);
    int64_t ro = 0, ao = 0, coff = 0;
    int32_t rl = 30000, al = 30000, clen = 0, aoff = 0;
    dpa_sw_batch b = { 1, (const uint8_t *)ref.data(), &ro, &rl, (const uint8_t *)alt.data(), &ao, &al };
    dpa_sw_output o = { cigars.data(), (int64_t)cigars.size(), &coff, &clen, &aoff };
    Limit limit;
    CHILD_CHECK(limit.lower(64 << 20), 11, "setrlimit");
    dpa_status st = dpa_sw_compute(ctx, &b, nullptr, &o, nullptr);
    CHILD_CHECK(limit.restore(), 12, "setrlimit");
    CHILD_CHECK(st == DPA_ERR_OUT_OF_MEMORY, 13, "got %s: %s", dpa_status_name(st), dpa_last_error());
    CHILD_CHECK(dpa_last_error()[0] != '\0', 14, "empty message");
    // afterwards, by hand: one mismatch in the middle costs 150, clipping half the alternate
    // 1600, so the whole alternate aligns: 16M at offset 0
    const std::string r2 = "ACGTACGTACGTACGT", a2 = "ACGTACGAACGTACGT";
    rl = al = 16;
    b = { 1, (const uint8_t *)r2.data(), &ro, &rl, (const uint8_t *)a2.data(), &ao, &al };
    st = dpa_sw_compute(ctx, &b, nullptr, &o, nullptr);
    CHILD_CHECK(st == DPA_OK, 20, "%s", dpa_last_error());
    const std::string cigar(cigars.data() + coff, (size_t)clen);
    CHILD_CHECK(cigar == "16M" && aoff == 0, 21, "cigar %s offset %d", cigar.c_str(), aoff);
    const int rc = small_batch_still_works(ctx);
    dpa_context_destroy(ctx);
    return rc ? rc : leak_check();
}

int run_case(const std::string &name)
{
    if (name == "engine_tasks") return case_engine_tasks();
    if (name == "kernel_scratch_1") return case_kernel_scratch(1);
    if (name == "kernel_scratch_3") return case_kernel_scratch(3);
    if (name == "sw_traceback") return case_sw_traceback();
    std::fprintf(stderr, "oom child: unknown case %s\n", name.c_str());
    return 99;
}

// A child is this test binary run afresh (fork + exec), so its heap holds no free memory
// left over from earlier tests that would let an allocation succeed under the limit. It
// runs its case while static objects are initialised, before any test, and exits.
const int child_entry = [] {
    const char *name = std::getenv("DPA_TEST_OOM_CASE");
    if (name) _exit(run_case(name));
    return 0;
}();

// Runs one case in a fresh child; returns its exit status (0: every check passed).
int run_in_child(const char *name)
{
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) return 90;
    if (pid == 0) {
        setenv("DPA_TEST_OOM_CASE", name, 1);
        char exe[] = "/proc/self/exe";
        char *const argv[] = { exe, nullptr };
        execv(exe, argv);
        _exit(98);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return 97;
    if (WIFSIGNALED(status)) return 200 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

}  // namespace

// Under qemu-user (cross-built tests) the host cannot execute the child, and the emulator's
// own mappings would count against the child's RLIMIT_AS.
#define SKIP_UNDER_EMULATOR()                                                                 \
    if (const char *emu_ = std::getenv("DPA_TEST_EMULATOR"))                                  \
    GTEST_SKIP() << "runs under " << emu_ << ": the out-of-memory child cannot be executed there"

TEST(ReliabilityOom, EngineTaskListDoesNotFit)
{
    SKIP_UNDER_EMULATOR();
    EXPECT_EQ(run_in_child("engine_tasks"), 0) << "the child's stderr says which check failed";
}

TEST(ReliabilityOom, KernelScratchDoesNotFit)
{
    SKIP_UNDER_EMULATOR();
    EXPECT_EQ(run_in_child("kernel_scratch_1"), 0) << "1 thread; see the child's stderr";
    EXPECT_EQ(run_in_child("kernel_scratch_3"), 0) << "3 threads; see the child's stderr";
}

TEST(ReliabilityOom, SmithWatermanTracebackDoesNotFit)
{
    SKIP_UNDER_EMULATOR();
    EXPECT_EQ(run_in_child("sw_traceback"), 0) << "the child's stderr says which check failed";
}
