/*
 * papara_tool.c — dpaccel_papara: PaPaRa 2 placement scoring from files, through the public
 * C API plus the dpaccel_io readers (a native tool for benchmarks and the oracle runs; the
 * Java CLI is the user-facing one when it lands, docs/papara.md).
 *
 *   dpaccel_papara --tree T.nwk --ref R.phy --reads Q.fa --out DIR [--gap-model prob|cgap]
 *                  [--scoring O:E:M:C] [--scores] [--profiles] [--threads N]
 *                  [--backend auto|cpu|gpu|hybrid] [--score-model papara2|paper2012] [--time]
 *
 * Writes DIR/best.tsv (#read read_len best_score best_split n_tied ref_start cigar; reads are
 * the FASTA reads, then the alignment rows outside the tree, as PaPaRa scores them; the CIGAR
 * of PaPaRa's traceback against the best edge over profile columns from 0-based ref_start,
 * outer skipped columns omitted, read overhangs as I), DIR/alignment.phy (PaPaRa's
 * papara_alignment, byte for byte), with --scores
 * DIR/scores.tsv (read x split matrix), with --profiles DIR/profiles.tsv (#edge split
 * states cgap). --score-model paper2012 scores with the 2012 paper's min-plus model (lowest
 * best; '-' for ref_start and cigar, no alignment.phy, as `dpaccel papara`). Every file is
 * written under a temporary name; all are renamed only once every one is complete, so a
 * failed run leaves no output file (as the Java CLI). --time prints the scoring seconds and
 * G cells/s (cells = edges x sites x read bases), the tasks the GPUs ran and the CPU kernel
 * to stderr. Exit 0 ok, 2 bad input or
 * usage, 1 other failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "dpaccel.h"
#include "io/papara_io.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int die(int code, const char *what)
{
    fprintf(stderr, "dpaccel_papara: %s\n", what);
    return code;
}

static int status_exit(dpa_status st)
{
    fprintf(stderr, "dpaccel_papara: %s\n", dpa_last_error());
    return st == DPA_ERR_INVALID_ARG || st == DPA_ERR_LIMIT || st == DPA_ERR_NULL_ARG ? 2 : 1;
}

/* Opens DIR/NAME.partial; out_close() closes it, out_commit_all() renames every closed one to
 * DIR/NAME, out_abandon() removes them all. */
typedef struct outfile {
    char final[4096], tmp[4200];
    FILE *f;
    int created; /* tmp is ours to remove */
} outfile;
#define OUT_MAX 4

static int out_open(outfile *o, const char *dir, const char *name)
{
    snprintf(o->final, sizeof o->final, "%s/%s", dir, name);
    snprintf(o->tmp, sizeof o->tmp, "%s.partial", o->final);
    o->f = fopen(o->tmp, "w");
    o->created = o->f != NULL;
    if (!o->f) fprintf(stderr, "dpaccel_papara: cannot write %s\n", o->tmp);
    return o->f ? 0 : -1;
}

static int out_close(outfile *o)
{
    const int bad = ferror(o->f) | fclose(o->f);
    o->f = NULL;
    if (bad) fprintf(stderr, "dpaccel_papara: cannot finish %s\n", o->tmp);
    return bad ? -1 : 0;
}

/* files[0..n): the partial files of this run, the last possibly still open */
static int out_abandon(outfile *files, int n)
{
    for (int i = 0; i < n; i++) {
        if (files[i].f) fclose(files[i].f);
        files[i].f = NULL;
        if (files[i].created) remove(files[i].tmp);
    }
    return 1;
}

static int out_commit_all(outfile *files, int n)
{
    for (int i = 0; i < n; i++)
        if (rename(files[i].tmp, files[i].final)) {
            fprintf(stderr, "dpaccel_papara: cannot rename %s to %s\n", files[i].tmp, files[i].final);
            for (int k = 0; k < i; k++) remove(files[k].final);
            return out_abandon(files + i, n - i);
        }
    return 0;
}

static const char LETTERS[] = "_ACMGRSVTWYHKDB-";

int main(int argc, char **argv)
{
    const char *tree_path = NULL, *ref_path = NULL, *reads_path = NULL, *out_dir = NULL;
    int model = DPA_PAPARA_GAP_PROB, want_scores = 0, want_profiles = 0, want_time = 0;
    int threads = 0;
    dpa_papara_params params;
    dpa_papara_params_init(&params);
    static const struct option opts[] = {
        { "tree", required_argument, 0, 't' },     { "ref", required_argument, 0, 's' },
        { "reads", required_argument, 0, 'q' },    { "out", required_argument, 0, 'o' },
        { "gap-model", required_argument, 0, 'g' }, { "scoring", required_argument, 0, 'p' },
        { "scores", no_argument, 0, 'S' },         { "profiles", no_argument, 0, 'P' },
        { "threads", required_argument, 0, 'j' },  { "backend", required_argument, 0, 'b' },
        { "time", no_argument, 0, 'T' },           { "score-model", required_argument, 0, 'm' },
        { 0, 0, 0, 0 }
    };
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 't': tree_path = optarg; break;
        case 's': ref_path = optarg; break;
        case 'q': reads_path = optarg; break;
        case 'o': out_dir = optarg; break;
        case 'g':
            if (!strcmp(optarg, "prob")) model = DPA_PAPARA_GAP_PROB;
            else if (!strcmp(optarg, "cgap")) model = DPA_PAPARA_GAP_CGAP;
            else return die(2, "--gap-model must be prob or cgap");
            break;
        case 'p': {
            char tail;
            if (sscanf(optarg, "%d:%d:%d:%d%c", &params.gap_open, &params.gap_extend,
                       &params.match, &params.match_cgap, &tail) != 4)
                return die(2, "--scoring must be OPEN:EXTEND:MATCH:MATCH_CGAP, e.g. -3:-1:2:-3");
            break;
        }
        case 'S': want_scores = 1; break;
        case 'P': want_profiles = 1; break;
        case 'T': want_time = 1; break;
        case 'm':
            if (!strcmp(optarg, "papara2")) params.score_model = DPA_PAPARA_SCORE_PAPARA2;
            else if (!strcmp(optarg, "paper2012")) params.score_model = DPA_PAPARA_SCORE_PAPER2012;
            else return die(2, "--score-model must be papara2 or paper2012");
            break;
        case 'j': threads = atoi(optarg); if (threads < 1) return die(2, "--threads must be >= 1"); break;
        case 'b':
            if (!strcmp(optarg, "auto")) params.backend = DPA_BACKEND_AUTO;
            else if (!strcmp(optarg, "cpu")) params.backend = DPA_BACKEND_CPU;
            else if (!strcmp(optarg, "gpu")) params.backend = DPA_BACKEND_GPU;
            else if (!strcmp(optarg, "hybrid")) params.backend = DPA_BACKEND_HYBRID;
            else return die(2, "--backend must be auto, cpu, gpu or hybrid");
            break;
        default: return die(2, "usage: dpaccel_papara --tree T --ref R --reads Q --out DIR ...");
        }
    }
    if (!tree_path || !ref_path || !reads_path || !out_dir)
        return die(2, "--tree, --ref, --reads and --out are required");
    if (mkdir(out_dir, 0777) && errno != EEXIST) return die(2, "cannot create --out directory");

    char *text;
    size_t len;
    dpa_status st;
    dpa_nwk_tree tree;
    dpa_phy_alignment aln;
    dpa_reads reads, extra;
    if ((st = dpa_io_slurp(tree_path, &text, &len))) return status_exit(st);
    st = dpa_nwk_parse(text, len, tree_path, &tree);
    free(text);
    if (st) return status_exit(st);
    if ((st = dpa_io_slurp(ref_path, &text, &len))) return status_exit(st);
    st = dpa_phy_parse(text, len, ref_path, &aln);
    free(text);
    if (st) return status_exit(st);
    if ((st = dpa_io_slurp(reads_path, &text, &len))) return status_exit(st);
    st = dpa_fasta_reads_parse(text, len, reads_path, &reads);
    free(text);
    if (st) return status_exit(st);
    if ((st = dpa_papara_bind(&tree, &aln, &extra)) || (st = dpa_reads_append(&reads, &extra)))
        return status_exit(st);

    dpa_options o;
    dpa_options_init(&o);
    o.num_threads = threads;
    dpa_context *ctx;
    if ((st = dpa_context_create(&o, &ctx))) return status_exit(st);
    dpa_papara_tree tr = { tree.num_nodes, tree.parent, tree.length, tree.row };
    dpa_papara_alignment al = { aln.num_rows, aln.num_columns, aln.chars };
    int32_t E;
    int64_t S;
    if ((st = dpa_papara_profile_shape(&tr, &al, &E, &S))) return status_exit(st);
    uint8_t *sites = malloc((size_t)E * (size_t)S);
    int32_t *edges = malloc(sizeof *edges * 2 * (size_t)E);
    int64_t *cols = malloc(sizeof *cols * (size_t)S);
    const int32_t R = reads.num_reads;
    int32_t *best = malloc(sizeof *best * (size_t)R), *idx = malloc(sizeof *idx * (size_t)R);
    int32_t *ties = malloc(sizeof *ties * (size_t)R);
    int32_t *matrix = want_scores ? malloc(sizeof *matrix * (size_t)R * (size_t)E) : NULL;
    if (!sites || !edges || !cols || !best || !idx || !ties || (want_scores && !matrix))
        return die(1, "out of memory");
    const double t0 = now_s();
    dpa_papara_profiles prof = { sites, edges, cols, NULL };
    if ((st = dpa_papara_build_profiles(ctx, &tr, &al, model, &prof))) return status_exit(st);
    const double t1 = now_s();
    dpa_papara_batch b = { E, S, sites, R, reads.masks, reads.offsets, reads.lengths };
    dpa_papara_output out = { matrix, best, idx, ties };
    dpa_papara_stats stats;
    if ((st = dpa_papara_score(ctx, &b, &params, &out, &stats))) return status_exit(st);
    const double t2 = now_s();
    if (want_time)
        fprintf(stderr,
                "profiles %.3f s; scoring %.3f s, %lld cells, %.2f G cells/s (%lld tasks on "
                "GPUs; CPU kernel %s)\n",
                t1 - t0, t2 - t1, (long long)stats.cells, (double)stats.cells / (t2 - t1) / 1e9,
                (long long)stats.gpu_tasks, dpa_isa_name((dpa_isa)stats.isa));

    int32_t ntips;
    int32_t *sorted = dpa_papara_sorted_tips(&tree, &ntips);
    char **split = calloc((size_t)E, sizeof *split);
    if (!sorted || !split) return die(1, "out of memory");
    for (int32_t e = 0; e < E; e++)
        if (want_scores || want_profiles) {
            if (!(split[e] = dpa_papara_split_name(&tree, sorted, ntips, edges[2 * e])))
                return die(1, "out of memory");
        }
    /* paper2012 has no traceback (PaPaRa never aligned with it): best.tsv without ref_start
     * and cigar, no alignment file */
    const int m12 = params.score_model == DPA_PAPARA_SCORE_PAPER2012;
    /* each read's traceback against its best edge, on the context's threads */
    uint8_t **ops = calloc((size_t)R, sizeof *ops);
    int64_t *nops = calloc((size_t)R, sizeof *nops), *opoff = malloc(sizeof *opoff * ((size_t)R + 1));
    int32_t *tsc = malloc(sizeof *tsc * ((size_t)R + 1));
    if (!ops || !nops || !opoff || !tsc) return die(1, "out of memory");
    opoff[0] = 0;
    for (int32_t r = 0; r < R; r++) opoff[r + 1] = opoff[r] + (m12 ? 0 : S + reads.lengths[r]);
    uint8_t *opbuf = malloc((size_t)opoff[R] + 1);
    if (!opbuf) return die(1, "out of memory");
    if (!m12 &&
        (st = dpa_papara_traceback_batch(ctx, &b, idx, &params, opbuf, opoff[R], opoff, nops, tsc)))
        return status_exit(st);
    for (int32_t r = 0; r < R && !m12; r++) {
        if (tsc[r] != best[r]) return die(1, "internal: traceback score differs from the kernel's");
        ops[r] = opbuf + opoff[r];
    }
    outfile files[OUT_MAX + 1]; /* one spare: OUT_FAIL names the next slot */
    int nf = 0;
    memset(files, 0, sizeof files);
    /* a failure past this point removes every partial file of the run */
#define OUT_FAIL(expr) do { int rc_ = (expr); out_abandon(files, nf + 1); return rc_; } while (0)
#define OUT_OPEN(name) do { if (out_open(&files[nf], out_dir, name)) OUT_FAIL(1); } while (0)
#define OUT_CLOSE() do { if (out_close(&files[nf])) OUT_FAIL(1); nf++; } while (0)
    outfile *f = &files[nf];
    OUT_OPEN("best.tsv");
    fprintf(f->f, "#read\tread_len\tbest_score\tbest_split\tn_tied\tref_start\tcigar\n");
    for (int32_t r = 0; r < R; r++) {
        const int32_t e = idx[r];
        if (!split[e] && !(split[e] = dpa_papara_split_name(&tree, sorted, ntips, edges[2 * e])))
            OUT_FAIL(die(1, "out of memory"));
        if (m12) {
            fprintf(f->f, "%s\t%d\t%d\t%s\t%d\t-\t-\n", reads.names.buf + reads.names.offset[r],
                    reads.lengths[r], best[r], split[e], ties[r]);
            continue;
        }
        int64_t start;
        char *cigar = dpa_papara_cigar(ops[r], nops[r], &start);
        if (!cigar) OUT_FAIL(die(1, "out of memory"));
        fprintf(f->f, "%s\t%d\t%d\t%s\t%d\t%lld\t%s\n", reads.names.buf + reads.names.offset[r],
                reads.lengths[r], best[r], split[e], ties[r], (long long)start, cigar);
        free(cigar);
    }
    OUT_CLOSE();
    if (!m12) {
        f = &files[nf];
        OUT_OPEN("alignment.phy");
        if ((st = dpa_papara_write_alignment(f->f, &tree, &aln, cols, S, &reads,
                                             (const uint8_t *const *)ops, nops)))
            OUT_FAIL(status_exit(st));
        OUT_CLOSE();
    }
    free(opbuf);
    free(ops);
    free(nops);
    free(opoff);
    free(tsc);
    if (want_scores) {
        f = &files[nf];
        OUT_OPEN("scores.tsv");
        fprintf(f->f, "read");
        for (int32_t e = 0; e < E; e++) fprintf(f->f, "\t%s", split[e]);
        fputc('\n', f->f);
        for (int32_t r = 0; r < R; r++) {
            fputs(reads.names.buf + reads.names.offset[r], f->f);
            for (int32_t e = 0; e < E; e++) fprintf(f->f, "\t%d", matrix[(size_t)r * E + e]);
            fputc('\n', f->f);
        }
        OUT_CLOSE();
    }
    if (want_profiles) {
        f = &files[nf];
        OUT_OPEN("profiles.tsv");
        fprintf(f->f, "#edge\tsplit\tstates\tcgap\n");
        for (int32_t e = 0; e < E; e++) {
            fprintf(f->f, "%d\t%s\t", e, split[e]);
            for (int64_t i = 0; i < S; i++) fputc(LETTERS[sites[(size_t)e * S + i] & 15], f->f);
            fputc('\t', f->f);
            for (int64_t i = 0; i < S; i++)
                fputc(sites[(size_t)e * S + i] & DPA_PAPARA_CGAP_BIT ? '1' : '0', f->f);
            fputc('\n', f->f);
        }
        OUT_CLOSE();
    }
    if (out_commit_all(files, nf)) return 1;
#undef OUT_CLOSE
#undef OUT_OPEN
#undef OUT_FAIL
    for (int32_t e = 0; e < E; e++) free(split[e]);
    free(split);
    free(sorted);
    free(sites);
    free(edges);
    free(cols);
    free(best);
    free(idx);
    free(ties);
    free(matrix);
    dpa_reads_free(&reads);
    dpa_phy_free(&aln);
    dpa_nwk_free(&tree);
    dpa_context_destroy(ctx);
    return 0;
}
