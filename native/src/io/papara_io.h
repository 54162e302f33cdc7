/*
 * papara_io.h — readers of PaPaRa's inputs (papara_nt / ivy_mike semantics, docs/papara.md):
 * the Newick reference tree, the relaxed PHYLIP reference alignment, the FASTA reads; the
 * binding of tree tips to alignment rows; split names of edges.
 *
 * Not part of the public API: linked from the static dpaccel_io library (tools, tests,
 * fuzzers), never into libdpaccel.so. Every rejected input is DPA_ERR_INVALID_ARG (or
 * DPA_ERR_LIMIT for sizes) with dpa_last_error() naming the file (the `what` argument),
 * line, and field, e.g. "tree.nwk line 3: node with 4 children: the tree must be binary".
 * On failure the output struct is left empty.
 *
 * Newick: ivy_mike's parser. Names run to the next ':' ',' ')' (trailing blanks trimmed;
 * blanks, '(' ';' '[' inside a name are errors); ":length" optional (missing = 1.0); [..]
 * and {..} branch labels and inner-node labels ignored; a two-child root becomes one edge
 * of the summed length (by the profile builder); a three-child root is the unrooted case;
 * every other inner node has two children. Nodes are numbered in preorder, so a node's
 * children are in Newick order and its subtree is the id range [id, subtree_end[id]).
 *
 * PHYLIP: "ntaxa nsites" then per row "name sequence" (name up to the first blank; blanks
 * inside the sequence dropped); further interleaved blocks of ntaxa lines, blank lines
 * between blocks skipped. Every row must end up nsites long.
 *
 * FASTA reads: '>' name (first blank-delimited token; the rest of the line ignored), then
 * sequence lines. Kept: A C G T U M R W S Y K V H D B in either case (as state masks);
 * dropped: N ? . - (either case); any other byte is an error naming read and position;
 * a read with nothing left is an error (PaPaRa would loop forever on it).
 */
#ifndef DPA_IO_PAPARA_IO_H
#define DPA_IO_PAPARA_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dpaccel.h"

#define DPA_PAPARA_IO_MAX_NAME 4096

typedef struct dpa_names {
    int32_t count;
    char *buf;          /* NUL-terminated names, back to back */
    int64_t *offset;    /* count; -1 for none (inner tree nodes) */
} dpa_names;

typedef struct dpa_nwk_tree {
    int32_t num_nodes;
    int32_t *parent;
    double *length;
    int32_t *row;           /* -1 until dpa_papara_bind */
    int32_t *subtree_end;   /* preorder: subtree of i = [i, subtree_end[i]) */
    dpa_names names;        /* tip names; inner nodes have offset -1 */
} dpa_nwk_tree;

typedef struct dpa_phy_alignment {
    int32_t num_rows;
    int64_t num_columns;
    uint8_t *chars;         /* num_rows x num_columns */
    dpa_names names;
} dpa_phy_alignment;

typedef struct dpa_reads {
    int32_t num_reads;
    uint8_t *masks;
    int64_t *offsets;
    int32_t *lengths;
    dpa_names names;
} dpa_reads;

dpa_status dpa_nwk_parse(const char *text, size_t len, const char *what, dpa_nwk_tree *out);
void dpa_nwk_free(dpa_nwk_tree *t);

dpa_status dpa_phy_parse(const char *text, size_t len, const char *what, dpa_phy_alignment *out);
void dpa_phy_free(dpa_phy_alignment *a);

dpa_status dpa_fasta_reads_parse(const char *text, size_t len, const char *what,
                                 dpa_reads *out);
void dpa_reads_free(dpa_reads *r);

/* Reads a whole file into a NUL-terminated buffer (free() it); the message names path. */
dpa_status dpa_io_slurp(const char *path, char **text, size_t *len);

/* Sets tree->row[] from the tip names; a tip without a row, or two rows of one name, is an
 * error. extra (optional) gets the alignment rows no tip names, in row order, as reads
 * filtered like FASTA reads (PaPaRa scores them after the FASTA reads); a row with nothing
 * left is an error. */
dpa_status dpa_papara_bind(dpa_nwk_tree *tree, const dpa_phy_alignment *aln, dpa_reads *extra);

/* Appends b's reads to a (a owns the result; b is freed). */
dpa_status dpa_reads_append(dpa_reads *a, dpa_reads *b);

/* The split name of edge (a, b) as dpa_papara_build_profiles gives it (a the side below):
 * the sorted taxa, comma-joined, of the side without the byte-wise smallest name.
 * sorted_tips: the tip ids sorted by name (dpa_papara_sorted_tips). Returns malloc'd text
 * or NULL on out-of-memory. */
int32_t *dpa_papara_sorted_tips(const dpa_nwk_tree *tree, int32_t *num_tips);
char *dpa_papara_split_name(const dpa_nwk_tree *tree, const int32_t *sorted_tips,
                            int32_t num_tips, int32_t a);

/* Writes PaPaRa's extended alignment (its papara_alignment file, reference gaps on) for the
 * tree rows of aln and the reads, read r placed by ops[r] (num_ops[r] ops of
 * dpa_papara_traceback against its best edge). columns: the kept sites' columns. */
dpa_status dpa_papara_write_alignment(FILE *f, const dpa_nwk_tree *tree,
                                      const dpa_phy_alignment *aln, const int64_t *columns,
                                      int64_t num_sites, const dpa_reads *reads,
                                      const uint8_t *const *ops, const int64_t *num_ops);

/* CIGAR (M/D/I) of a traceback over profile columns, the outer D runs left out; *ref_start
 * = the 0-based first column. malloc'd; NULL on out-of-memory. */
char *dpa_papara_cigar(const uint8_t *ops, int64_t n, int64_t *ref_start);

/* Read filter: state mask of a byte, 0 for a dropped byte (N ? . -), -1 for a bad one. */
int dpa_papara_read_mask(uint8_t c);

#endif
