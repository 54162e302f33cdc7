// pdhmm_bench.cc — PDHMM speed per backend through dpa_pdhmm_compute, on generated
// GATK-shaped pairs (pdhmm_gen.h: reads of 100-150 bases, haplotypes of 250-450, a deletion or
// SNP allele marked here and there), every result compared bit for bit with the first
// backend's. A program, not a test.
//
//   pdhmm_bench PAIRS [REPS [BACKENDS]]      BACKENDS: comma list of cpu,gpu,hybrid (cpu,gpu)
//
// The CPU runs on every host core at its best ISA; DPACCEL_PDHMM_CUDA_THREAD=1 times the first
// CUDA kernel instead of the warp kernel.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "pdhmm_gen.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: pdhmm_bench PAIRS [REPS [BACKENDS]]\n");
        return 2;
    }
    const int n = std::atoi(argv[1]), reps = argc > 2 ? std::atoi(argv[2]) : 3;
    const std::string list = argc > 3 ? argv[3] : "cpu,gpu";
    std::mt19937_64 rng(20261129);
    std::vector<pdg::Case> cs;
    for (int k = 0; k < n; k++)
        cs.push_back(pdg::gatk_case(rng, std::uniform_int_distribution<int>(250, 450)(rng),
                                    std::uniform_int_distribution<int>(100, 150)(rng), false));
    pdg::Batch b(cs);
    const dpa_pdhmm_batch v = b.view();
    double cells = 0;
    for (const auto &c : cs) cells += (double)c.hap.size() * (double)c.read.size();
    dpa_context *ctx = nullptr;
    dpa_options o;
    dpa_options_init(&o);
    const char *tv = std::getenv("DPACCEL_TIMING"), *cv = std::getenv("DPACCEL_CUDA_TIMING");
    if ((tv && *tv && *tv != '0') || (cv && *cv && *cv != '0'))
        o.log_fn = [](void *, dpa_log_level, const char *m) { std::fprintf(stderr, "%s\n", m); };
    if (dpa_context_create(&o, &ctx) != DPA_OK) {
        std::fprintf(stderr, "%s\n", dpa_last_error());
        return 1;
    }
    std::printf("%d pairs, %.3g cells\n", n, cells);
    std::vector<double> first;
    std::stringstream ss(list);
    std::string name;
    int bad = 0;
    while (std::getline(ss, name, ',')) {
        dpa_pdhmm_params p;
        dpa_pdhmm_params_init(&p);
        p.backend = name == "gpu" ? DPA_BACKEND_GPU : name == "hybrid" ? DPA_BACKEND_HYBRID : DPA_BACKEND_CPU;
        std::vector<double> out(cs.size());
        double best = 1e30;
        for (int r = 0; r < reps + 1; r++) { // one warm-up
            const auto t0 = std::chrono::steady_clock::now();
            if (dpa_pdhmm_compute(ctx, &v, &p, out.data(), (int64_t)out.size(), nullptr) != DPA_OK) {
                std::fprintf(stderr, "%s: %s\n", name.c_str(), dpa_last_error());
                return 1;
            }
            const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (r > 0 && t < best) best = t;
        }
        if (first.empty()) first = out;
        else if (std::memcmp(first.data(), out.data(), sizeof(double) * out.size()) != 0) {
            std::fprintf(stderr, "%s: results differ from the first backend's\n", name.c_str());
            bad = 1;
        }
        std::printf("%-7s %.3f s, %.2f G cells/s\n", name.c_str(), best, cells / best * 1e-9);
    }
    dpa_context_destroy(ctx);
    return bad;
}
