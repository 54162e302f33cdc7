package org.dpaccel.bench.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeBinding;
import org.dpaccel.Backend;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.Isa;
import org.dpaccel.gatk.DpaPairHmm;
import org.dpaccel.pairhmm.Precision;

/** Creates the engines a run asks for, or says why one cannot run on this machine. */
public final class Engines {
    /** Every backend name, in the order a run reports them. */
    public static final List<String> ALL = List.of("scalar", "avx2", "avx512", "cuda", "hybrid", "gkl", "gkl-omp");

    /** Thrown when a backend does not exist on this machine; the message says why. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        public Unavailable(String why) {
            super(why);
        }
    }

    private Engines() {
    }

    /** Parses a comma list ("all", names, "cpu" = scalar,avx2,avx512, "gpu" = cuda,hybrid). */
    public static List<String> parseList(String list) {
        List<String> out = new ArrayList<>();
        for (String s : list.split(",")) {
            String v = s.trim().toLowerCase(Locale.ROOT);
            if (v.isEmpty()) {
                continue;
            }
            List<String> add = switch (v) {
                case "all" -> ALL;
                case "cpu" -> List.of("scalar", "avx2", "avx512");
                case "gpu" -> List.of("cuda", "hybrid");
                case "gkl-all", "incumbent" -> List.of("gkl", "gkl-omp");
                case "gpu0", "gpu-0" -> List.of("cuda");
                default -> {
                    if (!ALL.contains(v)) {
                        throw new IllegalArgumentException("--backends: unknown backend '" + s.trim() + "'; expected "
                            + String.join(", ", ALL) + ", cpu, gpu or all");
                    }
                    yield List.of(v);
                }
            };
            for (String a : add) {
                if (!out.contains(a)) {
                    out.add(a);
                }
            }
        }
        out.sort((a, b) -> Integer.compare(ALL.indexOf(a), ALL.indexOf(b)));
        return out;
    }

    /** The scalar double-precision reference: the golden values of tests and of every run's check. */
    public static DpaApiEngine reference() {
        DpaContext ctx = DpaContext.create(Config.builder().cpuDisable("avx512,avx2").gpuDisable(true)
            .backend(Backend.CPU).threads(Math.max(1, Runtime.getRuntime().availableProcessors())).build());
        return new DpaApiEngine("reference", ctx, Backend.CPU, Precision.DOUBLE);
    }

    static String cpuDisable(String isa) {
        return switch (isa) {
            case "scalar" -> "avx512,avx2";
            case "avx2" -> "avx512";
            default -> "";
        };
    }

    /**
     * Creates engine {@code name} with {@code threads} CPU threads; {@code gatkMode} drives
     * dpaccel through DpaPairHmm (GATK's binding) instead of the batch API; {@code dbl} computes
     * in double precision only (GATK's useDoublePrecision) instead of float, then double.
     */
    public static Engine create(String name, int threads, boolean gatkMode, boolean dbl) throws Unavailable {
        switch (name) {
            case "scalar", "avx2", "avx512" -> {
                Config cfg = Config.builder().threads(threads).backend(Backend.CPU).cpuDisable(cpuDisable(name))
                    .gpuDisable(true).build();
                DpaContext ctx = DpaContext.create(cfg);
                Isa got = ctx.isa();
                ctx.close();
                if (!got.id().equals(name)) {
                    throw new Unavailable("this CPU has no " + name + " (best available: " + got.id() + ")");
                }
                return dpaccel(name, threads, Backend.CPU, cpuDisable(name), true, gatkMode, dbl);
            }
            case "cuda", "hybrid" -> {
                DpaContext ctx = DpaContext.create(Config.builder().threads(threads).gpuDisable(false).build());
                int devices = ctx.deviceCount();
                String desc = ctx.describe();
                ctx.close();
                if (devices == 0) {
                    int at = desc.indexOf("no GPU: ");
                    throw new Unavailable(at >= 0 ? desc.substring(at + 8) : "no usable GPU (" + desc + ")");
                }
                return dpaccel(name, threads, name.equals("cuda") ? Backend.GPU : Backend.HYBRID, "", false, gatkMode,
                    dbl);
            }
            case "gkl", "gkl-omp" -> {
                return gkl(name.equals("gkl-omp"), name.equals("gkl") ? 1 : threads, dbl);
            }
            default -> throw new IllegalArgumentException("unknown backend " + name);
        }
    }

    private static Engine dpaccel(String name, int threads, Backend backend, String cpuDisable, boolean gpuDisable,
        boolean gatkMode, boolean dbl) {
        if (!gatkMode) {
            DpaContext ctx = DpaContext.create(Config.builder().threads(threads).backend(backend).cpuDisable(cpuDisable)
                .gpuDisable(gpuDisable).build());
            return new DpaApiEngine(name, ctx, backend, dbl ? Precision.DOUBLE : Precision.FLOAT_THEN_DOUBLE);
        }
        // DpaPairHmm takes its configuration from system properties, as it would inside GATK.
        String[][] props = {{"dpaccel.backend", backend.name().toLowerCase(Locale.ROOT)},
            {"dpaccel.cpu.disable", cpuDisable}, {"dpaccel.gpu.disable", Boolean.toString(gpuDisable)}};
        String[] old = new String[props.length];
        for (int i = 0; i < props.length; i++) {
            old[i] = System.setProperty(props[i][0], props[i][1]);
        }
        try {
            DpaPairHmm b = new DpaPairHmm();
            if (!b.load(null)) {
                throw new IllegalStateException("DpaPairHmm.load returned false");
            }
            PairHMMNativeArguments args = new PairHMMNativeArguments();
            args.maxNumberOfThreads = threads;
            args.useDoublePrecision = dbl;
            b.initialize(args);
            String desc;
            try (DpaContext c = DpaContext.create(Config.builder().threads(threads).build())) {
                desc = c.describe(); // the configuration DpaPairHmm.initialize just read
            }
            return new BindingEngine(name, "org.dpaccel.gatk.DpaPairHmm (GATK binding): " + desc, b, threads, true);
        } finally {
            for (int i = 0; i < props.length; i++) {
                if (old[i] == null) {
                    System.clearProperty(props[i][0]);
                } else {
                    System.setProperty(props[i][0], old[i]);
                }
            }
        }
    }

    /** GKL's IntelPairHmm (1 thread) or IntelPairHmmOMP, float (or double) precision, loaded by name. */
    static Engine gkl(boolean omp, int threads, boolean dbl) throws Unavailable {
        String cls = omp ? "com.intel.gkl.pairhmm.IntelPairHmmOMP" : "com.intel.gkl.pairhmm.IntelPairHmm";
        PairHMMNativeBinding b;
        try {
            b = (PairHMMNativeBinding) Class.forName(cls).getDeclaredConstructor().newInstance();
        } catch (Throwable t) {
            throw new Unavailable("GKL is not on the class path (" + t + ")");
        }
        boolean loaded;
        try {
            loaded = b.load(null);
        } catch (Throwable t) {
            throw new Unavailable("GKL native library failed to load (" + t + ")");
        }
        if (!loaded) {
            throw new Unavailable("GKL " + cls + ".load() returned false (no AVX, or not Linux/macOS x86-64)");
        }
        PairHMMNativeArguments args = new PairHMMNativeArguments();
        args.maxNumberOfThreads = threads;
        args.useDoublePrecision = dbl;
        try {
            b.initialize(args);
        } catch (Throwable t) {
            throw new Unavailable("GKL initialize failed (" + t + ")");
        }
        return new BindingEngine(omp ? "gkl-omp" : "gkl", "Intel GKL " + org.dpaccel.bench.BuildInfo.gklVersion()
            + " " + b.getClass().getSimpleName()
            + (dbl ? ", double, " : ", float, ") + threads + " thread(s)", b, threads, false);
    }
}
