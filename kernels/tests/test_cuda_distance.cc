// test_cuda_distance.cc — the CUDA genotype distance (ops->entry(DISTANCE)) against the CPU:
// the scalar plane kernel (dpa_dist_tile_scalar) on every pair and the .bed-code reference
// (dpa_dist_ref_pair) on a sample of them, all seven counts equal. Random genotypes with a
// fresh seed per run (DPA_TEST_SEED=N reruns it), odd shapes around the kernel's 64-sample and
// 512-variant steps, all-missing samples, no variants, the triangle in one tile and in many,
// rectangles over the diagonal, both device kernels (tensor-core MMA and the popcount
// cross-check, DPACCEL_DIST_CUDA_POPC=1), a small device budget that splits the samples into
// groups and the variants into chunks, bad arguments and injected faults. Skips loudly on
// machines without a usable GPU.
#include <array>
#include <cstring>
#include <random>

#include "cuda_test_util.h"

extern "C" {
#include "cpu/distance/distance.h"
}

using namespace dpa_cuda_test;

namespace {

enum : uint8_t { A1 = 0, MISS = 1, HET = 2, A2 = 3 }; // PLINK 1 .bed codes

struct Bed {
    int32_t n = 0;
    int64_t m = 0;
    std::vector<uint8_t> rows, use;
    dpa_genotype_batch view() const { return { n, m, (n + 3) / 4, rows.data(), use.data() }; }
};

// Random codes: per-variant allele frequency, missing with probability miss, samples listed in
// dead all missing, ~10% of the variants unused, the row padding bits noise.
Bed random_bed(std::mt19937_64 &rng, int32_t n, int64_t m, double miss,
               const std::vector<int32_t> &dead = {})
{
    Bed b;
    b.n = n, b.m = m;
    const int64_t rb = (n + 3) / 4;
    b.rows.assign((size_t)(rb * m), 0);
    b.use.resize((size_t)m + 1);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<bool> is_dead((size_t)rb * 4, false);
    for (int32_t d : dead) is_dead[(size_t)d] = true;
    for (int64_t v = 0; v < m; v++) {
        b.use[(size_t)v] = u(rng) < 0.9;
        const double p = u(rng) < 0.3 ? 0.01 : u(rng);
        for (int32_t k = 0; k < rb * 4; k++) {
            uint8_t c;
            if (k >= n) c = (uint8_t)(rng() & 3);
            else if (is_dead[(size_t)k] || u(rng) < miss) c = MISS;
            else {
                const int a1 = (u(rng) < p) + (u(rng) < p);
                c = a1 == 2 ? A1 : a1 == 1 ? HET : A2;
            }
            b.rows[(size_t)(v * rb + k / 4)] |= (uint8_t)(c << (2 * (k % 4)));
        }
    }
    return b;
}

struct Planes {
    dpa_dist_planes p{};
    int64_t used = 0;
    explicit Planes(const dpa_genotype_batch &b)
    {
        EXPECT_EQ(dpa_dist_check_batch(&b, &used), DPA_OK);
        EXPECT_EQ(dpa_dist_planes_build(&b, used, 0, b.num_samples, &p), DPA_OK);
    }
    ~Planes() { dpa_dist_planes_free(&p); }
    dpa_cuda_dist_planes view() const { return { p.bits, p.first, p.count, p.words }; }
    // No host planes: the device builds them from the .bed (what a GPU-only engine call
    // passes), for samples [first, first + count).
    static dpa_cuda_dist_planes from_bed(const dpa_genotype_batch &b, int64_t used, int32_t first,
                                         int32_t count)
    {
        return { nullptr, first, count, dpa_dist_words(used), b.genotypes, b.row_bytes,
                 b.num_variants, b.variant_use };
    }
};

using Counts = std::array<uint32_t, 7>;

// Every pair (r, c) of the square from the CPU's scalar plane kernel.
std::vector<uint32_t> scalar_square(const Planes &pl, int32_t n)
{
    std::vector<uint32_t> sq((size_t)n * n * 7);
    std::vector<int64_t> base((size_t)n);
    for (int32_t r = 0; r < n; r++) base[(size_t)r] = (int64_t)r * n;
    dpa_dist_tile_scalar(&pl.p, 0, n, 0, n, 0, base.data(), sq.data());
    return sq;
}

int64_t pos(const dpa_cuda_dist_layout &L, int32_t r, int32_t c)
{
    if (L.upper) return (int64_t)r * L.n - (int64_t)r * (r + 1) / 2 + (c - r - 1);
    return (int64_t)(r - L.row0) * L.cols + (c - L.col0);
}

struct Case {
    std::vector<dpa_cuda_dist_tile> tiles;
    dpa_cuda_dist_layout layout;
    int64_t pairs; // output slots
    int32_t rows;  // a rectangle's rows (from layout.row0)
};

// The triangle cut like the engine cuts it (square tiles of side t on and above the diagonal).
Case triangle(int32_t n, int32_t t)
{
    Case k{ {}, { 1, n, 0, 0, n }, (int64_t)n * (n - 1) / 2, n };
    for (int32_t r = 0; r < n; r += t)
        for (int32_t c = r; c < n; c += t)
            k.tiles.push_back({ r, std::min(n, r + t), c, std::min(n, c + t) });
    return k;
}

Case rect(int32_t r0, int32_t r1, int32_t c0, int32_t c1, int32_t t)
{
    Case k{ {}, { 0, 0, r0, c0, c1 - c0 }, (int64_t)(r1 - r0) * (c1 - c0), r1 - r0 };
    for (int32_t r = r0; r < r1; r += t)
        for (int32_t c = c0; c < c1; c += t)
            k.tiles.push_back({ r, std::min(r1, r + t), c, std::min(c1, c + t) });
    return k;
}

// Runs the case on device 0 and compares every slot with the scalar square (and a sample of
// pairs with the .bed-code reference); returns the mismatches (the first few reported).
int64_t check(Backend &bk, const Bed &bed, const Planes &pl, const std::vector<uint32_t> &sq,
              const Case &k, const char *what, std::mt19937_64 &rng, bool from_bed = false,
              int32_t first = 0)
{
    std::vector<uint32_t> out((size_t)k.pairs * 7, 0xdeadbeefu);
    int64_t done = -1;
    char err[512] = "";
    const dpa_cuda_dist_planes pv =
        from_bed ? Planes::from_bed(bed.view(), pl.used, first, bed.n - first) : pl.view();
    const dpa_status st = dpa_cuda_distance_of(bk.ops)->run(
        bk.b, 0, &pv, k.tiles.data(), (int64_t)k.tiles.size(), &k.layout, out.data(), &done, err,
        sizeof err);
    EXPECT_EQ(st, DPA_OK) << what << ": " << err;
    if (st != DPA_OK) return k.pairs;
    EXPECT_EQ(done, k.pairs) << what << ": pairs written";
    const dpa_genotype_batch b = bed.view();
    const int32_t n = bed.n;
    int64_t bad = 0;
    for (int32_t r = 0; r < n; r++)
        for (int32_t c = 0; c < n; c++) {
            const dpa_cuda_dist_layout &L = k.layout;
            const bool kept = L.upper ? c > r
                                      : r >= L.row0 && r < L.row0 + k.rows && c >= L.col0 &&
                                            c < L.col0 + L.cols;
            if (!kept) continue;
            const uint32_t *got = &out[(size_t)pos(L, r, c) * 7];
            const uint32_t *want = &sq[((size_t)r * n + c) * 7];
            bool same = std::memcmp(got, want, 28) == 0;
            if (same && rng() % 64 == 0) { // the scalar kernel itself against the reference
                Counts ref;
                dpa_dist_ref_pair(&b, r, c, ref.data());
                same = std::memcmp(got, ref.data(), 28) == 0;
            }
            if (!same && bad++ < 5)
                ADD_FAILURE() << what << ": pair (" << r << ", " << c << ") GPU " << got[0] << " "
                              << got[1] << " " << got[2] << " " << got[3] << " " << got[4] << " "
                              << got[5] << " " << got[6] << ", scalar " << want[0] << " " << want[1]
                              << " " << want[2] << " " << want[3] << " " << want[4] << " "
                              << want[5] << " " << want[6];
        }
    return bad;
}

void run_shapes(Backend &bk, std::mt19937_64 &rng, const char *kernel)
{
    const int32_t ns[] = { 2, 3, 63, 64, 65, 130 };
    const int64_t ms[] = { 1, 63, 64, 65, 511, 512, 513, 2100 };
    for (int32_t n : ns)
        for (int64_t m : ms) {
            std::vector<int32_t> dead;
            if (n > 3) dead = { 1, n - 1 }; // all-missing samples, one at the edge
            const Bed bed = random_bed(rng, n, m, 0.1, dead);
            const Planes pl(bed.view());
            const std::vector<uint32_t> sq = scalar_square(pl, n);
            const std::string tag = std::string(kernel) + " n=" + std::to_string(n) + " m=" + std::to_string(m);
            EXPECT_EQ(check(bk, bed, pl, sq, triangle(n, n), (tag + " triangle, one tile").c_str(), rng), 0);
            EXPECT_EQ(check(bk, bed, pl, sq, triangle(n, 37), (tag + " triangle, tiles of 37").c_str(), rng), 0);
            const int32_t r0 = n / 3, r1 = n, c0 = 0, c1 = n - n / 4;
            EXPECT_EQ(check(bk, bed, pl, sq, rect(r0, r1, c0, c1, 100), (tag + " rectangle").c_str(), rng), 0);
            EXPECT_EQ(check(bk, bed, pl, sq, triangle(n, 37), (tag + " triangle, planes from the .bed").c_str(), rng, true), 0);
            EXPECT_EQ(check(bk, bed, pl, sq, rect(r0, r1, c0, c1, 100), (tag + " rectangle, planes from the .bed").c_str(), rng, true), 0);
            // planes of samples [f, n) only, f not a multiple of 4 (a .bed byte shared with
            // samples outside them)
            const int32_t f = n / 2 | 1;
            if (f < n)
                EXPECT_EQ(check(bk, bed, pl, sq, rect(f, n, f, n, 40), (tag + " rectangle, .bed planes from sample " + std::to_string(f)).c_str(), rng, true, f), 0);
        }
}

}  // namespace

TEST(CudaDistance, EntryIsPresent)
{
    Backend bk;
    const dpa_cuda_distance_entry *e = dpa_cuda_distance_of(bk.ops);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->header.id, (uint32_t)DPA_CUDA_WORKLOAD_DISTANCE);
    EXPECT_EQ(e->header.struct_size, (uint32_t)sizeof(dpa_cuda_distance_entry));
}

TEST(CudaDistance, RandomShapesMatchScalarMma)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    run_shapes(bk, rng, "default kernel");
}

TEST(CudaDistance, RandomShapesMatchScalarPopc)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    ScopedEnv popc("DPACCEL_DIST_CUDA_POPC", "1");
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    run_shapes(bk, rng, "popc kernel");
}

// N = 1 (only the rectangle has a pair: the sample with itself), every sample missing, and
// no used variant at all (zero-word planes: every count 0).
TEST(CudaDistance, EdgeShapes)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    {
        const Bed bed = random_bed(rng, 1, 700, 0.05);
        const Planes pl(bed.view());
        EXPECT_EQ(check(bk, bed, pl, scalar_square(pl, 1), rect(0, 1, 0, 1, 64), "n=1 self pair", rng), 0);
    }
    {
        std::vector<int32_t> everyone(70);
        for (int32_t i = 0; i < 70; i++) everyone[(size_t)i] = i;
        const Bed bed = random_bed(rng, 70, 300, 0.0, everyone);
        const Planes pl(bed.view());
        EXPECT_EQ(check(bk, bed, pl, scalar_square(pl, 70), triangle(70, 64), "all missing", rng), 0);
    }
    {
        Bed bed = random_bed(rng, 9, 50, 0.1);
        std::fill(bed.use.begin(), bed.use.end(), 0); // no variant used: zero-word planes
        const Planes pl(bed.view());
        ASSERT_EQ(pl.p.words, 0);
        EXPECT_EQ(check(bk, bed, pl, scalar_square(pl, 9), triangle(9, 4), "no variants", rng), 0);
        EXPECT_EQ(check(bk, bed, pl, scalar_square(pl, 9), rect(2, 9, 0, 9, 4), "no variants, rectangle", rng), 0);
        EXPECT_EQ(check(bk, bed, pl, scalar_square(pl, 9), triangle(9, 4), "no variants, .bed", rng, true), 0);
    }
    {
        const Bed bed = random_bed(rng, 1, 700, 0.05);
        const Planes pl(bed.view());
        EXPECT_EQ(check(bk, bed, pl, scalar_square(pl, 1), rect(0, 1, 0, 1, 64), "n=1 self pair, .bed", rng, true), 0);
    }
}

// A 2 MiB device budget (two count buffers of 512 KiB, 1 MiB for the planes): 300 samples x
// 20,000 variants (~18,000 used, 288 words per plane) go in chunks of 144 words (300 x 3 x 8
// bytes per word) and the 44,850 pairs (28 bytes each) in at least three groups.
TEST(CudaDistance, SmallBudgetSplitsGroupsAndVariantChunks)
{
    ScopedEnv budget("DPACCEL_CUDA_CHUNK_BYTES", "2097152");
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const Bed bed = random_bed(rng, 300, 20000, 0.05, { 7 });
    const Planes pl(bed.view());
    ASSERT_GT(pl.p.words, 144) << "the case must need more than one variant chunk";
    const std::vector<uint32_t> sq = scalar_square(pl, 300);
    EXPECT_EQ(check(bk, bed, pl, sq, triangle(300, 64), "small budget, triangle", rng), 0);
    EXPECT_EQ(check(bk, bed, pl, sq, rect(0, 300, 100, 300, 256), "small budget, rectangle", rng), 0);
    {
        ScopedEnv popc("DPACCEL_DIST_CUDA_POPC", "1");
        EXPECT_EQ(check(bk, bed, pl, sq, triangle(300, 128), "small budget, popc", rng), 0);
    }
    // planes from the .bed stay resident whatever the budget; the counts still go in groups
    EXPECT_EQ(check(bk, bed, pl, sq, triangle(300, 64), "small budget, planes from the .bed", rng, true), 0);
    {
        ScopedEnv chunked("DPACCEL_DIST_CUDA_RESIDENT", "0");
        EXPECT_EQ(check(bk, bed, pl, sq, triangle(300, 64), "small budget, chunked forced", rng), 0);
    }
}

TEST(CudaDistance, BadArgumentsAndFaults)
{
    Backend bk;
    DPA_REQUIRE_GPU(bk);
    std::mt19937_64 rng(dpa_test::test_seed());
    const Bed bed = random_bed(rng, 20, 400, 0.1);
    const Planes pl(bed.view());
    const dpa_cuda_distance_entry *e = dpa_cuda_distance_of(bk.ops);
    const dpa_cuda_dist_planes pv = pl.view();
    const Case k = triangle(20, 8);
    std::vector<uint32_t> out((size_t)k.pairs * 7);
    int64_t done = 0;
    char err[512] = "";
    const dpa_cuda_dist_tile outside = { 0, 21, 0, 20 };
    EXPECT_EQ(e->run(bk.b, 0, &pv, &outside, 1, &k.layout, out.data(), &done, err, sizeof err),
              DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(err, "outside"), nullptr) << err;
    EXPECT_EQ(e->run(bk.b, 7, &pv, k.tiles.data(), (int64_t)k.tiles.size(), &k.layout, out.data(),
                     &done, err, sizeof err), DPA_ERR_INVALID_ARG);
    EXPECT_EQ(e->run(bk.b, 0, &pv, k.tiles.data(), (int64_t)k.tiles.size(), &k.layout, nullptr,
                     &done, err, sizeof err), DPA_ERR_NULL_ARG);
    // an injected out-of-memory fails this call only
    ASSERT_EQ(bk.ops->inject_fault(bk.b, 0, DPA_CUDA_FAULT_OOM), DPA_OK);
    EXPECT_EQ(e->run(bk.b, 0, &pv, k.tiles.data(), (int64_t)k.tiles.size(), &k.layout, out.data(),
                     &done, err, sizeof err), DPA_ERR_OUT_OF_MEMORY);
    EXPECT_EQ(check(bk, bed, pl, scalar_square(pl, 20), k, "after OOM", rng), 0);
    // a sticky error retires the device
    ASSERT_EQ(bk.ops->inject_fault(bk.b, 0, DPA_CUDA_FAULT_STICKY), DPA_OK);
    EXPECT_EQ(e->run(bk.b, 0, &pv, k.tiles.data(), (int64_t)k.tiles.size(), &k.layout, out.data(),
                     &done, err, sizeof err), DPA_ERR_DEVICE);
    dpa_device_info info;
    ASSERT_EQ(bk.ops->device_info(bk.b, 0, &info), DPA_OK);
    EXPECT_EQ(info.usable, 0);
    EXPECT_EQ(e->run(bk.b, 0, &pv, k.tiles.data(), (int64_t)k.tiles.size(), &k.layout, out.data(),
                     &done, err, sizeof err), DPA_ERR_DEVICE);
    EXPECT_NE(std::strstr(err, "retired"), nullptr) << err;
}
