package com.intel.gkl.pairhmm;

import org.dpaccel.gatk.dropin.DropInPairHmm;

/**
 * dpaccel's stand-in for Intel GKL's {@code IntelPairHmmOMP}, which GATK 4 instantiates for
 * {@code --pair-hmm-implementation AVX_LOGLESS_CACHING_OMP} and as the first choice of
 * {@code FASTEST_AVAILABLE} (GATK's default). Multi-threaded: dpaccel uses
 * {@code --native-pair-hmm-threads} CPU threads.
 */
public final class IntelPairHmmOMP extends IntelPairHmm {
    /** The multi-threaded stand-in (GATK's {@code AVX_LOGLESS_CACHING_OMP}, {@code FASTEST_AVAILABLE}). */
    public IntelPairHmmOMP() {
        super(DropInPairHmm.Mode.OMP);
    }
}
