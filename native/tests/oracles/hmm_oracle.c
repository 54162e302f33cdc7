/* hmm_oracle.c — the hmm-filter tests' oracle: HMMER 3.4 itself (libhmmer/libeasel as shipped
 * in the pyhmmer wheel), run stage by stage as hmmsearch's serial_loop and p7_Pipeline do.
 * Built outside the repo by tools/hmm/build_hmm_oracle.sh (needs `pip download` of the pyhmmer
 * sdist for the headers). usage: hmm_oracle MODELS.hmm TARGETS.fa
 * Prints per (model, sequence), model-major: mi si L usc nullsc filtersc vfsc msvP biasP vitP vitP_nobias,
 * scores in nats and P-values as C99 hex floats (exact), P from the float bit score as
 * p7_Pipeline computes it. Every stage is run for every sequence (the tests decide passes). */
#include "p7_config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "easel.h"
#include "esl_alphabet.h"
#include "esl_gumbel.h"
#include "esl_sq.h"
#include "esl_sqio.h"
#include "hmmer.h"
int main(int argc, char **argv) {
  ESL_ALPHABET *abc = esl_alphabet_Create(eslAMINO);
  P7_HMMFILE *hfp = NULL; char errbuf[eslERRBUFSIZE];
  if (p7_hmmfile_Open(argv[1], NULL, &hfp, errbuf) != eslOK) { fprintf(stderr, "open %s\n", errbuf); return 1; }
  /* load sequences */
  ESL_SQFILE *sqfp = NULL;
  if (esl_sqfile_OpenDigital(abc, argv[2], eslSQFILE_FASTA, NULL, &sqfp) != eslOK) { fprintf(stderr, "sq open\n"); return 1; }
  int nseq = 0, cap = 16; ESL_SQ **sqs = malloc(cap * sizeof *sqs);
  for (;;) { ESL_SQ *sq = esl_sq_CreateDigital(abc); int st = esl_sqio_Read(sqfp, sq);
    if (st == eslEOF) { esl_sq_Destroy(sq); break; }
    if (st != eslOK) { fprintf(stderr, "sq read err %d %s\n", st, esl_sqfile_GetErrorBuf(sqfp)); return 1; }
    if (nseq == cap) { cap *= 2; sqs = realloc(sqs, cap * sizeof *sqs); } sqs[nseq++] = sq; }
  P7_HMM *hmm = NULL; int mi = 0, st;
  while ((st = p7_hmmfile_Read(hfp, &abc, &hmm)) == eslOK) {
    P7_BG *bg = p7_bg_Create(abc);
    P7_PROFILE *gm = p7_profile_Create(hmm->M, abc);
    P7_OPROFILE *om = p7_oprofile_Create(hmm->M, abc);
    P7_OMX *ox = p7_omx_Create(hmm->M, 0, 0);
    p7_ProfileConfig(hmm, bg, gm, 100, p7_LOCAL);
    p7_oprofile_Convert(gm, om);
    p7_bg_SetFilter(bg, om->M, om->compo);
    for (int si = 0; si < nseq; si++) {
      ESL_SQ *sq = sqs[si];
      float usc, nullsc, filtersc, vfsc; double P1, P2, P3, P3n;
      if (sq->n == 0) { printf("%d\t%d\t0\n", mi, si); continue; }
      p7_bg_SetLength(bg, sq->n);
      p7_oprofile_ReconfigLength(om, sq->n);
      p7_omx_GrowTo(ox, om->M, 0, sq->n);
      p7_bg_NullOne(bg, sq->dsq, sq->n, &nullsc);
      p7_MSVFilter(sq->dsq, sq->n, om, ox, &usc);
      P1 = esl_gumbel_surv((float)((usc - nullsc) / eslCONST_LOG2), om->evparam[p7_MMU], om->evparam[p7_MLAMBDA]);
      p7_bg_FilterScore(bg, sq->dsq, sq->n, &filtersc);
      P2 = esl_gumbel_surv((float)((usc - filtersc) / eslCONST_LOG2), om->evparam[p7_MMU], om->evparam[p7_MLAMBDA]);
      p7_ViterbiFilter(sq->dsq, sq->n, om, ox, &vfsc);
      P3 = esl_gumbel_surv((float)((vfsc - filtersc) / eslCONST_LOG2), om->evparam[p7_VMU], om->evparam[p7_VLAMBDA]);
      /* --nobias: p7_Pipeline uses nullsc in place of filtersc */
      P3n = esl_gumbel_surv((float)((vfsc - nullsc) / eslCONST_LOG2), om->evparam[p7_VMU], om->evparam[p7_VLAMBDA]);
      printf("%d\t%d\t%" PRId64 "\t%a\t%a\t%a\t%a\t%a\t%a\t%a\t%a\n", mi, si, (int64_t)sq->n, usc, nullsc, filtersc, vfsc, P1, P2, P3, P3n);
    }
    p7_omx_Destroy(ox); p7_oprofile_Destroy(om); p7_profile_Destroy(gm); p7_bg_Destroy(bg); p7_hmm_Destroy(hmm); hmm = NULL; mi++;
  }
  if (st != eslEOF) { fprintf(stderr, "hmm read err %d: %s\n", st, hfp->errbuf); return 1; }
  return 0;
}
