// test_distance.cc — genotype distance counts: a hand-derived case, every kernel against the
// reference on random planes of odd sizes, the two output layouts through the API, and every
// bad argument. PLINK as an oracle is in test_distance_plink.cc.
#include <gtest/gtest.h>

#include <cstring>
#include <sys/mman.h>
#include <unistd.h>
#include <random>
#include <vector>

#include "test_util.h"

extern "C" {
#include "cpu/cpu_features.h"
#include "cpu/distance/distance.h"
}

namespace {

using Counts = std::array<uint32_t, DPA_DISTANCE_COUNTS>;

// Genotype codes as PLINK's .bed has them.
enum : uint8_t { A1 = 0, MISS = 1, HET = 2, A2 = 3 };

struct Bed {
    int32_t n = 0;
    int64_t m = 0;
    std::vector<uint8_t> rows, use;
    dpa_genotype_batch view(bool with_use = false) const {
        return { n, m, (n + 3) / 4, rows.data(), with_use ? use.data() : nullptr };
    }
};

// Random codes (missing with probability miss), the row padding bits set to noise so a
// kernel that reads them fails.
Bed random_bed(std::mt19937_64 &rng, int32_t n, int64_t m, double miss)
{
    Bed b;
    b.n = n, b.m = m;
    const int64_t rb = (n + 3) / 4;
    b.rows.assign(static_cast<size_t>(rb * m), 0);
    b.use.resize(static_cast<size_t>(m));
    std::uniform_real_distribution<double> u(0, 1);
    for (int64_t v = 0; v < m; v++) {
        b.use[v] = u(rng) < 0.9;
        const double p = u(rng);
        for (int32_t k = 0; k < rb * 4; k++) {
            uint8_t c;
            if (k >= n) c = static_cast<uint8_t>(rng() & 3);
            else if (u(rng) < miss) c = MISS;
            else {
                const int a1 = (u(rng) < p) + (u(rng) < p);
                c = a1 == 2 ? A1 : a1 == 1 ? HET : A2;
            }
            b.rows[v * rb + k / 4] |= static_cast<uint8_t>(c << (2 * (k % 4)));
        }
    }
    return b;
}

Counts ref(const dpa_genotype_batch &b, int32_t i, int32_t j)
{
    Counts c;
    dpa_dist_ref_pair(&b, i, j, c.data());
    return c;
}

TEST(DistanceHand, ThreeSamplesFiveVariants)
{
    // s0, s1, s2 per variant (padding sample 3 set to 11 in every row)
    const uint8_t codes[5][3] = { { A1, A2, HET }, { HET, HET, MISS }, { A2, A2, A1 },
                                  { MISS, HET, HET }, { HET, A1, A2 } };
    Bed b;
    b.n = 3, b.m = 5;
    for (auto &v : codes)
        b.rows.push_back(static_cast<uint8_t>(v[0] | v[1] << 2 | v[2] << 4 | 3 << 6));
    // written out by hand from the table above (docs/distance.md definitions)
    //                 NSNP IBS0 IBS1 IBS2 HETHET HET1_HOM2 HET2_HOM1
    const Counts p01 = { 4, 1, 1, 2, 1, 1, 0 };
    const Counts p02 = { 3, 1, 2, 0, 0, 1, 1 };
    const Counts p12 = { 4, 2, 1, 1, 1, 0, 1 };
    const dpa_genotype_batch view = b.view();
    EXPECT_EQ(ref(view, 0, 1), p01);
    EXPECT_EQ(ref(view, 0, 2), p02);
    EXPECT_EQ(ref(view, 1, 2), p12);

    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
    std::vector<uint32_t> out(3 * 7);
    dpa_distance_stats st;
    ASSERT_EQ(dpa_distance_counts(ctx, &view, nullptr, nullptr, out.data(), 21, &st), DPA_OK)
        << dpa_last_error();
    EXPECT_EQ(st.pairs, 3);
    EXPECT_EQ(st.variants_used, 5);
    EXPECT_EQ(Counts({ out[0], out[1], out[2], out[3], out[4], out[5], out[6] }), p01);
    EXPECT_EQ(Counts({ out[7], out[8], out[9], out[10], out[11], out[12], out[13] }), p02);
    EXPECT_EQ(Counts({ out[14], out[15], out[16], out[17], out[18], out[19], out[20] }), p12);

    // skipping variant 2 (A2/A2/A1) removes one IBS2 from (0,1), one IBS0 from (0,2), (1,2)
    b.use = { 1, 1, 0, 1, 1 };
    const dpa_genotype_batch skip = b.view(true);
    ASSERT_EQ(dpa_distance_counts(ctx, &skip, nullptr, nullptr, out.data(), 21, &st), DPA_OK);
    EXPECT_EQ(st.variants_used, 4);
    EXPECT_EQ(st.variants_skipped, 1);
    EXPECT_EQ(Counts({ out[0], out[1], out[2], out[3], out[4], out[5], out[6] }),
              Counts({ 3, 1, 1, 1, 1, 1, 0 }));
    EXPECT_EQ(Counts({ out[7], out[8], out[9], out[10], out[11], out[12], out[13] }),
              Counts({ 2, 0, 2, 0, 0, 1, 1 }));
    EXPECT_EQ(Counts({ out[14], out[15], out[16], out[17], out[18], out[19], out[20] }),
              Counts({ 3, 1, 1, 1, 1, 0, 1 }));

    // a tile: row 2 against columns 0..2 (row het / column hom flips against the triangle)
    dpa_distance_tile t = { 2, 3, 0, 3 };
    ASSERT_EQ(dpa_distance_counts(ctx, &view, &t, nullptr, out.data(), 21, &st), DPA_OK);
    EXPECT_EQ(Counts({ out[0], out[1], out[2], out[3], out[4], out[5], out[6] }),
              Counts({ 3, 1, 2, 0, 0, 1, 1 }));
    EXPECT_EQ(Counts({ out[7], out[8], out[9], out[10], out[11], out[12], out[13] }),
              Counts({ 4, 2, 1, 1, 1, 1, 0 }));
    // itself: every called variant (0, 2, 3, 4) is IBS2; two of them (0, 3) het
    EXPECT_EQ(Counts({ out[14], out[15], out[16], out[17], out[18], out[19], out[20] }),
              Counts({ 4, 0, 0, 4, 2, 0, 0 }));
    dpa_context_destroy(ctx);
}

struct KernelCase {
    const char *name;
    dpa_isa isa;
    dpa_dist_kernel_fn fn;
    bool runnable = true;  // false: an instruction beyond the ISA bundle the CPU lacks
};

std::vector<KernelCase> kernels()
{
    std::vector<KernelCase> k = { { "scalar", DPA_ISA_SCALAR, dpa_dist_tile_scalar } };
#ifdef DPA_HAVE_AVX2
    k.push_back({ "avx2", DPA_ISA_AVX2, dpa_dist_tile_avx2 });
#endif
#ifdef DPA_HAVE_AVX512
    k.push_back({ "avx512", DPA_ISA_AVX512, dpa_dist_tile_avx512 });
#endif
#ifdef DPA_HAVE_AVX512_VPOPCNT
    k.push_back({ "avx512+vpopcntdq", DPA_ISA_AVX512, dpa_dist_tile_avx512_vpopcnt,
                  dpa_dist_cpu_has_vpopcntdq() != 0 });
#endif
    return k;
}

// Each kernel, called directly on planes, against the reference: sizes that are not a
// multiple of 4 samples or 64/256/512 variants, more variants than one block, both layouts
// (rectangle, upper triangle), and planes that start off sample 0.
TEST(DistanceKernels, EveryIsaMatchesReferenceOnOddSizes)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const unsigned have = dpa_cpu_supported_isas();
    // every sample count with the small variant counts; then more variants than one block of
    // each kernel (AVX2 4,096, AVX-512 8,192, scalar 16,384) on fewer samples
    std::vector<std::pair<int32_t, int64_t>> shapes;
    for (int32_t n : { 1, 2, 3, 5, 13, 37 })
        for (int64_t m : { 0, 1, 63, 64, 65, 257, 1000 }) shapes.emplace_back(n, m);
    shapes.emplace_back(13, 9001);
    shapes.emplace_back(6, 17000);
    for (const KernelCase &k : kernels()) {
        if (!(have & DPA_ISA_BIT(k.isa)) || !k.runnable) {
            std::printf("[ SKIPPED ] distance kernel %s: this CPU lacks it\n", k.name);
            continue;
        }
        SCOPED_TRACE(k.name);
        for (const auto &[n, m] : shapes)
                for (int with_use = 0; with_use < 2; with_use++) {
                    Bed b = random_bed(rng, n, m, 0.1);
                    const dpa_genotype_batch view = b.view(with_use);
                    int64_t used = 0;
                    ASSERT_EQ(dpa_dist_check_batch(&view, &used), DPA_OK);
                    // planes from sample 1 on when there are several: a tile never sees sample 0
                    const int32_t first = n > 2 ? 1 : 0;
                    dpa_dist_planes p;
                    ASSERT_EQ(dpa_dist_planes_build(&view, used, first, n - first, &p), DPA_OK);
                    std::vector<uint32_t> out(static_cast<size_t>(n) * n * 7, 0xdeadbeef);
                    std::vector<int64_t> base(n);
                    for (int32_t r = first; r < n; r++) base[r - first] = static_cast<int64_t>(r) * n;
                    for (int upper = 0; upper < 2; upper++) {
                        k.fn(&p, first, n, first, n, upper, base.data(), out.data());
                        for (int32_t i = first; i < n; i++)
                            for (int32_t j = upper ? i + 1 : first; j < n; j++) {
                                Counts got;
                                std::memcpy(got.data(), &out[(static_cast<size_t>(i) * n + j) * 7], 28);
                                ASSERT_EQ(got, ref(view, i, j)) << "n=" << n << " m=" << m
                                    << " use=" << with_use << " upper=" << upper << " pair " << i
                                    << "," << j;
                            }
                    }
                    dpa_dist_planes_free(&p);
                }
    }
}

// Each kernel on tiles that cut its register blocks (2 rows x 2 columns) anywhere: random row
// and column ranges of odd widths, columns left of, across and right of the rows (upper tiles
// then start mid-block on the diagonal), more variants than one variant block; pairs the
// kernel is not asked for (outside the tile, or c <= r in an upper tile) must stay untouched.
TEST(DistanceKernels, EveryIsaMatchesReferenceOnTilesCuttingBlocks)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const unsigned have = dpa_cpu_supported_isas();
    constexpr uint32_t kCanary = 0xdeadbeef;
    for (const KernelCase &k : kernels()) {
        if (!(have & DPA_ISA_BIT(k.isa)) || !k.runnable) {
            std::printf("[ SKIPPED ] distance kernel %s: this CPU lacks it\n", k.name);
            continue;
        }
        SCOPED_TRACE(k.name);
        for (const auto &[n, m] : std::vector<std::pair<int32_t, int64_t>>{
                 { 9, 700 }, { 23, 130 }, { 41, 2049 }, { 12, 70000 } }) {
            Bed b = random_bed(rng, n, m, 0.15);
            const dpa_genotype_batch view = b.view(true);
            int64_t used = 0;
            ASSERT_EQ(dpa_dist_check_batch(&view, &used), DPA_OK);
            dpa_dist_planes p;
            ASSERT_EQ(dpa_dist_planes_build(&view, used, 0, n, &p), DPA_OK);
            std::vector<std::vector<Counts>> want(n, std::vector<Counts>(n));
            for (int32_t i = 0; i < n; i++)
                for (int32_t j = 0; j < n; j++) want[i][j] = ref(view, i, j);
            std::uniform_int_distribution<int32_t> pick(0, n - 1);
            for (int t = 0; t < 24; t++) {
                int32_t r0 = pick(rng), r1 = pick(rng), c0 = pick(rng), c1 = pick(rng);
                if (r0 > r1) std::swap(r0, r1);
                if (c0 > c1) std::swap(c0, c1);
                r1++, c1++;
                const int upper = t % 2;
                const int32_t cols = c1 - c0;
                std::vector<uint32_t> out(static_cast<size_t>(r1 - r0) * cols * 7, kCanary);
                std::vector<int64_t> base(r1 - r0);
                for (int32_t r = r0; r < r1; r++) base[r - r0] = static_cast<int64_t>(r - r0) * cols - c0;
                k.fn(&p, r0, r1, c0, c1, upper, base.data(), out.data());
                for (int32_t r = r0; r < r1; r++)
                    for (int32_t c = c0; c < c1; c++) {
                        const uint32_t *o = &out[(static_cast<size_t>(r - r0) * cols + (c - c0)) * 7];
                        if (upper && c <= r) {
                            for (int q = 0; q < 7; q++)
                                ASSERT_EQ(o[q], kCanary) << "written though not asked: pair " << r
                                    << "," << c << " tile " << r0 << ".." << r1 << " x " << c0
                                    << ".." << c1 << " n=" << n << " m=" << m;
                            continue;
                        }
                        Counts got;
                        std::memcpy(got.data(), o, 28);
                        ASSERT_EQ(got, want[r][c]) << "pair " << r << "," << c << " tile " << r0
                            << ".." << r1 << " x " << c0 << ".." << c1 << " upper=" << upper
                            << " n=" << n << " m=" << m;
                    }
            }
            dpa_dist_planes_free(&p);
        }
    }
}

// Through the API with the context's ISA (CTest runs this once per ISA): the triangle and a
// tile, with small blocks so many tasks run on the threads, against the reference.
TEST(DistanceApi, TriangleAndTileMatchReference)
{
    const uint64_t seed = dpa_test::test_seed();
    SCOPED_TRACE("DPA_TEST_SEED=" + std::to_string(seed));
    std::mt19937_64 rng(seed);
    dpa_options o;
    dpa_options_init(&o);
    o.num_threads = 3;
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(&o, &ctx), DPA_OK);
    const int32_t n = 61;
    Bed b = random_bed(rng, n, 777, 0.15);
    const dpa_genotype_batch view = b.view(true);
    dpa_distance_params prm;
    dpa_distance_params_init(&prm);
    prm.block = 8;
    int64_t pairs = 0;
    ASSERT_EQ(dpa_distance_pair_count(&view, nullptr, &pairs), DPA_OK);
    ASSERT_EQ(pairs, n * (n - 1) / 2);
    std::vector<uint32_t> out(static_cast<size_t>(pairs) * 7);
    dpa_distance_stats st;
    ASSERT_EQ(dpa_distance_counts(ctx, &view, nullptr, &prm, out.data(), pairs * 7, &st), DPA_OK)
        << dpa_last_error();
    dpa_isa isa;
    dpa_context_isa(ctx, &isa);
    EXPECT_EQ(st.isa, isa);
    size_t at = 0;
    for (int32_t i = 0; i < n; i++)
        for (int32_t j = i + 1; j < n; j++, at += 7) {
            Counts got;
            std::memcpy(got.data(), &out[at], 28);
            ASSERT_EQ(got, ref(view, i, j)) << "pair " << i << "," << j;
        }
    const dpa_distance_tile t = { 5, 40, 17, 60 };
    ASSERT_EQ(dpa_distance_pair_count(&view, &t, &pairs), DPA_OK);
    ASSERT_EQ(pairs, 35 * 43);
    out.assign(static_cast<size_t>(pairs) * 7, 0);
    ASSERT_EQ(dpa_distance_counts(ctx, &view, &t, &prm, out.data(), pairs * 7, nullptr), DPA_OK);
    at = 0;
    for (int32_t r = t.row0; r < t.row1; r++)
        for (int32_t c = t.col0; c < t.col1; c++, at += 7) {
            Counts got;
            std::memcpy(got.data(), &out[at], 28);
            ASSERT_EQ(got, ref(view, r, c)) << "tile pair " << r << "," << c;
        }
    dpa_context_destroy(ctx);
}

TEST(DistanceErrors, EveryBadArgumentIsNamed)
{
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_test::context_without_gpu(&ctx), DPA_OK);
    std::vector<uint8_t> rows(2 * 5, 0), use(5, 1);
    uint32_t out[7 * 36];
    auto call = [&](dpa_genotype_batch b, const dpa_distance_tile *t, dpa_distance_params *p,
                    int64_t len) { return dpa_distance_counts(ctx, &b, t, p, out, len, nullptr); };
    const dpa_genotype_batch ok = { 5, 5, 2, rows.data(), use.data() };
    EXPECT_EQ(call(ok, nullptr, nullptr, 70), DPA_OK) << dpa_last_error();
    EXPECT_EQ(dpa_distance_counts(nullptr, &ok, nullptr, nullptr, out, 70, nullptr), DPA_ERR_NULL_ARG);
    EXPECT_EQ(dpa_distance_counts(ctx, nullptr, nullptr, nullptr, out, 70, nullptr), DPA_ERR_NULL_ARG);
    EXPECT_EQ(dpa_distance_counts(ctx, &ok, nullptr, nullptr, nullptr, 70, nullptr), DPA_ERR_NULL_ARG);
    EXPECT_EQ(call(ok, nullptr, nullptr, 69), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(dpa_last_error(), "out_len = 69"), nullptr) << dpa_last_error();
    dpa_genotype_batch b = ok;
    b.num_samples = 0;
    EXPECT_EQ(call(b, nullptr, nullptr, 70), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(dpa_last_error(), "num_samples = 0"), nullptr) << dpa_last_error();
    b = ok, b.num_samples = DPA_DISTANCE_MAX_SAMPLES + 1;
    EXPECT_EQ(call(b, nullptr, nullptr, 70), DPA_ERR_LIMIT);
    b = ok, b.num_variants = -1;
    EXPECT_EQ(call(b, nullptr, nullptr, 70), DPA_ERR_INVALID_ARG);
    b = ok, b.num_variants = DPA_DISTANCE_MAX_VARIANTS + 1;
    EXPECT_EQ(call(b, nullptr, nullptr, 70), DPA_ERR_LIMIT);
    b = ok, b.row_bytes = 1;
    EXPECT_EQ(call(b, nullptr, nullptr, 70), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(dpa_last_error(), "row_bytes = 1"), nullptr) << dpa_last_error();
    b = ok, b.genotypes = nullptr;
    EXPECT_EQ(call(b, nullptr, nullptr, 70), DPA_ERR_NULL_ARG);
    use[3] = 2;
    EXPECT_EQ(call(ok, nullptr, nullptr, 70), DPA_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(dpa_last_error(), "variant_use[3] = 2"), nullptr) << dpa_last_error();
    use[3] = 1;
    const dpa_distance_tile bad_tiles[] = { { -1, 2, 0, 2 }, { 3, 2, 0, 2 }, { 0, 6, 0, 2 },
                                            { 0, 2, -1, 2 }, { 0, 2, 2, 1 }, { 0, 2, 0, 6 } };
    for (const dpa_distance_tile &t : bad_tiles) {
        EXPECT_EQ(call(ok, &t, nullptr, 7 * 36), DPA_ERR_INVALID_ARG);
        EXPECT_NE(std::strstr(dpa_last_error(), "distance tile"), nullptr) << dpa_last_error();
    }
    dpa_distance_params p;
    dpa_distance_params_init(&p);
    p.backend = 4;
    EXPECT_EQ(call(ok, nullptr, &p, 70), DPA_ERR_INVALID_ARG);
    p.backend = -1, p.block = 7;
    EXPECT_EQ(call(ok, nullptr, &p, 70), DPA_ERR_INVALID_ARG);
    p.block = 4097;
    EXPECT_EQ(call(ok, nullptr, &p, 70), DPA_ERR_INVALID_ARG);
    // no usable GPU (the context disables it): a GPU-forced call fails and says why
    p.block = 0, p.backend = DPA_BACKEND_GPU;
    EXPECT_EQ(call(ok, nullptr, &p, 70), DPA_ERR_NO_DEVICE);
    EXPECT_NE(std::strstr(dpa_last_error(), "distance"), nullptr) << dpa_last_error();
    // an empty tile and one sample: nothing to write, OK (out may be NULL)
    const dpa_distance_tile empty = { 2, 2, 0, 5 };
    EXPECT_EQ(dpa_distance_counts(ctx, &ok, &empty, nullptr, nullptr, 0, nullptr), DPA_OK);
    b = ok, b.num_samples = 1, b.row_bytes = 1;
    EXPECT_EQ(dpa_distance_counts(ctx, &b, nullptr, nullptr, nullptr, 0, nullptr), DPA_OK);
    // no variants at all: every count 0
    b = ok, b.num_variants = 0, b.genotypes = nullptr, b.variant_use = nullptr;
    std::memset(out, 0xff, sizeof out);
    EXPECT_EQ(call(b, nullptr, nullptr, 70), DPA_OK) << dpa_last_error();
    for (int k = 0; k < 70; k++) ASSERT_EQ(out[k], 0u);
    dpa_context_destroy(ctx);
}

}  // namespace

namespace {

// `bytes` of memory that end where a PROT_NONE page begins, so one byte read or written past
// the end faults (libdeflate's guarded buffers).
struct Guarded {
    void *map = nullptr;
    size_t len = 0;
    uint8_t *data = nullptr;
    explicit Guarded(size_t bytes)
    {
        const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        const size_t body = (bytes + page - 1) / page * page;
        len = body + page;
        map = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (map == MAP_FAILED) {
            map = nullptr;
            return;
        }
        mprotect(static_cast<uint8_t *>(map) + body, page, PROT_NONE);
        data = static_cast<uint8_t *>(map) + body - bytes;
    }
    ~Guarded()
    {
        if (map) munmap(map, len);
    }
};

// The caller's genotypes, use flags and output each end at a guard page: the engine reads and
// writes exactly what the layout says, for the triangle and for a tile touching the last sample.
TEST(DistanceGuard, CallerBuffersEndAtAGuardPage)
{
    std::mt19937_64 rng(dpa_test::test_seed());
    dpa_context *ctx = nullptr;
    ASSERT_EQ(dpa_context_create(nullptr, &ctx), DPA_OK);
    for (int32_t n : { 1, 5, 30, 65 }) {
        const int64_t m = 333;
        Bed src = random_bed(rng, n, m, 0.1);
        Guarded g(src.rows.size()), u(static_cast<size_t>(m));
        ASSERT_TRUE(g.data && u.data);
        std::memcpy(g.data, src.rows.data(), src.rows.size());
        std::memcpy(u.data, src.use.data(), static_cast<size_t>(m));
        const dpa_genotype_batch b = { n, m, (n + 3) / 4, g.data, u.data };
        const dpa_distance_tile tiles[] = { { 0, n, 0, n }, { n / 2, n, n - 1, n } };
        for (int t = -1; t < 2; t++) {
            const dpa_distance_tile *tp = t < 0 ? nullptr : &tiles[t];
            int64_t pairs = 0;
            ASSERT_EQ(dpa_distance_pair_count(&b, tp, &pairs), DPA_OK);
            if (pairs == 0) continue;
            Guarded o(static_cast<size_t>(pairs) * 7 * sizeof(uint32_t));
            uint32_t *out = reinterpret_cast<uint32_t *>(o.data);
            ASSERT_EQ(dpa_distance_counts(ctx, &b, tp, nullptr, out, pairs * 7, nullptr), DPA_OK)
                << dpa_last_error();
            const int32_t r = tp ? tp->row1 - 1 : n - 2, c = tp ? tp->col1 - 1 : n - 1;
            Counts last;
            std::memcpy(last.data(), out + (pairs - 1) * 7, 28);
            EXPECT_EQ(last, ref(b, r, c)) << "n=" << n << " tile " << t;
        }
    }
    dpa_context_destroy(ctx);
}

}  // namespace
