// test_papara_tool.cc — the native PaPaRa tool (native/bench/papara_tool.c, dpaccel_papara) and
// its output files: a run writes every file, and a run that fails while writing any of them
// leaves none (no best.tsv beside a missing alignment.phy), and removes only what it created.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "papara_gen.h"

namespace {

bool exists(const std::string &p)
{
    struct stat st;
    return stat(p.c_str(), &st) == 0;
}

struct ToolDir {
    std::string dir;
    ToolDir()
    {
        char tmpl[] = "/tmp/dpa_papara_tool_XXXXXX";
        if (mkdtemp(tmpl)) dir = tmpl;
        const ppg::Data d = ppg::generate(11, 6, 60, 8, true);
        std::ofstream(dir + "/tree.nwk", std::ios::binary) << d.newick;
        std::ofstream(dir + "/ref.phy", std::ios::binary) << d.phylip;
        std::ofstream(dir + "/reads.fa", std::ios::binary) << d.fasta;
    }
    ~ToolDir()
    {
        if (!dir.empty()) std::system(("rm -rf '" + dir + "'").c_str());
    }
    int run(const std::string &out, const std::string &extra = "") const
    {
        const std::string cmd = std::string("'") + DPA_PAPARA_TOOL + "' --tree '" + dir + "/tree.nwk' --ref '" + dir +
                                "/ref.phy' --reads '" + dir + "/reads.fa' --out '" + out + "' --backend cpu " + extra +
                                " 2>/dev/null";
        const int rc = std::system(cmd.c_str());
        return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    }
};

TEST(PaparaTool, WritesEveryFileOrNone)
{
    if (const char *emu = std::getenv("DPA_TEST_EMULATOR"))
        GTEST_SKIP() << "runs under " << emu << ": the cross-built tool cannot be executed from here";
    ToolDir t;
    ASSERT_FALSE(t.dir.empty());
    const std::string ok = t.dir + "/ok";
    ASSERT_EQ(mkdir(ok.c_str(), 0755), 0);
    ASSERT_EQ(t.run(ok, "--scores --profiles"), 0);
    for (const char *f : { "best.tsv", "alignment.phy", "scores.tsv", "profiles.tsv" }) {
        EXPECT_TRUE(exists(ok + "/" + f)) << f;
        EXPECT_FALSE(exists(ok + "/" + f + ".partial")) << f;
    }
    // each output in turn cannot be created (a directory holds its temporary name): the run
    // fails, and none of the files before it is left, finished or partial
    const char *names[] = { "best.tsv", "alignment.phy", "scores.tsv", "profiles.tsv" };
    for (int block = 0; block < 4; block++) {
        SCOPED_TRACE(std::string("blocked: ") + names[block]);
        const std::string out = t.dir + "/fail" + std::to_string(block);
        ASSERT_EQ(mkdir(out.c_str(), 0755), 0);
        const std::string blocker = out + "/" + names[block] + ".partial";
        ASSERT_EQ(mkdir(blocker.c_str(), 0755), 0);
        EXPECT_EQ(t.run(out, "--scores --profiles"), 1);
        for (const char *f : names) {
            EXPECT_FALSE(exists(out + "/" + f)) << f;
            if (std::string(f) != names[block]) EXPECT_FALSE(exists(out + "/" + f + ".partial")) << f;
        }
        EXPECT_TRUE(exists(blocker)) << "the tool removed a directory it did not create";
    }
}

}  // namespace
