// papara_gen_main.cc — dpa_papara_gen: writes seeded PaPaRa inputs (papara_gen.h) for the
// bench and for oracle runs by hand.
//   dpa_papara_gen DIR SEED TAXA COLUMNS READS [rooted 0|1] [read_min read_max]
// writes DIR/tree.nwk, DIR/ref.phy, DIR/reads.fa.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "papara_gen.h"

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: %s DIR SEED TAXA COLUMNS READS [rooted] [read_min read_max]\n", argv[0]);
        return 2;
    }
    const std::string dir = argv[1];
    const int rmin = argc > 8 ? atoi(argv[7]) : 20, rmax = argc > 8 ? atoi(argv[8]) : 150;
    const ppg::Data d = ppg::generate(strtoull(argv[2], nullptr, 10), atoi(argv[3]), atoi(argv[4]),
                                      atoi(argv[5]), argc > 6 && atoi(argv[6]) != 0, 2, rmin, rmax);
    std::ofstream(dir + "/tree.nwk") << d.newick;
    std::ofstream(dir + "/ref.phy") << d.phylip;
    std::ofstream(dir + "/reads.fa") << d.fasta;
    return 0;
}
