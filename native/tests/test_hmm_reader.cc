// test_hmm_reader.cc — the HMMER3/f reader's rejections: each names origin, line, model
// index and NAME, and the field; a rejected file returns nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

extern "C" {
#include "common/status.h"
#include "cpu/hmm/hmm_model.h"
}

namespace {

// A valid two-node model written by hand (probabilities in -ln space).
std::string model(const std::string &name = "tiny", int leng = 2, bool compo = true, bool stats = true,
                  const std::string &alph = "amino") {
    std::string emis = "";
    for (int i = 0; i < 20; i++) emis += " 2.99573";
    std::string s = "HMMER3/f [3.4 | Aug 2023]\nNAME  " + name + "\nLENG  " + std::to_string(leng) + "\nALPH  " + alph + "\n";
    if (stats) s += "STATS LOCAL MSV       -9.0  0.7\nSTATS LOCAL VITERBI   -9.5  0.7\nSTATS LOCAL FORWARD   -4.0  0.7\n";
    s += "HMM          A        C        D        E        F        G        H        I        K        L        M        N        P        Q        R        S        T        V        W        Y\n";
    s += "            m->m     m->i     m->d     i->m     i->i     d->m     d->d\n";
    if (compo) s += "  COMPO" + emis + "\n";
    s += "       " + emis + "\n          0.1 2.5 3.0 0.6 0.8 0.0 *\n";
    for (int k = 1; k <= 2; k++) {
        s += "      " + std::to_string(k) + emis + " " + std::to_string(k) + " a - - -\n";
        s += "       " + emis + "\n";
        s += k < 2 ? "          0.1 2.5 3.0 0.6 0.8 0.5 0.9\n" : "          0.1 2.5 * 0.6 0.8 0.0 *\n";
    }
    return s + "//\n";
}

std::string parse_error(const std::string &text) {
    dpa_hmm_model *m = reinterpret_cast<dpa_hmm_model *>(0x1);
    int32_t n = 7;
    dpa_status st = dpa_hmm_parse(text.data(), text.size(), "x.hmm", &m, &n);
    EXPECT_NE(st, DPA_OK);
    EXPECT_EQ(m, nullptr);
    EXPECT_EQ(n, 0);
    return st == DPA_OK ? "" : dpa_last_error();
}

TEST(HmmReader, ParsesTwoModels) {
    std::string t = model("a") + model("b");
    dpa_hmm_model *m = nullptr;
    int32_t n = 0;
    ASSERT_EQ(dpa_hmm_parse(t.data(), t.size(), "x.hmm", &m, &n), DPA_OK) << dpa_last_error();
    ASSERT_EQ(n, 2);
    EXPECT_STREQ(m[1].name, "b");
    EXPECT_EQ(m[0].M, 2);
    EXPECT_FLOAT_EQ(m[0].msv_mu, -9.0f);
    EXPECT_FLOAT_EQ(m[0].vit_mu, -9.5f);
    EXPECT_EQ(m[0].t[2 * DPA_HMM_NTRANS + DPA_HMM_T_MD], 0.0f); /* '*' */
    EXPECT_FLOAT_EQ(m[0].mat[1 * DPA_HMM_K + 0], std::exp(-2.99573f));
    dpa_hmm_models_free(m, n);
}

TEST(HmmReader, Rejections) {
    EXPECT_NE(parse_error(model("dna", 2, true, true, "DNA")).find("ALPH \"DNA\""), std::string::npos);
    std::string e = parse_error(model("nocompo", 2, false));
    EXPECT_NE(e.find("COMPO line missing"), std::string::npos) << e;
    EXPECT_NE(e.find("NAME \"nocompo\""), std::string::npos) << e;
    e = parse_error(model("nostats", 2, true, false));
    EXPECT_NE(e.find("STATS LOCAL MSV"), std::string::npos) << e;
    e = parse_error(model("short", 3));
    EXPECT_NE(e.find("after 2 nodes, LENG says 3"), std::string::npos) << e;
    std::string t = model("trunc");
    e = parse_error(t.substr(0, t.size() / 2));
    EXPECT_NE(e.find("x.hmm line"), std::string::npos) << e;
    t = model("bad");
    t.replace(t.find("2.99573 1 a"), 7, "2.9x573");
    e = parse_error(t);
    EXPECT_NE(e.find("match emission of node 1, field 20"), std::string::npos) << e;
    e = parse_error(model("ok") + model("leng0", 0));
    EXPECT_NE(e.find("model 1"), std::string::npos) << e;
    EXPECT_NE(e.find("LENG \"0\""), std::string::npos) << e;
    e = parse_error("HMMER3/b [3.0b2]\nNAME x\n");
    EXPECT_NE(e.find("only HMMER3/e and HMMER3/f"), std::string::npos) << e;
    e = parse_error("");
    EXPECT_NE(e.find("no HMMER3/f model"), std::string::npos) << e;
    e = parse_error(model("big", 100001));
    EXPECT_NE(e.find("[1, 100000]"), std::string::npos) << e;
}

TEST(HmmReader, ResidueCodes) {
    EXPECT_EQ(dpa_hmm_residue_code('A'), 0);
    EXPECT_EQ(dpa_hmm_residue_code('y'), 19);
    EXPECT_EQ(dpa_hmm_residue_code('B'), 21);
    EXPECT_EQ(dpa_hmm_residue_code('x'), 26);
    EXPECT_EQ(dpa_hmm_residue_code('*'), 27);
    EXPECT_EQ(dpa_hmm_residue_code('~'), 28);
    EXPECT_EQ(dpa_hmm_residue_code('-'), -1);
    EXPECT_EQ(dpa_hmm_residue_code('1'), -1);
    EXPECT_EQ(dpa_hmm_residue_code('.'), -1);
}

// Every byte against Easel's amino order string (esl_alphabet.c: "ACDEFGHIKLMNPQRSTVWY-BJZOUX*~",
// the gap '-' refused by our callers), upper and lower case letters alike.
TEST(HmmReader, ResidueCodeTableMatchesEaselOrderForEveryByte) {
    const std::string order = "ACDEFGHIKLMNPQRSTVWY-BJZOUX*~";
    for (int b = 0; b < 256; b++) {
        int want = -1;
        const int up = (b >= 'a' && b <= 'z') ? b - 'a' + 'A' : b;
        const size_t at = b == 0 ? std::string::npos : order.find((char)up);
        if (at != std::string::npos && up != '-') want = (int)at;
        EXPECT_EQ(dpa_hmm_residue_code((unsigned char)b), want) << "byte " << b;
    }
    const std::string seq = "ACDy*~BxU";
    std::vector<uint8_t> dsq(seq.size(), 0xff);
    int64_t bad = -7;
    ASSERT_EQ(dpa_hmm_digitize((const uint8_t *)seq.data(), (int64_t)seq.size(), dsq.data(), &bad), DPA_OK);
    EXPECT_EQ(bad, -7);
    const std::vector<uint8_t> want = { 0, 1, 2, 19, 27, 28, 21, 26, 25 };
    EXPECT_EQ(dsq, want);
    const std::string wrong = "ACD-EF1";
    ASSERT_EQ(dpa_hmm_digitize((const uint8_t *)wrong.data(), (int64_t)wrong.size(), nullptr, &bad),
              DPA_ERR_INVALID_ARG);
    EXPECT_EQ(bad, 3) << "the first offender";
}

// The check-only path of dpa_hmm_digitize (arithmetic, not the table) and the GPU's code map
// agree with the table for every byte, alone and inside a long run (the vectorised loop).
TEST(HmmReader, CheckOnlyAndCodeMapMatchTheTableForEveryByte) {
    uint8_t map[256];
    dpa_hmm_code_map(map);
    for (int b = 0; b < 256; b++) {
        const int code = dpa_hmm_residue_code((unsigned char)b);
        EXPECT_EQ(map[b], code >= 0 ? code : 0) << "byte " << b;
        for (int pos : { 0, 1, 31, 64, 199 }) {
            std::vector<uint8_t> seq(200, 'W');
            seq[pos] = (uint8_t)b;
            int64_t bad = -1;
            const dpa_status st = dpa_hmm_digitize(seq.data(), (int64_t)seq.size(), nullptr, &bad);
            EXPECT_EQ(st, code >= 0 ? DPA_OK : DPA_ERR_INVALID_ARG) << "byte " << b << " at " << pos;
            if (code < 0) EXPECT_EQ(bad, pos) << "byte " << b;
        }
    }
}

}  // namespace
