// warp_emulator.cc — a CPU emulation of kernels/src/hmm_filter_kernels.cu's warp algorithms
// (32 lanes stepped in lockstep, shuffles as array reads), checked against the scalar
// reference on random models and targets. It exists because the CUDA kernels were written on
// a machine without a GPU: it checks the algorithm (diagonal ring slots, the k-1 carries
// across blocks, the max-plus D->D scan, the early SSV exit), not the CUDA code itself; the
// GPU tests (kernels/tests/test_cuda_hmm_filter.cc) check that. Keep the two in step.
//
// Build and run (from a CPU build dir, e.g. build/cpu):
//   g++ -O2 -std=c++17 -I../../native/include -I../../native/src -I../../native/tests \
//       ../../tools/hmm/warp_emulator.cc native/libdpaccel_core.a -lm -lpthread -ldl -o warp_emulator
//   ./warp_emulator [SEED] [ROUNDS]
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dpaccel.h"
#include "hmm_gen.h"
extern "C" {
#include "cpu/hmm/hmm_filter.h"
#include "cpu/hmm/hmm_profiles.h"
}

namespace {

const int NEG = -32768;
long g_dd_rows = 0, g_dd_changed = 0;
int adds16(int a, int b) { return std::min(32767, std::max(-32768, a + b)); }

int emu_ssv(const dpa_hmm_profile &p, const uint8_t *dsq, int L) {
    const int M = p.M, S = M + 1, bias = p.bias_b;
    std::vector<uint8_t> row(S, 0);
    int maxT[32] = {0};
    int off = 0;
    for (int i = 1; i <= L; i++) {
        off = off == 0 ? S - 1 : off - 1;
        const uint8_t *rs = p.rb + (size_t)dsq[i - 1] * S;
        for (int lane = 0; lane < 32; lane++)
            for (int k = lane + 1; k <= M; k += 32) {
                int slot = k + off;
                if (slot >= S) slot -= S;
                const int prev = k == 1 ? 0 : row[slot];
                int v = prev + bias - (int)rs[k];
                v = std::max(v, 0);
                maxT[lane] = std::max(maxT[lane], v);
                row[slot] = (uint8_t)std::min(v, 127);
            }
        bool any = false;
        for (int lane = 0; lane < 32; lane++) any |= maxT[lane] >= 127;
        if (any) break;
    }
    int m = 0;
    for (int lane = 0; lane < 32; lane++) m = std::max(m, maxT[lane]);
    return m >= 127 ? 255 : 128 + m;
}

int emu_msv(const dpa_hmm_profile &p, const uint8_t *dsq, int L, int tjb) {
    const int M = p.M, S = M + 1, bias = p.bias_b, base = p.base_b, tec = p.tec_b;
    const int tjbm = (tjb + p.tbm_b) & 0xff;
    std::vector<uint8_t> row(S, 0);
    int xJ = 0, xB = std::max(base - tjbm, 0);
    int off = 0;
    for (int i = 1; i <= L; i++) {
        off = off == 0 ? S - 1 : off - 1;
        const uint8_t *rs = p.rb + (size_t)dsq[i - 1] * S;
        int xEl[32];
        for (int lane = 0; lane < 32; lane++) {
            int xE = 0;
            for (int k = lane + 1; k <= M; k += 32) {
                int slot = k + off;
                if (slot >= S) slot -= S;
                const int prev = k == 1 ? 0 : row[slot];
                const int m = std::max(prev, xB);
                const int sv = std::max(std::min(m + bias, 255) - (int)rs[k], 0);
                xE = std::max(xE, sv);
                row[slot] = (uint8_t)sv;
            }
            xEl[lane] = xE;
        }
        int xE = *std::max_element(xEl, xEl + 32);
        if (xE + bias >= 255) return -1;
        xE = std::max(xE - tec, 0);
        xJ = std::max(xJ, xE);
        xB = std::max(std::max(xJ, base) - tjbm, 0);
    }
    return xJ;
}

int emu_vit(const dpa_hmm_profile &p, const uint8_t *dsq, int L, int xw_move) {
    const int M = p.M, cols = M + 1, Mpad = (M + 31) / 32 * 32;
    const int16_t *tw = p.tw;
    std::vector<int16_t> Mr(Mpad, NEG), Ir(Mpad, NEG), Dr(Mpad, NEG);
    const int xN = p.base_w;
    int xB = (int16_t)(xN + xw_move), xJ = NEG, xC = NEG;
    for (int i = 1; i <= L; i++) {
        const int16_t *rs = p.rw + (size_t)dsq[i - 1] * cols;
        int cM = NEG, cI = NEG, cD = NEG, cDc = NEG;
        int xE = NEG, Dmax = NEG;
        for (int j = 0; j < Mpad; j += 32) {
            int oM[32], oI[32], oD[32], dc[32], sv[32], nI[32];
            for (int lane = 0; lane < 32; lane++) {
                const int k = j + lane + 1;
                const bool valid = k <= M;
                oM[lane] = valid ? Mr[j + lane] : NEG;
                oI[lane] = valid ? Ir[j + lane] : NEG;
                oD[lane] = valid ? Dr[j + lane] : NEG;
            }
            const int tM = oM[31], tI = oI[31], tD = oD[31];
            for (int lane = 0; lane < 32; lane++) {
                const int k = j + lane + 1;
                const bool valid = k <= M;
                const int pM = lane ? oM[lane - 1] : cM, pI = lane ? oI[lane - 1] : cI, pD = lane ? oD[lane - 1] : cD;
                sv[lane] = dc[lane] = nI[lane] = NEG;
                if (valid) {
                    const int16_t *w = tw + (size_t)k * 8;
                    int s = adds16(xB, w[0]);
                    s = std::max(s, adds16(pM, w[1]));
                    s = std::max(s, adds16(pI, w[2]));
                    s = std::max(s, adds16(pD, w[3]));
                    s = adds16(s, rs[k]);
                    sv[lane] = s;
                    dc[lane] = adds16(s, w[4]);
                    nI[lane] = std::max(adds16(oM[lane], w[5]), adds16(oI[lane], w[6]));
                    xE = std::max(xE, s);
                    Dmax = std::max(Dmax, dc[lane]);
                }
            }
            cM = tM;
            cI = tI;
            cD = tD;
            for (int lane = 0; lane < 32; lane++) {
                const int k = j + lane + 1;
                const int din = lane ? dc[lane - 1] : cDc;
                if (k <= M) {
                    Mr[j + lane] = (int16_t)sv[lane];
                    Ir[j + lane] = (int16_t)nI[lane];
                    Dr[j + lane] = (int16_t)din;
                }
            }
            cDc = dc[31];
        }
        if (xE >= 32767) return 32768;
        xC = (int16_t)std::max(xC, xE + p.xw_e_move);
        xJ = (int16_t)std::max(xJ, xE + p.xw_e_loop);
        xB = (int16_t)std::max(xJ + xw_move, xN + xw_move);
        if (Dmax + p.ddbound_w > xB) {
            g_dd_rows++;
            int carry = NEG;
            for (int j = 0; j < Mpad; j += 32) {
                int a[32], t[32];
                for (int lane = 0; lane < 32; lane++) {
                    const int k = j + lane + 1;
                    const bool valid = k <= M;
                    a[lane] = valid ? Dr[j + lane] : NEG;
                    t[lane] = valid && k >= 2 ? tw[(size_t)(k - 1) * 8 + 7] : -65536;
                }
                for (int o = 1; o < 32; o <<= 1) {
                    int la[32], lt[32];
                    for (int lane = 0; lane < 32; lane++) {
                        la[lane] = lane >= o ? a[lane - o] : a[lane];
                        lt[lane] = lane >= o ? t[lane - o] : t[lane];
                    }
                    for (int lane = 0; lane < 32; lane++)
                        if (lane >= o) {
                            a[lane] = std::max(a[lane], la[lane] + t[lane]);
                            t[lane] = std::max(lt[lane] + t[lane], -65536);
                        }
                }
                int nd[32];
                for (int lane = 0; lane < 32; lane++) {
                    nd[lane] = std::max(a[lane], carry + t[lane]);
                    if (j + lane + 1 <= M) {
                        g_dd_changed += Dr[j + lane] != nd[lane];
                        Dr[j + lane] = (int16_t)nd[lane];
                    }
                }
                carry = nd[31];
            }
        }
    }
    return xC;
}

// hf_ssv_reg: the row in registers v[j][lane] (node 32 j + lane + 1), blocks from J-1 down
// to 0, one rotating shuffle a block (lane 31 offers block j-1, every other lane block j; lane
// z reads lane (z + 31) mod 32), values not capped at 127, the overflow vote every 8 rows.
// The packed SSV (hf_ssv_dpx): node index x = k - 1 striped over Q = ceil(M / 64) words of
// 64 int16 positions (lane z holds positions 2z, 2z + 1), x = position * Q + word. Halves
// wrap like the hardware's 16-bit adds; padding nodes score -16384.
int16_t wrap16(int x) { return (int16_t)(uint16_t)(x & 0xffff); }
int emu_ssv_dpx(const dpa_hmm_profile &p, const uint8_t *dsq, int L) {
    const int M = p.M, S = M + 1, bias = p.bias_b, Q = (M + 63) / 64;
    std::vector<std::array<int16_t, 64>> v(Q);
    for (auto &b : v) b.fill(0);
    int16_t mx[64] = {0};
    for (int i = 1; i <= L; i++) {
        const uint8_t *rs = p.rb + (size_t)dsq[i - 1] * S;
        auto sc = [&](int q, int pos) {
            const int x = pos * Q + q;
            return x < M ? bias - (int)rs[x + 1] : -16384;
        };
        std::array<int16_t, 64> sh;
        sh[0] = 0;
        for (int pos = 1; pos < 64; pos++) sh[pos] = v[Q - 1][pos - 1];
        for (int q = Q - 1; q >= 0; q--) {
            const std::array<int16_t, 64> &src = q > 0 ? v[q - 1] : sh;
            std::array<int16_t, 64> nv;
            for (int pos = 0; pos < 64; pos++) nv[pos] = std::max<int16_t>(wrap16(src[pos] + sc(q, pos)), 0);
            v[q] = nv;
            for (int pos = 0; pos < 64; pos++) mx[pos] = std::max(mx[pos], v[q][pos]);
        }
        if ((i & 7) == 0) {
            bool any = false;
            for (int pos = 0; pos < 64; pos++) any |= mx[pos] >= 127;
            if (any) break;
        }
    }
    int m = 0;
    for (int pos = 0; pos < 64; pos++) m = std::max(m, (int)mx[pos]);
    return m >= 127 ? 255 : 128 + m;
}

int emu_ssv_reg(const dpa_hmm_profile &p, const uint8_t *dsq, int L) {
    const int M = p.M, S = M + 1, bias = p.bias_b, J = (M + 31) / 32;
    std::vector<std::array<int, 32>> v(J);
    for (auto &b : v) b.fill(0);
    int maxT[32] = {0};
    for (int i = 1; i <= L; i++) {
        const uint8_t *rs = p.rb + (size_t)dsq[i - 1] * S;
        for (int j = J - 1; j >= 0; j--) {
            int offer[32], prev[32];
            for (int lane = 0; lane < 32; lane++)
                offer[lane] = lane == 31 ? (j > 0 ? v[j - 1][lane] : 0) : v[j][lane];
            for (int lane = 0; lane < 32; lane++) prev[lane] = offer[(lane + 31) & 31];
            if (j == 0) prev[0] = 0;
            for (int lane = 0; lane < 32; lane++) {
                const int k = 32 * j + lane + 1;
                if (k <= M) {
                    const int x = std::max(prev[lane] + bias - (int)rs[k], 0);
                    maxT[lane] = std::max(maxT[lane], x);
                    v[j][lane] = x;
                }
            }
        }
        if ((i & 7) == 0) {
            bool any = false;
            for (int lane = 0; lane < 32; lane++) any |= maxT[lane] >= 127;
            if (any) break;
        }
    }
    int m = 0;
    for (int lane = 0; lane < 32; lane++) m = std::max(m, maxT[lane]);
    return m >= 127 ? 255 : 128 + m;
}

}  // namespace

int main(int argc, char **argv) {
    const uint64_t seed = argc > 1 ? strtoull(argv[1], nullptr, 10) : std::random_device{}();
    const int rounds = argc > 2 ? atoi(argv[2]) : 3;
    std::printf("warp emulator: seed %llu\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    long pairs = 0, bad = 0, ssv_over = 0, msv_over = 0, vit_over = 0, vit_dd_rows = 0;
    const int Ms[] = {1, 2, 3, 31, 32, 33, 63, 64, 65, 100, 257, 400, 511, 512, 700, 1100, 2100};
    for (int r = 0; r < rounds; r++) {
        std::vector<hmmgen::RandModel> models;
        std::string text;
        for (int i = 0; i < (int)(sizeof Ms / sizeof *Ms); i++) {
            models.push_back(hmmgen::rand_model(rng, i, Ms[i]));
            text += models.back().text;
        }
        dpa_hmm_profiles *prof = nullptr;
        if (dpa_hmm_profiles_load_buffer(text.data(), text.size(), &prof) != DPA_OK) {
            std::printf("load: %s\n", dpa_last_error());
            return 2;
        }
        std::vector<std::string> seqs = {"A", "W", "X", "*", "acdefghikl", "BJZOUXbjzoux~*"};
        for (int s = 0; s < 24; s++) {
            std::string q;
            const int kind = s % 4;
            if (kind == 0) {
                for (int i = 0, n = 1 + (int)(rng() % 3000); i < n; i++) q += hmmgen::AA[rng() % 20];
            } else if (kind == 1) {
                q = hmmgen::sample_seq(rng, models[rng() % models.size()]);
            } else if (kind == 2) { /* repeats of one model's sample: overflows MSV and often Viterbi */
                const auto &m = models[6 + rng() % (models.size() - 6)];
                while (q.size() < 2000) q += hmmgen::sample_seq(rng, m);
            } else {
                q = hmmgen::sample_seq(rng, models[rng() % models.size()]);
                for (char &c : q)
                    if (rng() % 5 == 0) c = (char)std::tolower((unsigned char)c);
                    else if (rng() % 40 == 0) c = "BJZOUX*~"[rng() % 8];
            }
            seqs.push_back(q);
        }
        std::vector<uint8_t> work(dpa_hmm_work_bytes(3000));
        for (int mi = 0; mi < prof->count; mi++) {
            const dpa_hmm_profile &p = prof->prof[mi];
            work.resize(dpa_hmm_work_bytes(p.M));
            for (const std::string &q : seqs) {
                std::vector<uint8_t> dsq(q.size());
                for (size_t i = 0; i < q.size(); i++) dsq[i] = (uint8_t)dpa_hmm_residue_code((unsigned char)q[i]);
                const int L = (int)q.size();
                dpa_hmm_len_params lp;
                dpa_hmm_len_params_init(L, &lp);
                pairs++;
                const int xe_ref = dpa_hmm_ssv_xe_ref(&p, dsq.data(), L, work.data());
                const int xe = emu_ssv(p, dsq.data(), L);
                ssv_over += xe == 255;
                if (xe != xe_ref) {
                    if (bad++ < 10) std::printf("SSV M=%d L=%d: emu %d ref %d\n", p.M, L, xe, xe_ref);
                }
                const int xer = emu_ssv_reg(p, dsq.data(), L);
                if (xer != xe_ref) {
                    if (bad++ < 10) std::printf("SSV(reg) M=%d L=%d: emu %d ref %d\n", p.M, L, xer, xe_ref);
                }
                const int xed = emu_ssv_dpx(p, dsq.data(), L);
                if (xed != xe_ref) {
                    if (bad++ < 10) std::printf("SSV(dpx) M=%d L=%d: emu %d ref %d\n", p.M, L, xed, xe_ref);
                }
                const float msv_ref = dpa_hmm_msv_full_ref(&p, &lp, dsq.data(), work.data());
                const int xj = emu_msv(p, dsq.data(), L, lp.tjb_b);
                msv_over += xj < 0;
                const float msv = xj < 0 ? INFINITY : dpa_hmm_msv_score(&p, &lp, xj);
                if (std::memcmp(&msv, &msv_ref, 4) != 0) {
                    if (bad++ < 10) std::printf("MSV M=%d L=%d: emu %.9g ref %.9g\n", p.M, L, msv, msv_ref);
                }
                const float vit_ref = dpa_hmm_vit_ref(&p, &lp, dsq.data(), work.data());
                const int xc = emu_vit(p, dsq.data(), L, lp.xw_move);
                vit_over += xc > 32767;
                const float vit = xc > 32767 ? INFINITY : dpa_hmm_vit_score(&p, &lp, xc);
                if (std::memcmp(&vit, &vit_ref, 4) != 0) {
                    if (bad++ < 10) std::printf("VIT M=%d L=%d: emu %.9g ref %.9g\n", p.M, L, vit, vit_ref);
                }
            }
        }
        dpa_hmm_profiles_free(prof);
    }
    (void)vit_dd_rows;
    std::printf("pairs %ld, mismatches %ld; overflows: SSV %ld, MSV %ld, Viterbi %ld; D->D scan rows %ld, "
                "D cells it raised %ld\n", pairs, bad, ssv_over, msv_over, vit_over, g_dd_rows, g_dd_changed);
    return bad ? 1 : 0;
}
