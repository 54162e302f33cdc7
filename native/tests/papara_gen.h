// papara_gen.h — seeded PaPaRa inputs for the tests and the bench: a random binary tree
// (exponential branch lengths, some lengths missing, rooted or not), an alignment evolved
// down it column by column (substitutions, deletions inherited by a subtree, insertions
// confined to one, a few N / ? / lower-case characters and all-gap columns), extra
// alignment rows not in the tree, and reads cut from the taxa with ~1% substitutions,
// small indels, N and IUPAC codes.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace ppg {

struct Data {
    std::string newick, phylip, fasta;
    int taxa = 0, columns = 0, reads = 0;
};

struct Node {
    int parent = -1;
    double len = 0;
    std::vector<int> kids;
    int taxon = -1;
};

struct Gen {
    std::mt19937_64 rng;
    std::vector<Node> nodes;
    explicit Gen(uint64_t seed) : rng(seed) {}
    double u() { return std::uniform_real_distribution<double>(0, 1)(rng); }
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }

    int add(int parent)
    {
        nodes.push_back(Node());
        nodes.back().parent = parent;
        nodes.back().len = std::exponential_distribution<double>(10.0)(rng);
        if (parent >= 0) nodes[parent].kids.push_back((int)nodes.size() - 1);
        return (int)nodes.size() - 1;
    }
    // random split of taxa [lo, hi) below node v
    void grow(int v, std::vector<int> taxa)
    {
        if (taxa.size() == 1) {
            nodes[v].taxon = taxa[0];
            return;
        }
        const int cut = 1 + pick((int)taxa.size() - 1);
        std::vector<int> a(taxa.begin(), taxa.begin() + cut), b(taxa.begin() + cut, taxa.end());
        grow(add(v), a);
        grow(add(v), b);
    }
    std::string nwk(int v)
    {
        std::string s;
        if (nodes[v].taxon >= 0) {
            s = "t" + std::to_string(nodes[v].taxon);
        } else {
            s = "(";
            for (size_t k = 0; k < nodes[v].kids.size(); k++) s += (k ? "," : "") + nwk(nodes[v].kids[k]);
            s += ")";
        }
        if (nodes[v].parent >= 0 && u() > 0.1) {
            char b[32];
            snprintf(b, sizeof b, ":%.6g", nodes[v].len);
            s += b;
        }
        return s;
    }
};

inline char iupac(std::mt19937_64 &rng)
{
    static const char c[] = "MRWSYKVHDB";
    return c[std::uniform_int_distribution<int>(0, 9)(rng)];
}

// taxa >= 3; extra_rows alignment rows outside the tree (PaPaRa scores them as reads).
inline Data generate(uint64_t seed, int taxa, int columns, int nreads, bool rooted,
                     int extra_rows = 2, int rmin = 20, int rmax = 150)
{
    Gen g(seed);
    Data d;
    d.taxa = taxa;
    const int total = taxa + extra_rows;
    std::vector<int> order(total);
    for (int i = 0; i < total; i++) order[i] = i;
    std::shuffle(order.begin(), order.end(), g.rng);
    const int root = g.add(-1);
    std::vector<int> intree(order.begin(), order.begin() + taxa);
    if (rooted) {
        g.grow(root, intree);
    } else {
        const int c1 = 1 + g.pick(taxa - 2), c2 = c1 + 1 + g.pick(taxa - c1 - 1);
        g.grow(g.add(root), std::vector<int>(intree.begin(), intree.begin() + c1));
        g.grow(g.add(root), std::vector<int>(intree.begin() + c1, intree.begin() + c2));
        g.grow(g.add(root), std::vector<int>(intree.begin() + c2, intree.end()));
    }
    d.newick = g.nwk(root) + ";\n";
    // rows of the tree taxa by evolution; extra rows are noisy copies of random tree rows
    std::vector<std::string> rows(total, std::string(columns, '-'));
    const char B[] = "ACGT";
    for (int c = 0; c < columns; c++) {
        // insertion columns: only one subtree has characters
        int start = root;
        if (g.u() < 0.15) start = 1 + g.pick((int)g.nodes.size() - 1);
        std::vector<char> st(g.nodes.size(), '-');
        st[start] = B[g.pick(4)];
        std::vector<int> stack = { start };
        while (!stack.empty()) {
            const int v = stack.back();
            stack.pop_back();
            for (int k : g.nodes[v].kids) {
                char s = st[v];
                if (s != '-') {
                    if (g.u() < 1 - std::exp(-g.nodes[k].len)) s = B[g.pick(4)];
                    if (g.u() < 0.02) s = '-'; // deletion, inherited below
                }
                st[k] = s;
                stack.push_back(k);
            }
        }
        for (size_t v = 0; v < g.nodes.size(); v++)
            if (g.nodes[v].taxon >= 0) {
                char s = st[v];
                if (s != '-' && g.u() < 0.01) s = "N?"[g.pick(2)];
                else if (s != '-' && g.u() < 0.02) s = (char)(s - 'A' + 'a');
                else if (s == '-' && g.u() < 0.01) s = '.';
                rows[g.nodes[v].taxon][c] = s;
            }
    }
    for (int e = taxa; e < total; e++) {
        const std::string &src = rows[order[g.pick(taxa)]];
        for (int c = 0; c < columns; c++) rows[order[e]][c] = g.u() < 0.05 ? B[g.pick(4)] : (char)toupper(src[c]);
        if (rows[order[e]].find_first_of("ACGT") == std::string::npos) rows[order[e]][0] = 'A';
    }
    // a few all-gap columns
    for (int k = 0; k < 3 && columns > 4; k++) {
        const int c = g.pick(columns);
        for (int t = 0; t < total; t++) rows[t][c] = "-N?."[g.pick(4)];
    }
    d.columns = columns;
    d.phylip = std::to_string(total) + " " + std::to_string(columns) + "\n";
    for (int t = 0; t < total; t++) d.phylip += "t" + std::to_string(t) + " " + rows[t] + "\n";
    // reads: windows of the ungapped rows
    for (int r = 0; r < nreads; r++) {
        std::string seq;
        for (char c : rows[order[g.pick(total)]])
            if (c != '-' && c != '.' && c != '?' && c != 'N') seq += (char)toupper(c);
        if (seq.empty()) seq = "ACGT";
        const int L = std::min((int)seq.size(), rmin + g.pick(rmax - rmin + 1));
        const int at = g.pick((int)seq.size() - L + 1);
        std::string w;
        for (int j = at; j < at + L; j++) {
            const double x = g.u();
            if (x < 0.01) w += B[g.pick(4)];
            else if (x < 0.013) continue;               // deletion
            else if (x < 0.016) { w += seq[j]; w += B[g.pick(4)]; continue; } // insertion
            else if (x < 0.021) w += 'N';
            else if (x < 0.024) w += iupac(g.rng);
            else w += seq[j];
        }
        if (w.find_first_not_of("N") == std::string::npos) w += "A";
        d.fasta += ">read" + std::to_string(r) + "\n" + w + "\n";
    }
    d.reads = nreads;
    return d;
}

}  // namespace ppg
