package com.intel.gkl.smithwaterman;

import java.io.File;

import org.broadinstitute.gatk.nativebindings.smithwaterman.SWAlignerNativeBinding;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWNativeAlignerResult;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWOverhangStrategy;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWParameters;
import org.dpaccel.gatk.dropin.DropInSmithWaterman;

/**
 * dpaccel's stand-in for Intel GKL's class of the same name, which GATK 4 instantiates for
 * {@code --smith-waterman FASTEST_AVAILABLE} (the default of HaplotypeCaller and Mutect2) and
 * {@code AVX_ENABLED} ({@code SmithWatermanIntelAligner}). Put the dpaccel drop-in jar before GATK
 * on the class path and this class wins; everything it does is in {@link DropInSmithWaterman}.
 * It returns the CIGARs of GATK's Java aligner ({@code --smith-waterman JAVA}), which GKL 0.8.11
 * also returns except for the IGNORE overhang strategy (GKL soft-clips the trailing overhang
 * there) and for sequences of 1024 bases or more; GATK's HaplotypeCaller uses SOFTCLIP, INDEL
 * and LEADING_INDEL only.
 *
 * <p>Same public surface as GKL 0.8.11's {@code IntelSmithWaterman}: a public no-argument
 * constructor, not final, {@code load}, {@code align}, {@code close}, the public
 * {@link #getStrategy} and the package-private {@code setNativeLibraryName}.
 */
public class IntelSmithWaterman implements SWAlignerNativeBinding {
    private final DropInSmithWaterman impl = new DropInSmithWaterman();

    /** A stand-in with nothing loaded yet; {@link #load} picks the engine. */
    public IntelSmithWaterman() {
    }

    /** GKL binary compatibility; the drop-in has no GKL library to name. */
    void setNativeLibraryName(String nativeLibraryName) {
    }

    @Override
    public synchronized boolean load(File tmpDir) {
        return impl.load(tmpDir);
    }

    @Override
    public SWNativeAlignerResult align(byte[] ref, byte[] alt, SWParameters parameters,
        SWOverhangStrategy overhangStrategy) throws NullPointerException, OutOfMemoryError, IllegalArgumentException {
        return impl.align(ref, alt, parameters, overhangStrategy);
    }

    /**
     * The code GKL's native library uses for a strategy (as GKL 0.8.11: SOFTCLIP 9, INDEL 10,
     * LEADING_INDEL 11, IGNORE 12; 0 for anything else). Kept for binary compatibility; dpaccel
     * does not use it.
     *
     * @param strategy the overhang strategy
     * @return GKL's code for it
     * @throws NullPointerException if {@code strategy} is null
     */
    public byte getStrategy(SWOverhangStrategy strategy) {
        if (strategy == null) {
            throw new NullPointerException("OverhangStrategy is null.");
        }
        switch (strategy) {
            case SOFTCLIP:
                return 9;
            case INDEL:
                return 10;
            case LEADING_INDEL:
                return 11;
            case IGNORE:
                return 12;
            default:
                return 0;
        }
    }

    @Override
    public void close() {
        impl.close();
    }
}
