#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>

extern "C" {
#include "cpu/cpu_features.h"
}

namespace {

// CTest runs the engine-level suite once per CPU ISA (native/tests/CMakeLists.txt) with
// DPA_TEST_ISA naming the ISA that run is for. Where that ISA is not compiled in or this
// CPU/OS lacks it, the engine would quietly fall back to the next one down and the run would
// pass as if it had tested it: every test is skipped instead, saying why. (A skip in a
// global Environment's SetUp is not enough: gtest 1.12 then counts the unrun tests as
// passed. A skip recorded when a test starts keeps it from running and reports it skipped.)
std::string isa_skip_reason()
{
    const char *want = std::getenv("DPA_TEST_ISA");
    if (!want || !*want || std::strcmp(want, "scalar") == 0) return "";
    const unsigned have = dpa_cpu_supported_isas();
    const std::string w = want;
    if (w == "avx2") {
#ifndef DPA_HAVE_AVX2
        return "DPA_TEST_ISA=avx2: the AVX2 kernels are not compiled in (compiler lacks -mavx2)";
#endif
        if (!(have & DPA_ISA_BIT(DPA_ISA_AVX2)))
            return "DPA_TEST_ISA=avx2: this CPU/OS has no AVX2+FMA+BMI2; the avx2 run is not possible here";
        return "";
    }
    if (w == "avx512") {
#ifndef DPA_HAVE_AVX512
        return "DPA_TEST_ISA=avx512: the AVX-512 kernels are not compiled in (compiler lacks -mavx512*)";
#endif
        if (!(have & DPA_ISA_BIT(DPA_ISA_AVX512)))
            return "DPA_TEST_ISA=avx512: this CPU/OS has no AVX-512 F/BW/DQ/VL; the avx512 run is not possible here";
        return "";
    }
    return "";  // unknown names fail in RequiredIsa::OnTestStart
}

class RequiredIsa : public ::testing::EmptyTestEventListener {
    void OnTestStart(const ::testing::TestInfo &) override
    {
        static const std::string reason = isa_skip_reason();
        const char *want = std::getenv("DPA_TEST_ISA");
        if (want && *want && std::strcmp(want, "scalar") && std::strcmp(want, "avx2") && std::strcmp(want, "avx512"))
            GTEST_FAIL() << "DPA_TEST_ISA=" << want << ": unknown ISA (scalar, avx2, avx512)";
        if (!reason.empty()) GTEST_SKIP() << reason;
    }
};

[[maybe_unused]] const bool kRequiredIsa = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new RequiredIsa);
    return true;
}();

}  // namespace

namespace dpa_test {

uint64_t test_seed()
{
    const char *env = std::getenv("DPA_TEST_SEED");
    if (env && *env) return std::strtoull(env, nullptr, 10);
    return (uint64_t)std::chrono::high_resolution_clock::now().time_since_epoch().count();
}

dpa_pairhmm_batch Batch::view()
{
    rb_.clear(), bq_.clear(), iq_.clear(), dq_.clear(), gq_.clear(), hb_.clear();
    ro_.clear(), ho_.clear(), rl_.clear(), hl_.clear();
    for (const Read &r : reads) {
        ro_.push_back((int64_t)rb_.size());
        rl_.push_back((int32_t)r.bases.size());
        rb_.insert(rb_.end(), r.bases.begin(), r.bases.end());
        bq_.insert(bq_.end(), r.q.begin(), r.q.end());
        iq_.insert(iq_.end(), r.ins.begin(), r.ins.end());
        dq_.insert(dq_.end(), r.del.begin(), r.del.end());
        gq_.insert(gq_.end(), r.gcp.begin(), r.gcp.end());
    }
    for (const std::string &h : haps) {
        ho_.push_back((int64_t)hb_.size());
        hl_.push_back((int32_t)h.size());
        hb_.insert(hb_.end(), h.begin(), h.end());
    }
    dpa_pairhmm_batch b{};
    b.num_reads = (int32_t)reads.size();
    b.read_bases = rb_.data();
    b.base_quals = bq_.data();
    b.ins_quals = iq_.data();
    b.del_quals = dq_.data();
    b.gcp_quals = gq_.data();
    b.read_offsets = ro_.data();
    b.read_lengths = rl_.data();
    b.num_haps = (int32_t)haps.size();
    b.hap_bases = hb_.data();
    b.hap_offsets = ho_.data();
    b.hap_lengths = hl_.data();
    b.num_groups = (int32_t)group_reads.size();
    b.group_num_reads = group_reads.empty() ? nullptr : group_reads.data();
    b.group_num_haps = group_haps.empty() ? nullptr : group_haps.data();
    return b;
}

int64_t Batch::results() const
{
    if (group_reads.empty()) return (int64_t)reads.size() * (int64_t)haps.size();
    int64_t n = 0;
    for (size_t g = 0; g < group_reads.size(); g++) n += (int64_t)group_reads[g] * group_haps[g];
    return n;
}

std::string random_bases(std::mt19937_64 &rng, int len, const char *alphabet)
{
    std::string s;
    const size_t k = std::char_traits<char>::length(alphabet);
    for (int i = 0; i < len; i++) s.push_back(alphabet[rng() % k]);
    return s;
}

Read random_read(std::mt19937_64 &rng, int len, int qmin, int qmax)
{
    Read r;
    r.bases = random_bases(rng, len);
    std::uniform_int_distribution<int> q(qmin, qmax);
    for (int i = 0; i < len; i++) {
        r.q.push_back((uint8_t)q(rng));
        r.ins.push_back((uint8_t)q(rng));
        r.del.push_back((uint8_t)q(rng));
        r.gcp.push_back((uint8_t)q(rng));
    }
    return r;
}

void make_region(std::mt19937_64 &rng, Batch &b, int nhaps, int nreads, int ref_len,
                 int read_len)
{
    const std::string ref = dpa_test::random_bases(rng, ref_len);
    const int h0 = (int)b.haps.size();
    b.haps.push_back(ref);
    for (int h = 1; h < nhaps; h++) {
        std::string x = b.haps[h0 + (int)(rng() % h)];  // derived from an earlier one
        const int kind = (int)(rng() % 6);
        const size_t pos = rng() % x.size();
        if (kind < 4) {
            x[pos] = "ACGT"[(std::string("ACGT").find(x[pos]) + 1 + rng() % 3) % 4];
        } else if (kind == 4) {
            x.insert(pos, dpa_test::random_bases(rng, 1 + (int)(rng() % 6)));
        } else if (x.size() > 10) {
            x.erase(pos, std::min<size_t>(1 + rng() % 6, x.size() - pos - 1));
        }
        b.haps.push_back(x);
    }
    for (int r = 0; r < nreads; r++) {
        const std::string &hap = b.haps[h0 + (int)(rng() % nhaps)];
        int len = std::min<int>((int)hap.size(), r % 4 == 0 ? 40 + (int)(rng() % (read_len - 39)) : read_len);
        b.reads.push_back(dpa_test::gatk_read(rng, hap, len));
    }
    b.group_reads.push_back(nreads);
    b.group_haps.push_back(nhaps);
}

Read uniform_read(const std::string &bases, uint8_t q, uint8_t ins, uint8_t del, uint8_t gcp)
{
    Read r;
    r.bases = bases;
    r.q.assign(bases.size(), q);
    r.ins.assign(bases.size(), ins);
    r.del.assign(bases.size(), del);
    r.gcp.assign(bases.size(), gcp);
    return r;
}

Read gatk_read(std::mt19937_64 &rng, const std::string &hap, int len)
{
    Read r;
    std::uniform_int_distribution<int> start(0, hap.size() > (size_t)len ? (int)(hap.size() - len) : 0);
    int s = start(rng);
    for (int i = 0; i < len; i++) {
        char c = (size_t)(s + i) < hap.size() ? hap[s + i] : "ACGT"[rng() % 4];
        if (rng() % 100 == 0) c = "ACGT"[rng() % 4];
        r.bases.push_back(c);
        r.q.push_back((uint8_t)(6 + rng() % 35));
        r.ins.push_back((uint8_t)(40 + rng() % 11));
        r.del.push_back((uint8_t)(40 + rng() % 11));
        r.gcp.push_back(10);
    }
    return r;
}

double reference_log10(const Read &r, const std::string &hap)
{
    typedef long double LD;
    const int m = (int)r.bases.size(), n = (int)hap.size();
    std::vector<std::vector<LD>> M(m + 1, std::vector<LD>(n + 1, 0)), I = M, D = M;
    const LD init = std::ldexp((LD)1, 1020);
    for (int j = 0; j <= n; j++) D[0][j] = init / n;
    auto err = [](int q) { return std::pow((LD)10, -(LD)q / 10); };
    for (int i = 1; i <= m; i++) {
        LD ei = err(r.ins[i - 1]), ed = err(r.del[i - 1]), eg = err(r.gcp[i - 1]), e = err(r.q[i - 1]);
        for (int j = 1; j <= n; j++) {
            char x = r.bases[i - 1], y = hap[j - 1];
            LD prior = (x == y || x == 'N' || y == 'N') ? 1 - e : e / 3;
            M[i][j] = prior * (M[i - 1][j - 1] * (1 - std::min((LD)1, ei + ed)) + (I[i - 1][j - 1] + D[i - 1][j - 1]) * (1 - eg));
            I[i][j] = M[i - 1][j] * ei + I[i - 1][j] * eg;
            D[i][j] = M[i][j - 1] * ed + D[i][j - 1] * eg;
        }
    }
    LD sum = 0;
    for (int j = 1; j <= n; j++) sum += M[m][j] + I[m][j];
    return (double)(std::log10(sum) - std::log10(init));
}

::testing::AssertionResult near_or_same_special(double got, double want, double tol)
{
    if (std::isnan(want) || std::isnan(got) || std::isinf(want) || std::isinf(got)) {
        if ((std::isnan(want) && std::isnan(got)) || got == want) return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure() << "got " << got << ", want exactly " << want;
    }
    if (std::fabs(got - want) <= tol) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << got << ", want " << want << " +- " << tol;
}

::testing::AssertionResult double_path_tiny(double got, double want, int m, int n)
{
    typedef long double LD;
    const LD log10_scale = 1020 * std::log10((LD)2);
    const LD exact = std::pow((LD)10, (LD)want + log10_scale);  // the scaled sum, exactly
    const LD err = ((LD)9 * (m + 1) * (n + 1) + n) * std::ldexp((LD)1, -1075) + exact * 1e-12L;
    const LD hi = std::log10(exact + err) - log10_scale;
    const bool may_be_zero = exact - err <= 0;
    const LD lo = may_be_zero ? -INFINITY : std::log10(exact - err) - log10_scale;
    if (std::isnan(got) || got > hi + 1e-9L || (got < lo - 1e-9L && !(may_be_zero && std::isinf(got))))
        return ::testing::AssertionFailure() << "got " << got << ", want in [" << (double)lo << ", "
                                             << (double)hi << "] (exact " << want << ", " << m << "x" << n << ")";
    return ::testing::AssertionSuccess();
}

}  // namespace dpa_test
