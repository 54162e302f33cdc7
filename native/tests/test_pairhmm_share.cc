// test_pairhmm_share.cc — the host side of prefix sharing on the GPU (kernels/src/pairhmm_share.h,
// plain C, no GPU needed): which task runs form regions, and per pair the resume column,
// checkpoint, level, saves and entries, against hand-derived values; what must not share
// (a haplotype or read with letters outside the float table, reads over 160 rows, a region
// that saves too little, a full entry budget); the level limit. The kernel that consumes the
// plan is tested on a GPU (kernels/tests/test_cuda_pairhmm.cc).
#include <gtest/gtest.h>

#include <string>
#include <vector>

extern "C" {
#include "cpu/pairhmm/pairhmm.h"
#include "pairhmm_share.h"
}

namespace {

// Haplotypes of equal length in (length, bytes) order: ACGA, ACGT, ACTT, TTTT (batch order
// below: ACGT, ACGA, ACTT, TTTT). ACGT resumes at 3 and ACTT at 2, both from ACGA, which saves
// column 2 (checkpoint 0) and column 3 (checkpoint 1).
struct Fixture {
    std::vector<std::string> haps = { "ACGT", "ACGA", "ACTT", "TTTT", "GGGGG", "GGGGC" };
    std::vector<int32_t> read_len = { 100, 150, 200, 128 };
    std::string hb, rb;
    std::vector<int64_t> ho, ro;
    std::vector<int32_t> hl;
    dpa_pairhmm_batch b{};
    Fixture()
    {
        for (const auto &h : haps) {
            ho.push_back((int64_t)hb.size());
            hl.push_back((int32_t)h.size());
            hb += h;
        }
        for (int32_t L : read_len) {
            ro.push_back((int64_t)rb.size());
            rb += std::string((size_t)L, 'A');
        }
        b.num_reads = (int32_t)read_len.size();
        b.read_bases = (const uint8_t *)rb.data();
        b.read_offsets = ro.data();
        b.read_lengths = read_len.data();
        b.num_haps = (int32_t)haps.size();
        b.hap_bases = (const uint8_t *)hb.data();
        b.hap_offsets = ho.data();
        b.hap_lengths = hl.data();
    }
};

// Reads 0..3 against haplotypes 0..3, read-major (one region of four reads), then read 0
// against haplotypes 4, 5 (a region of one read), then two pairs out of order (no region).
std::vector<dpa_phmm_task> engine_order()
{
    std::vector<dpa_phmm_task> t;
    for (int32_t r = 0; r < 4; r++)
        for (int32_t h = 0; h < 4; h++) t.push_back({ r, h, (int64_t)t.size() });
    for (int32_t h = 4; h < 6; h++) t.push_back({ 0, h, (int64_t)t.size() });
    t.push_back({ 1, 5, (int64_t)t.size() });
    t.push_back({ 1, 4, (int64_t)t.size() });
    return t;
}

struct Planned {
    dpa_phmm_share sh{};
    std::vector<uint8_t> shared;
    std::vector<int32_t> saves;
    dpa_status st = DPA_OK;
    Planned(const Fixture &f, const std::vector<dpa_phmm_task> &t, std::vector<uint8_t> rwide,
            std::vector<uint8_t> hwide, double ratio, int32_t levels, int64_t entries)
    {
        EXPECT_EQ(dpa_phmm_share_scan(&f.b, t.data(), (int64_t)t.size(), &sh), DPA_OK);
        sh.ratio = ratio;
        sh.levels_max = levels;
        sh.entries_max = entries;
        shared.assign(t.size(), 7);
        saves.assign((size_t)(2 * sh.saves_max + 1), -1);
        st = dpa_phmm_share_plan(&f.b, t.data(), (int64_t)t.size(), rwide.data(), hwide.data(),
                                 &sh, shared.data(), saves.data());
    }
    ~Planned() { dpa_phmm_share_free(&sh); }
    const dpa_phmm_spair *find(int32_t task) const
    {
        for (int64_t i = 0; i < sh.nshared; i++)
            if (sh.sp[i].task == task) return &sh.sp[i];
        return nullptr;
    }
};

}  // namespace

TEST(PairHmmShare, RegionsFromTheEngineOrder)
{
    Fixture f;
    auto t = engine_order();
    dpa_phmm_share sh{};
    ASSERT_EQ(dpa_phmm_share_scan(&f.b, t.data(), (int64_t)t.size(), &sh), DPA_OK);
    ASSERT_EQ(sh.nregions, 2);
    EXPECT_EQ(sh.regions[0].t0, 0);
    EXPECT_EQ(sh.regions[0].nreads, 4);
    EXPECT_EQ(sh.regions[0].k, 4);
    EXPECT_EQ(sh.regions[0].h0, 0);
    EXPECT_EQ(sh.regions[1].t0, 16);
    EXPECT_EQ(sh.regions[1].nreads, 1);
    EXPECT_EQ(sh.regions[1].k, 2);
    EXPECT_EQ(sh.regions[1].h0, 4);
    EXPECT_EQ(sh.pairs_max, 4 * 4 + 2);
    EXPECT_EQ(sh.saves_max, 4 + 2);
    dpa_phmm_share_free(&sh);
}

TEST(PairHmmShare, HandDerivedCheckpointsLevelsAndEntries)
{
    Fixture f;
    auto t = engine_order();
    Planned p(f, t, { 0, 0, 0, 0 }, std::vector<uint8_t>(6, 0), 1e9, 8, 1000);
    ASSERT_EQ(p.st, DPA_OK);
    // reads 0, 1 and 3 (100, 150, 128 rows) share; read 2 (200 rows) does not; GGGGG and
    // GGGGC share column 4
    for (int32_t k = 0; k < (int32_t)t.size(); k++) {
        const bool want = (k < 16 && k / 4 != 2) || k == 16 || k == 17;
        EXPECT_EQ(p.shared[(size_t)k], want ? 1 : 0) << "task " << k;
    }
    ASSERT_EQ(p.sh.nshared, 3 * 4 + 2);
    // region 0's saves: column 2 -> checkpoint 0, column 3 -> checkpoint 1 (by ACGA)
    EXPECT_EQ(p.saves[0], 2);
    EXPECT_EQ(p.saves[1], 0);
    EXPECT_EQ(p.saves[2], 3);
    EXPECT_EQ(p.saves[3], 1);
    EXPECT_EQ(p.sh.nsaves, 2 + 1);
    EXPECT_EQ(p.sh.levels, 2);
    int32_t ebase_seen[3] = { -1, -1, -1 };
    int ri = 0;
    for (int32_t r : { 0, 1, 3 }) {
        const dpa_phmm_spair *acgt = p.find(r * 4 + 0), *acga = p.find(r * 4 + 1);
        const dpa_phmm_spair *actt = p.find(r * 4 + 2), *tttt = p.find(r * 4 + 3);
        ASSERT_TRUE(acgt && acga && actt && tttt) << "read " << r;
        EXPECT_EQ(acga->sd.resume, 0);
        EXPECT_EQ(acga->sd.load, -1);
        EXPECT_EQ(acga->level, 0);
        EXPECT_EQ(acga->sd.save1 - acga->sd.save0, 2);
        EXPECT_EQ(acga->n2, 4);
        EXPECT_EQ(acgt->sd.resume, 3);
        EXPECT_EQ(acgt->sd.load, 1);
        EXPECT_EQ(acgt->level, 1);
        EXPECT_EQ(acgt->n2, 1);
        EXPECT_EQ(actt->sd.resume, 2);
        EXPECT_EQ(actt->sd.load, 0);
        EXPECT_EQ(actt->level, 1);
        EXPECT_EQ(tttt->sd.resume, 0);
        EXPECT_EQ(tttt->sd.save1 - tttt->sd.save0, 0);
        EXPECT_EQ(acgt->cls, r == 1 ? 1 : 0) << "read class (<= 128 rows: 0)";
        // every pair of a read has the read's entries; reads have their own
        EXPECT_EQ(acgt->sd.ebase, acga->sd.ebase);
        ebase_seen[ri++] = acga->sd.ebase;
    }
    EXPECT_EQ(ebase_seen[0], 0);
    EXPECT_EQ(ebase_seen[1], 2);
    EXPECT_EQ(ebase_seen[2], 4);
    // region 1: GGGGC comes first (C < G) and GGGGG resumes at 4 from it
    const dpa_phmm_spair *gc = p.find(17), *gg = p.find(16);
    ASSERT_TRUE(gc && gg);
    EXPECT_EQ(gc->sd.resume, 0);
    EXPECT_EQ(gg->sd.resume, 4);
    EXPECT_EQ(gg->sd.load, 0);
    EXPECT_EQ(gg->n2, 1);
    EXPECT_EQ(p.sh.nentries, 3 * 2 + 1);
    // cells of the shared pairs: region 0 computes 4 + 1 + 2 + 4 of 16 columns per read
    EXPECT_EQ(p.sh.cells, (100 + 150 + 128) * 16 + 100 * 10);
    EXPECT_EQ(p.sh.cells_computed, (100 + 150 + 128) * 11 + 100 * 6);
}

TEST(PairHmmShare, WhatMustNotShare)
{
    Fixture f;
    auto t = engine_order();
    {   // a haplotype with a letter outside the float table: the whole region runs all pairs
        Planned p(f, t, { 0, 0, 0, 0 }, { 0, 0, 1, 0, 0, 0 }, 1e9, 8, 1000);
        ASSERT_EQ(p.st, DPA_OK);
        for (int k = 0; k < 16; k++) EXPECT_EQ(p.shared[(size_t)k], 0) << k;
        EXPECT_EQ(p.shared[16], 1);
    }
    {   // such a read: only its own pairs
        Planned p(f, t, { 0, 1, 0, 0 }, std::vector<uint8_t>(6, 0), 1e9, 8, 1000);
        for (int k = 0; k < 16; k++)
            EXPECT_EQ(p.shared[(size_t)k], (k / 4 == 0 || k / 4 == 3) ? 1 : 0) << k;
    }
    {   // region 0 computes 11 + 28 (fill) of 16 + 28 lane columns: shares at 0.9, not at 0.85
        Planned yes(f, t, { 0, 0, 0, 0 }, std::vector<uint8_t>(6, 0), 0.9, 8, 1000);
        Planned no(f, t, { 0, 0, 0, 0 }, std::vector<uint8_t>(6, 0), 0.85, 8, 1000);
        EXPECT_EQ(yes.shared[0], 1);
        EXPECT_EQ(no.shared[0], 0);
    }
    {   // entry budget: region 0 needs 3 reads x 2 entries; 5 leave it out, region 1 fits
        Planned p(f, t, { 0, 0, 0, 0 }, std::vector<uint8_t>(6, 0), 1e9, 8, 5);
        EXPECT_EQ(p.shared[0], 0);
        EXPECT_EQ(p.shared[16], 1);
        EXPECT_EQ(p.sh.nentries, 1);
    }
}

namespace {
// The fixture's reads against four new haplotypes of length 4 (read 0 only).
void set_haps(Fixture &g, const std::vector<std::string> &haps)
{
    g.haps = haps;
    g.hb.clear(), g.ho.clear(), g.hl.clear();
    for (const auto &h : g.haps) {
        g.ho.push_back((int64_t)g.hb.size());
        g.hl.push_back((int32_t)h.size());
        g.hb += h;
    }
    g.b.num_haps = (int32_t)haps.size();
    g.b.hap_bases = (const uint8_t *)g.hb.data();
    g.b.hap_offsets = g.ho.data();
    g.b.hap_lengths = g.hl.data();
}
}  // namespace

TEST(PairHmmShare, LevelLimitStartsDeepPairsFromColumnZero)
{
    Fixture g;
    std::vector<dpa_phmm_task> t;
    for (int32_t h = 0; h < 4; h++) t.push_back({ 0, h, h });
    // AAAA < AAAC < AACC < ACCC: each resumes (at 3, 2, 1) from a column AAAA computes (the
    // latest earlier haplotype with a smaller resume column): one level below AAAA
    set_haps(g, { "AAAA", "AAAC", "AACC", "ACCC" });
    Planned p(g, t, { 0, 0, 0, 0 }, std::vector<uint8_t>(4, 0), 1e9, 2, 1000);
    ASSERT_EQ(p.sh.nshared, 4);
    EXPECT_EQ(p.sh.levels, 2);
    EXPECT_EQ(p.find(1)->sd.resume, 3);
    EXPECT_EQ(p.find(2)->sd.resume, 2);
    EXPECT_EQ(p.find(3)->sd.resume, 1);
    // a chain: AACC resumes at 2 from AAAA (level 1), AACG at 3 from AACC (level 2); with a
    // limit of 2 levels AACG computes from column 0 instead
    set_haps(g, { "AAAA", "AACC", "AACG", "TTTT" });
    Planned q(g, t, { 0, 0, 0, 0 }, std::vector<uint8_t>(4, 0), 1e9, 2, 1000);
    ASSERT_EQ(q.sh.nshared, 4);
    EXPECT_EQ(q.find(1)->sd.resume, 2);
    EXPECT_EQ(q.find(1)->level, 1);
    EXPECT_EQ(q.find(2)->sd.resume, 0);
    EXPECT_EQ(q.find(2)->sd.load, -1);
    EXPECT_EQ(q.find(2)->level, 0);
    EXPECT_EQ(q.sh.levels, 2);
    Planned r(g, t, { 0, 0, 0, 0 }, std::vector<uint8_t>(4, 0), 1e9, 8, 1000);
    EXPECT_EQ(r.find(2)->sd.resume, 3);
    EXPECT_EQ(r.find(2)->level, 2);
    EXPECT_EQ(r.sh.levels, 3);
}
