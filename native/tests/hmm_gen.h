// hmm_gen.h — seeded random protein profile HMMs written as HMMER3/f text (random emission
// and transition distributions, plausible STATS) and targets sampled from their match
// states with background flanks, for the hmm-filter API and SIMD tests.
#ifndef DPA_TESTS_HMM_GEN_H
#define DPA_TESTS_HMM_GEN_H

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace hmmgen {

constexpr char AA[] = "ACDEFGHIKLMNPQRSTVWY";

struct RandModel {
    std::string text;
    std::vector<std::vector<double>> mat; // 1..M
};

inline std::string fmt_prob(double p) {
    if (p <= 0) return "*";
    char b[32];
    std::snprintf(b, sizeof b, "%.5f", -std::log(p));
    return b;
}

inline std::vector<double> rand_dist(std::mt19937_64 &rng, int n, double peak) {
    std::uniform_real_distribution<double> u(0.01, 1.0);
    std::vector<double> v(n);
    double s = 0;
    for (double &x : v) s += (x = u(rng));
    v[rng() % n] += peak * s;
    s = 0;
    for (double x : v) s += x;
    for (double &x : v) x /= s;
    return v;
}

inline RandModel rand_model(std::mt19937_64 &rng, int idx, int M) {
    RandModel r;
    std::string t = "HMMER3/f [3.4 | Aug 2023]\nNAME  rand" + std::to_string(idx) + "\nLENG  " + std::to_string(M) +
                    "\nALPH  amino\nCONS  yes\n";
    std::uniform_real_distribution<double> mu(-10.0, -7.0), lam(0.65, 0.75);
    char b[128];
    double m = mu(rng), l = lam(rng);
    std::snprintf(b, sizeof b, "STATS LOCAL MSV      %8.4f %8.5f\nSTATS LOCAL VITERBI  %8.4f %8.5f\n", m, l,
                  m - 0.3, l);
    t += b;
    t += "STATS LOCAL FORWARD  -4.0 0.7\nHMM  A C D E F G H I K L M N P Q R S T V W Y\n  m->m m->i m->d i->m i->i d->m d->d\n";
    auto line20 = [&](const std::vector<double> &v) {
        std::string s;
        for (double x : v) s += " " + fmt_prob(x);
        return s;
    };
    t += "  COMPO" + line20(rand_dist(rng, 20, 0.5)) + "\n";
    t += "  " + line20(rand_dist(rng, 20, 0.0)) + "\n";
    auto trans = [&](int k) {
        std::vector<double> mm = rand_dist(rng, 3, 4.0), im = rand_dist(rng, 2, 0.5), dm = rand_dist(rng, 2, 0.5);
        if (k == M) { mm = {mm[0] + mm[2], mm[1], 0.0}; dm = {1.0, 0.0}; }
        if (k == 0) dm = {1.0, 0.0};
        std::vector<double> all = {mm[0], mm[1], mm[2], im[0], im[1], dm[0], dm[1]};
        std::string s = "  ";
        for (double x : all) s += " " + fmt_prob(x);
        return s + "\n";
    };
    t += trans(0);
    r.mat.resize(M + 1);
    for (int k = 1; k <= M; k++) {
        r.mat[k] = rand_dist(rng, 20, (rng() % 4) * 1.5);
        t += "  " + std::to_string(k) + line20(r.mat[k]) + " " + std::to_string(k) + " a - - -\n";
        t += "  " + line20(rand_dist(rng, 20, 0.0)) + "\n";
        t += trans(k);
    }
    r.text = t + "//\n";
    return r;
}

inline std::string sample_seq(std::mt19937_64 &rng, const RandModel &m) {
    std::string s;
    int flank = (int)(rng() % 300);
    for (int i = 0; i < flank; i++) s += AA[rng() % 20];
    size_t M = m.mat.size() - 1;
    size_t a = rng() % M, e = a + 1 + rng() % (M - a);
    for (size_t k = a + 1; k <= e; k++) {
        std::discrete_distribution<int> d(m.mat[k].begin(), m.mat[k].end());
        s += AA[d(rng)];
    }
    for (int i = 0; i < flank; i++) s += AA[rng() % 20];
    return s;
}

}  // namespace hmmgen

#endif
