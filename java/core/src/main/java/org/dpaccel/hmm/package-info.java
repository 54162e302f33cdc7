/**
 * HMMER3 filters with hmmsearch 3.4 semantics (MSV, bias filter, Viterbi filter): load
 * {@link org.dpaccel.hmm.HmmProfiles} from a {@code .hmm} file, build an
 * {@link org.dpaccel.hmm.HmmSeqBatch} of target proteins, and run
 * {@link org.dpaccel.hmm.HmmFilter#compute}; every (model, sequence) gets the scores, P-values and
 * pass decisions of hmmsearch's pipeline up to the Viterbi filter. See docs/hmm-filter.md.
 */
package org.dpaccel.hmm;
