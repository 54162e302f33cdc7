/*
 * hmmer_filter_bench.c — HMMER 3.4's own filter stages timed alone, one thread, for a
 * same-minute comparison with native/bench/hmm_filter_bench (issue 22's CPU speed goal).
 * Our code, linked against an unmodified HMMER 3.4 / Easel build made outside the repository
 * by tools/hmm/build_hmmer_filter_bench.sh.
 *
 * usage: hmmer_filter_bench MODELS.hmm TARGETS.fa [repeats [F1 [F2]]]
 *
 * Setup (untimed, as hmmsearch does once per model): p7_ProfileConfig(.., 100, p7_LOCAL),
 * p7_oprofile_Convert, p7_bg_SetFilter(M, compo). Sequences are read and digitised once.
 * Then, over every (model, sequence) pair, model-major as hmmsearch's serial_loop, each stage
 * is timed `repeats` times (default 3) and the best is printed with G cells/s, cells = sum of
 * M x L over the pairs the stage covers (every pair, so stage rates are comparable):
 *   msv       p7_bg_SetLength, p7_oprofile_ReconfigLength, p7_bg_NullOne, p7_MSVFilter (which
 *             runs p7_SSVFilter and falls back to full MSV on eslENORESULT) and the MSV
 *             P-value: what hmm_filter_bench's F1 = 1e-300 run times;
 *   bias      p7_bg_FilterScore on every pair (p7_Pipeline runs it on MSV survivors only);
 *   vit       p7_ViterbiFilter on every pair (after SetLength / ReconfigLength);
 *   pipeline  p7_Pipeline's filter stage, its exact decisions (NullOne, MSV, F1; bias
 *             filter, F1; Viterbi filter when P > F2, F2), as hmm_filter_bench's default run.
 * The pass counts of the pipeline must equal hmm_filter_bench's "passed MSV/bias/Viterbi".
 * The per-stage per-pair sums of scores are printed as a checksum of the run.
 */
#include "p7_config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "easel.h"
#include "esl_alphabet.h"
#include "esl_gumbel.h"
#include "esl_sq.h"
#include "esl_sqio.h"
#include "hmmer.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct model { P7_HMM *hmm; P7_PROFILE *gm; P7_OPROFILE *om; P7_BG *bg; } model;

enum { ST_MSV, ST_BIAS, ST_VIT, ST_PIPE, ST_N };
static const char *const stage_name[ST_N] = { "msv", "bias", "vit", "pipeline" };

/* One pass of stage st over every pair; returns the seconds, adds pass counts and score sums. */
static double run_stage(int st, model *ms, int nm, ESL_SQ **sq, int ns, P7_OMX *ox, double F1, double F2,
                        long long pass[3], double *sum) {
  float usc, nullsc, filtersc, vfsc, bits;
  double P;
  double t0 = now();
  for (int m = 0; m < nm; m++) {
    P7_OPROFILE *om = ms[m].om;
    P7_BG *bg = ms[m].bg;
    for (int s = 0; s < ns; s++) {
      const ESL_DSQ *dsq = sq[s]->dsq;
      const int L = (int)sq[s]->n;
      if (L == 0) continue; /* p7_Pipeline skips empty targets */
      p7_bg_SetLength(bg, L);
      p7_oprofile_ReconfigLength(om, L);
      p7_omx_GrowTo(ox, om->M, 0, L);
      switch (st) {
      case ST_MSV:
        p7_bg_NullOne(bg, dsq, L, &nullsc);
        p7_MSVFilter(dsq, L, om, ox, &usc);
        bits = (usc - nullsc) / eslCONST_LOG2;
        P = esl_gumbel_surv(bits, om->evparam[p7_MMU], om->evparam[p7_MLAMBDA]);
        if (P <= F1) pass[0]++;
        *sum += usc;
        break;
      case ST_BIAS:
        p7_bg_FilterScore(bg, dsq, L, &filtersc);
        *sum += filtersc;
        break;
      case ST_VIT:
        p7_ViterbiFilter(dsq, L, om, ox, &vfsc);
        if (vfsc < eslINFINITY) *sum += vfsc;
        break;
      default: /* p7_Pipeline up to the Viterbi filter, default options (bias filter on) */
        p7_bg_NullOne(bg, dsq, L, &nullsc);
        p7_MSVFilter(dsq, L, om, ox, &usc);
        bits = (usc - nullsc) / eslCONST_LOG2;
        P = esl_gumbel_surv(bits, om->evparam[p7_MMU], om->evparam[p7_MLAMBDA]);
        if (P > F1) break;
        pass[0]++;
        p7_bg_FilterScore(bg, dsq, L, &filtersc);
        bits = (usc - filtersc) / eslCONST_LOG2;
        P = esl_gumbel_surv(bits, om->evparam[p7_MMU], om->evparam[p7_MLAMBDA]);
        if (P > F1) break;
        pass[1]++;
        if (P > F2) {
          p7_ViterbiFilter(dsq, L, om, ox, &vfsc);
          bits = (vfsc - filtersc) / eslCONST_LOG2;
          P = esl_gumbel_surv(bits, om->evparam[p7_VMU], om->evparam[p7_VLAMBDA]);
          if (P > F2) break;
        }
        pass[2]++;
        break;
      }
    }
  }
  return now() - t0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s MODELS.hmm TARGETS.fa [repeats [F1 [F2]]]\n", argv[0]);
    return 2;
  }
  const int reps = argc > 3 ? atoi(argv[3]) : 3;
  const double F1 = argc > 4 ? atof(argv[4]) : 0.02, F2 = argc > 5 ? atof(argv[5]) : 1e-3;
  ESL_ALPHABET *abc = esl_alphabet_Create(eslAMINO);
  char errbuf[eslERRBUFSIZE];
  P7_HMMFILE *hfp = NULL;
  if (p7_hmmfile_Open(argv[1], NULL, &hfp, errbuf) != eslOK) {
    fprintf(stderr, "%s: %s\n", argv[1], errbuf);
    return 1;
  }
  int nm = 0, mcap = 16, st;
  model *ms = malloc(sizeof *ms * (size_t)mcap);
  P7_HMM *hmm = NULL;
  long long sumM = 0;
  int maxM = 1;
  while ((st = p7_hmmfile_Read(hfp, &abc, &hmm)) == eslOK) {
    if (nm == mcap) ms = realloc(ms, sizeof *ms * (size_t)(mcap *= 2));
    model *x = &ms[nm++];
    x->hmm = hmm;
    x->bg = p7_bg_Create(abc);
    x->gm = p7_profile_Create(hmm->M, abc);
    x->om = p7_oprofile_Create(hmm->M, abc);
    p7_ProfileConfig(hmm, x->bg, x->gm, 100, p7_LOCAL);
    p7_oprofile_Convert(x->gm, x->om);
    p7_bg_SetFilter(x->bg, x->om->M, x->om->compo);
    sumM += hmm->M;
    if (hmm->M > maxM) maxM = hmm->M;
    hmm = NULL;
  }
  if (st != eslEOF) {
    fprintf(stderr, "%s: read error %d: %s\n", argv[1], st, hfp->errbuf);
    return 1;
  }
  ESL_SQFILE *sqfp = NULL;
  if (esl_sqfile_OpenDigital(abc, argv[2], eslSQFILE_FASTA, NULL, &sqfp) != eslOK) {
    fprintf(stderr, "%s: cannot open\n", argv[2]);
    return 1;
  }
  int ns = 0, scap = 256;
  long long sumL = 0;
  int maxL = 1;
  ESL_SQ **sq = malloc(sizeof *sq * (size_t)scap);
  for (;;) {
    ESL_SQ *q = esl_sq_CreateDigital(abc);
    st = esl_sqio_Read(sqfp, q);
    if (st == eslEOF) { esl_sq_Destroy(q); break; }
    if (st != eslOK) {
      fprintf(stderr, "%s: %s\n", argv[2], esl_sqfile_GetErrorBuf(sqfp));
      return 1;
    }
    if (q->n > 100000) {
      fprintf(stderr, "%s: sequence %d longer than 100,000 (p7_Pipeline's limit)\n", argv[2], ns);
      return 1;
    }
    if (ns == scap) sq = realloc(sq, sizeof *sq * (size_t)(scap *= 2));
    sq[ns++] = q;
    sumL += q->n;
    if (q->n > maxL) maxL = (int)q->n;
  }
  P7_OMX *ox = p7_omx_Create(maxM, 0, maxL);
  const double cells = (double)sumM * (double)sumL;
  printf("HMMER %s (Easel %s), one thread; models %d, sequences %d, pairs %lld, cells %.4g\n", HMMER_VERSION,
         EASEL_VERSION, nm, ns, (long long)nm * ns, cells);
  for (int s = 0; s < ST_N; s++) {
    double best = 1e30, sum = 0;
    long long pass[3] = { 0, 0, 0 };
    for (int r = 0; r < reps; r++) {
      long long p[3] = { 0, 0, 0 };
      sum = 0;
      double t = run_stage(s, ms, nm, sq, ns, ox, F1, F2, p, &sum);
      if (t < best) best = t;
      memcpy(pass, p, sizeof pass);
    }
    printf("HMMER   %-8s: %.4f s, %.2f G cells/s, %.1f ns/pair", stage_name[s], best, cells / best / 1e9,
           best / ((double)nm * ns) * 1e9);
    if (s == ST_MSV) printf(", passed MSV %lld", pass[0]);
    if (s == ST_PIPE) printf(", passed MSV %lld bias %lld Viterbi %lld", pass[0], pass[1], pass[2]);
    printf(", score sum %.6g\n", sum);
  }
  p7_omx_Destroy(ox);
  for (int m = 0; m < nm; m++) {
    p7_oprofile_Destroy(ms[m].om);
    p7_profile_Destroy(ms[m].gm);
    p7_bg_Destroy(ms[m].bg);
    p7_hmm_Destroy(ms[m].hmm);
  }
  for (int s = 0; s < ns; s++) esl_sq_Destroy(sq[s]);
  free(ms);
  free(sq);
  esl_sqfile_Close(sqfp);
  p7_hmmfile_Close(hfp);
  esl_alphabet_Destroy(abc);
  return 0;
}
