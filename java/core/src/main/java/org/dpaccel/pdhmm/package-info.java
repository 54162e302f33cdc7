/**
 * GATK's partially-determined PairHMM (PDHMM, {@code LoglessPDPairHMM} semantics): build a
 * {@link org.dpaccel.pdhmm.PdhmmBatch} of read x haplotype pairs whose haplotypes carry
 * GATK's {@code PartiallyDeterminedHaplotype} bits, run it with
 * {@link org.dpaccel.pdhmm.Pdhmm#compute}, get one log10 likelihood per pair. Double precision,
 * as GATK and GKL 0.9.1. See docs/pdhmm.md.
 */
package org.dpaccel.pdhmm;
