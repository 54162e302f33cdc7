/**
 * PairHMM forward likelihoods with GATK's semantics: build a {@link org.dpaccel.pairhmm.PairHmmBatch}
 * (validated as it is filled) and run it with {@link org.dpaccel.pairhmm.PairHmm#compute}.
 */
package org.dpaccel.pairhmm;
