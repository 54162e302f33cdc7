package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.dpaccel.Config;
import org.dpaccel.DpaContext;
import org.dpaccel.DpaccelException;
import org.dpaccel.bench.Progress;
import org.dpaccel.bench.data.InputFormatException;
import org.dpaccel.pdhmm.Pdhmm;
import org.dpaccel.pdhmm.PdhmmBatch;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code dpaccel pdhmm FILE}: GATK's partially-determined PairHMM, one log10 likelihood per pair. */
@Command(name = "pdhmm", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    description = {"Partially-determined PairHMM (GATK's LoglessPDPairHMM, docs/pdhmm.md) of every pair of FILE; "
        + "prints one log10 likelihood per pair, in file order.",
        "FILE: GKL 0.9.1's PDHMM test format: 'hap-bases hap-pd-bases read-bases read-qual read-ins-qual "
            + "read-del-qual gcp [expected-result]' (tab-separated; PD bytes as [-68, 16]; qualities phred+33; "
            + "# lines skipped).",
        "--check compares every value with the expected-result column: exit 0 all within tolerance, 1 a pair "
            + "differs, 2 bad input."})
final class PdhmmCommand implements Callable<Integer> {
    /** Pairs per native call, and bytes per packed array (the builder pads every slot to the longest). */
    static final int CHUNK_PAIRS = 1 << 16, CHUNK_SLOT_BYTES = 1 << 28;
    /** Mismatching pairs listed on stderr by --check. */
    static final int LISTED = 10;

    private static final Pattern NATIVE_PAIR =
        Pattern.compile("pdhmm batch: pair (\\d+): (.*?)(?: \\(DPA_ERR_\\w+\\))?$", Pattern.DOTALL);

    @ParentCommand
    DpaccelCommand top;

    @Mixin
    CommonOptions common;

    @Parameters(index = "0", paramLabel = "FILE", description = "PDHMM pairs (GKL's test format)")
    Path input;

    @Option(names = "--rows", paramLabel = "gatk|gkl", defaultValue = "gatk",
        description = "row start semantics: gatk (GATK's Java, default) or gkl (GKL 0.9.1's native IntelPDHMM); "
            + "they differ only when a haplotype ends inside a deletion (docs/pdhmm.md)")
    String rows;

    @Option(names = "--check", description = "compare with the expected-result column (required then); the "
        + "verdict goes to stderr, exit 1 when a pair is outside the tolerance")
    boolean check;

    @Option(names = "--tolerance", paramLabel = "ABS", defaultValue = "1e-5",
        description = "--check: absolute tolerance (default 1e-5)")
    double absTolerance;

    @Option(names = "--rel-tolerance", paramLabel = "REL", defaultValue = "1e-6",
        description = "--check: relative tolerance (default 1e-6); a pair passes when |value - expected| <= "
            + "max(ABS, REL x |expected|)")
    double relTolerance;

    @Override
    public Integer call() throws IOException {
        Integer child = Devices.restartIfNeeded(common, top);
        if (child != null) {
            return child;
        }
        Config config = common.config(); // option errors before any file is read
        Pdhmm.Rows mode = switch (rows.toLowerCase(Locale.ROOT)) {
            case "gatk" -> Pdhmm.Rows.GATK;
            case "gkl" -> Pdhmm.Rows.GKL;
            default -> throw new ParameterException(common.spec.commandLine(), "--rows " + rows
                + ": must be gatk or gkl");
        };
        if (!(absTolerance >= 0) || !(relTolerance >= 0) || Double.isInfinite(absTolerance)
            || Double.isInfinite(relTolerance)) {
            throw new ParameterException(common.spec.commandLine(), "--tolerance and --rel-tolerance must be "
                + "finite and >= 0");
        }
        common.quietLogs();
        List<PdhmmInputs.Pair> pairs;
        try (BufferedReader in = Inputs.open(input)) {
            pairs = PdhmmInputs.read(in, input.toString(), check);
        }
        double[] res = compute(pairs, mode, config);
        try (OutputFile o = OutputFile.open(common.output, top.out)) {
            PrintStream ps = o.stream();
            for (double v : res) {
                ps.println(PairHmmCommand.format(v));
            }
            o.commit();
        }
        return check ? check(pairs, res) : ExitCodes.OK;
    }

    private double[] compute(List<PdhmmInputs.Pair> pairs, Pdhmm.Rows mode, Config config) throws IOException {
        double[] out = new double[pairs.size()];
        Progress progress = common.progress(top.err);
        try (DpaContext ctx = DpaContext.create(config)) {
            progress.start("pdhmm " + input.getFileName(), pairs.size());
            int from = 0;
            while (from < pairs.size()) {
                PdhmmBatch.Builder b = PdhmmBatch.builder();
                int to = from, longest = 1;
                while (to < pairs.size() && to - from < CHUNK_PAIRS) {
                    PdhmmInputs.Pair p = pairs.get(to);
                    int l = Math.max(longest, Math.max(p.hap().length, p.read().length));
                    if (to > from && (long) (to - from + 1) * l > CHUNK_SLOT_BYTES) {
                        break;
                    }
                    longest = l;
                    b.add(p.hap(), p.pd(), p.read(), p.qual(), p.ins(), p.del(), p.gcp());
                    to++;
                }
                double[] r;
                try {
                    r = Pdhmm.compute(ctx, b.build(), mode, common.backend, null);
                } catch (DpaccelException e) {
                    throw located(e, pairs, from);
                }
                System.arraycopy(r, 0, out, from, r.length);
                progress.step(to - from);
                from = to;
            }
        } finally {
            progress.finish();
        }
        return out;
    }

    /** The native check names a pair of the chunk; the user needs the file's line. */
    private IOException located(DpaccelException e, List<PdhmmInputs.Pair> pairs, int from) {
        Matcher m = NATIVE_PAIR.matcher(e.getMessage() == null ? "" : e.getMessage());
        if (Errors.isBadInput(e) && m.find()) {
            int k = from + Integer.parseInt(m.group(1));
            if (k < pairs.size()) {
                InputFormatException x = new InputFormatException(input.toString(), pairs.get(k).line(),
                    PdhmmInputs.COLUMNS[2], m.group(2));
                x.initCause(e);
                return x;
            }
        }
        throw e;
    }

    private int check(List<PdhmmInputs.Pair> pairs, double[] res) {
        int bad = 0, worstLine = 0;
        double worst = 0;
        for (int i = 0; i < res.length; i++) {
            double want = pairs.get(i).expected(), got = res[i];
            double diff = want == got ? 0 : Math.abs(got - want); // -inf == -inf
            boolean ok = diff <= Math.max(absTolerance, relTolerance * Math.abs(want));
            if (!(diff <= worst) || worstLine == 0) {
                worst = diff;
                worstLine = pairs.get(i).line();
            }
            if (!ok) {
                if (bad < LISTED) {
                    top.err.println("dpaccel pdhmm: " + input + " line " + pairs.get(i).line() + ": "
                        + PairHmmCommand.format(got) + ", expected " + PairHmmCommand.format(want) + " (|diff| "
                        + String.format(Locale.ROOT, "%.3e", diff) + ")");
                }
                bad++;
            }
        }
        String tol = "max(" + absTolerance + ", " + relTolerance + " x |expected|)";
        if (bad > 0) {
            top.err.println("dpaccel pdhmm: check FAILED: " + bad + " of " + res.length + " pairs differ from the "
                + "expected column by more than " + tol);
            return ExitCodes.INTERNAL;
        }
        if (!common.quiet) {
            top.err.println("dpaccel pdhmm: check ok: " + res.length + " pairs within " + tol + "; largest |diff| "
                + String.format(Locale.ROOT, "%.3e", worst) + " (line " + worstLine + ")");
        }
        return ExitCodes.OK;
    }
}
