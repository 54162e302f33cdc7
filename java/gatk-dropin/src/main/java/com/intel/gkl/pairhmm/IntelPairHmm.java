package com.intel.gkl.pairhmm;

import java.io.File;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeBinding;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.dpaccel.gatk.dropin.DropInPairHmm;

/**
 * dpaccel's stand-in for Intel GKL's class of the same name, which GATK 4 instantiates for
 * {@code --pair-hmm-implementation AVX_LOGLESS_CACHING} (and as the second choice of
 * {@code FASTEST_AVAILABLE}). Put the dpaccel drop-in jar before GATK on the class path and this
 * class wins; everything it does is in {@link DropInPairHmm}.
 *
 * <p>Same public surface as GKL 0.8.11's {@code IntelPairHmm}: a public no-argument constructor,
 * not final (GKL's {@code IntelPairHmmFpga} extends it), and the package-private
 * {@code setNativeLibraryName} its subclasses call.
 */
public class IntelPairHmm implements PairHMMNativeBinding {
    private final DropInPairHmm impl;

    /** The single-threaded stand-in (GATK's {@code AVX_LOGLESS_CACHING}). */
    public IntelPairHmm() {
        this(DropInPairHmm.Mode.AVX);
    }

    IntelPairHmm(DropInPairHmm.Mode mode) {
        impl = new DropInPairHmm(mode);
    }

    /** GKL binary compatibility (its subclasses call it); the drop-in has no GKL library to name. */
    void setNativeLibraryName(String nativeLibraryName) {
    }

    @Override
    public synchronized boolean load(File tempDir) {
        return impl.load(tempDir);
    }

    @Override
    public void initialize(PairHMMNativeArguments args) {
        impl.initialize(args);
    }

    @Override
    public void computeLikelihoods(ReadDataHolder[] readDataArray, HaplotypeDataHolder[] haplotypeDataArray,
        double[] likelihoodArray) {
        impl.computeLikelihoods(readDataArray, haplotypeDataArray, likelihoodArray);
    }

    @Override
    public void done() {
        impl.done();
    }
}
