// xdrop_bench — one-thread X-drop speed, each CPU kernel beside SeqAn (the oracle program
// timing the same seeds in the same run), on the generated long-read data of the tests.
// Cells = SeqAn's inner-loop cells (sum over anti-diagonals of maxCol - minCol), counted by
// our sweep, which visits exactly SeqAn's band; every kernel's results are checked against
// SeqAn's before a number is printed.
//
//   build/x/native/tests/xdrop_bench [X=100] [PAIRS=60] [REPEAT=3] [SEED=7]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "xdrop_gen.h"

extern "C" {
#include "cpu/xdrop/xdrop.h"
}

namespace {

struct Kernel {
    const char *name;
    dpa_xdrop_kernel_fn fn;
    bool ok;
};

double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

int main(int argc, char **argv)
{
    const int x = argc > 1 ? std::atoi(argv[1]) : 100;
    const int pairs = argc > 2 ? std::atoi(argv[2]) : 60;
    const int repeat = argc > 3 ? std::atoi(argv[3]) : 3;
    const uint64_t seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 7;
    const dpa_xdrop_params p = xd::params(1, -1, -1, x);
    const std::vector<xd::Case> cs = xd::long_read_cases(seed, pairs, 4);
    xd::Batch b(cs);
    const dpa_xdrop_batch v = b.view();
    if (dpa_xdrop_validate(&v, &p) != DPA_OK) {
        std::fprintf(stderr, "bad batch: %s\n", dpa_last_error());
        return 1;
    }

    // SeqAn, timed by the oracle itself (extension loop only)
    std::vector<xd::Result> want;
    double seqan_s = -1;
    const std::string in = xd::oracle_path() ? xd::oracle_input(cs, p) : "";
    if (!in.empty()) {
        const std::string err = in + ".err";
        const std::string cmd = std::string(xd::oracle_path()) + " --time --repeat " +
                                std::to_string(repeat) + " < " + in + " 2> " + err;
        FILE *pipe = popen(cmd.c_str(), "r");
        xd::Result r;
        while (pipe && std::fscanf(pipe, "%ld %ld %ld %ld %ld %ld %ld", &r.score, &r.qbeg, &r.qend,
                           &r.tbeg, &r.tend, &r.left, &r.right) == 7)
            want.push_back(r);
        if (pipe) pclose(pipe);
        FILE *e = std::fopen(err.c_str(), "r");
        if (e && std::fscanf(e, "seqan: %*zu seeds x %*d repeats: %lf s", &seqan_s) != 1) seqan_s = -1;
        if (e) std::fclose(e);
        std::remove(in.c_str());
        std::remove(err.c_str());
    }

    std::vector<Kernel> ks = { { "scalar", dpa_xdrop_compute_scalar, true } };
#ifdef DPA_HAVE_AVX2
    ks.push_back({ "avx2", dpa_xdrop_compute_avx2, __builtin_cpu_supports("avx2") != 0 });
#endif
#ifdef DPA_HAVE_AVX512
    ks.push_back({ "avx512", dpa_xdrop_compute_avx512,
                   __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") });
#endif
    const size_t n = cs.size();
    std::vector<int32_t> pairs_idx(n);
    for (size_t i = 0; i < n; i++) pairs_idx[i] = (int32_t)i;
    std::printf("%zu seeds (X %d, +1/-1/-1, seed %llu), %d repeats, one thread\n", n, x,
                (unsigned long long)seed, repeat);
    int64_t cells = 0;
    for (const Kernel &k : ks) {
        if (!k.ok) continue;
        std::vector<int32_t> o[7];
        for (auto &a : o) a.assign(n, 0);
        const dpa_xdrop_output out = { o[0].data(), o[1].data(), o[2].data(), o[3].data(),
                                       o[4].data(), o[5].data(), o[6].data() };
        /* the mean of the repeats, as the oracle times SeqAn */
        double total = 0;
        for (int r = 0; r < repeat; r++) {
            cells = 0;
            const double t0 = now();
            if (k.fn(&v, &p, pairs_idx.data(), (int64_t)n, &out, &cells) != DPA_OK) return 1;
            total += now() - t0;
        }
        const double best = total / repeat;
        size_t bad = 0;
        for (size_t i = 0; i < want.size() && i < n; i++) {
            const xd::Result g = { o[0][i], o[1][i], o[2][i], o[3][i], o[4][i], o[5][i], o[6][i] };
            bad += !(g == want[i]);
        }
        std::printf("%-7s %9.4f s  %7.3f GCUPS  %s\n", k.name, best, (double)cells / best / 1e9,
                    want.empty() ? "(no SeqAn: unchecked)" : bad ? "DIFFERS FROM SEQAN" : "= SeqAn");
        if (bad) return 1;
    }
    if (seqan_s > 0)
        std::printf("%-7s %9.4f s  %7.3f GCUPS  (the oracle's own loop)\n", "seqan",
                    seqan_s / repeat, (double)cells * repeat / seqan_s / 1e9);
    std::printf("cells %lld\n", (long long)cells);
    return 0;
}
