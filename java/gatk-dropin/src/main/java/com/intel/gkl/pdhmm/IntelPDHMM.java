package com.intel.gkl.pdhmm;

import java.io.File;

import org.broadinstitute.gatk.nativebindings.pdhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pdhmm.PDHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pdhmm.PDHMMNativeBinding;
import org.broadinstitute.gatk.nativebindings.pdhmm.ReadDataHolder;
import org.dpaccel.gatk.dropin.DropInPdhmm;

/**
 * The drop-in's stand-in for GKL 0.9.1's class of the same name, which GATK 4.7's
 * {@code VectorLoglessPairPDHMM} uses for its PDHMM path: the same public constructor and methods,
 * run on dpaccel (or, switched off, on the real GKL class behind the drop-in). See
 * {@link DropInPdhmm} and docs/GATK.md.
 */
public class IntelPDHMM implements PDHMMNativeBinding {
    private final DropInPdhmm impl = new DropInPdhmm();

    /** A stand-in with nothing loaded yet. */
    public IntelPDHMM() {
    }

    @Override
    public synchronized boolean load(File tempDir) {
        return impl.load(tempDir);
    }

    @Override
    public void initialize(PDHMMNativeArguments args) {
        impl.initialize(args);
    }

    @Override
    public void computeLikelihoods(ReadDataHolder[] readDataArray, HaplotypeDataHolder[] haplotypeDataArray,
        double[] likelihoodArray) throws NullPointerException, OutOfMemoryError, IllegalArgumentException {
        impl.computeLikelihoods(readDataArray, haplotypeDataArray, likelihoodArray);
    }

    @Override
    public void done() {
        impl.done();
    }

    /**
     * GKL 0.9.1's batch call (see {@link DropInPdhmm#computePDHMM}).
     *
     * @param hap_bases the haplotype bases
     * @param hap_pdbases the haplotype PD bases
     * @param read_bases the read bases
     * @param read_qual the read quality scores
     * @param read_ins_qual the read insertion quality scores
     * @param read_del_qual the read deletion quality scores
     * @param gcp the gap continuation penalties
     * @param hap_lengths the lengths of the haplotypes
     * @param read_lengths the lengths of the reads
     * @param batchSize the number of pairs
     * @param maxHapLength the haplotype slot size
     * @param maxReadLength the read slot size
     * @return the log10 likelihoods
     */
    public double[] computePDHMM(byte[] hap_bases, byte[] hap_pdbases, byte[] read_bases, byte[] read_qual,
        byte[] read_ins_qual, byte[] read_del_qual, byte[] gcp, long[] hap_lengths, long[] read_lengths,
        int batchSize, int maxHapLength, int maxReadLength) {
        return impl.computePDHMM(hap_bases, hap_pdbases, read_bases, read_qual, read_ins_qual, read_del_qual, gcp,
            hap_lengths, read_lengths, batchSize, maxHapLength, maxReadLength);
    }
}
