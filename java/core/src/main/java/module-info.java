/**
 * dpaccel: dynamic-programming kernels (GATK PairHMM, Smith-Waterman) on CUDA GPUs and
 * AVX2/AVX-512 CPUs, through a native library bundled in the jar.
 *
 * <p>Entry points: {@link org.dpaccel.DpaContext} and the workload packages
 * {@link org.dpaccel.pairhmm}, {@link org.dpaccel.sw}, {@link org.dpaccel.distance}, {@link org.dpaccel.xdrop}, {@link org.dpaccel.papara} and {@link org.dpaccel.hmm}; {@link org.dpaccel.gatk} implements
 * GATK's native bindings, and {@link org.dpaccel.gatk.trace} holds the format of the GATK
 * drop-in's traces. {@code org.dpaccel.internal} (native loading and the JNI
 * declarations) is not exported.
 *
 * <p>{@code org.dpaccel.gatk} implements interfaces from GATK's bindings jar
 * ({@code org.broadinstitute:gatk-native-bindings}), which cannot be a module: it declares no
 * module name, and the one derived from its file name, {@code gatk.native.bindings}, is not
 * legal ({@code native} is a keyword). So this module does not require it; the build compiles
 * with the jar on the class path and {@code --add-reads org.dpaccel=ALL-UNNAMED}, and a
 * module-path application that uses {@code org.dpaccel.gatk} does the same at run time. GATK
 * itself puts everything on the class path, where this descriptor is ignored; the other
 * packages need nothing but {@code java.base}.
 */
module org.dpaccel {
    exports org.dpaccel;
    exports org.dpaccel.pairhmm;
    exports org.dpaccel.sw;
    exports org.dpaccel.gatk;
    exports org.dpaccel.gatk.trace;
    exports org.dpaccel.distance;
    exports org.dpaccel.xdrop;
    exports org.dpaccel.pdhmm;
    exports org.dpaccel.papara;
    exports org.dpaccel.hmm;
}
