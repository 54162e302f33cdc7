package org.dpaccel.gatk.dropin;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import org.broadinstitute.gatk.nativebindings.pairhmm.HaplotypeDataHolder;
import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeArguments;
import org.broadinstitute.gatk.nativebindings.pairhmm.ReadDataHolder;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWNativeAlignerResult;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWOverhangStrategy;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWParameters;
import org.dpaccel.Dpaccel;
import org.dpaccel.gatk.trace.TraceRecord;
import org.dpaccel.gatk.trace.TraceWriter;

/**
 * The drop-in's opt-in recorder ({@code -Ddpaccel.gatk.trace=FILE}; {@code %p} in FILE becomes the
 * process id, for Spark executors): every PairHMM initialize and computeLikelihoods call, every
 * PDHMM computeLikelihoods call (GATK 4.7's; GKL's flat computePDHMM is not recorded) and every Smith-Waterman align call that reaches the drop-in, with its
 * inputs, its result, the caller's
 * thread and the time the call took on whichever engine served it (dpaccel, or Intel GKL with the
 * drop-in's off switch). The file is complete when the JVM exits (a shutdown hook closes it); the
 * replay tool ({@link Replay}) reads it. A write error stops the recording with one warning and
 * never reaches GATK.
 */
final class DropInTrace {
    /** The trace file property. */
    static final String PROPERTY = "dpaccel.gatk.trace";
    private static final Logger LOG = System.getLogger("org.dpaccel.gatk");
    private static volatile TraceWriter writer;
    private static volatile boolean opened;

    private DropInTrace() {
    }

    /** The writer, opened on first use when the property is set; null when not recording. */
    static TraceWriter writer() {
        return opened ? writer : open();
    }

    private static synchronized TraceWriter open() {
        if (opened) {
            return writer;
        }
        opened = true;
        String p = System.getProperty(PROPERTY);
        if (p == null || p.isBlank()) {
            return null;
        }
        Path path = Paths.get(p.trim().replace("%p", Long.toString(ProcessHandle.current().pid()))).toAbsolutePath();
        try {
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            TraceWriter w = new TraceWriter(path, "dpaccel-gatk-dropin "
                + Dpaccel.class.getPackage().getImplementationVersion() + "; java " + System.getProperty("java.version")
                + "; " + Runtime.getRuntime().availableProcessors() + " processors; " + System.getProperty("os.arch"));
            try {
                Runtime.getRuntime().addShutdownHook(new Thread(DropInTrace::close, "dpaccel-gatk-trace"));
            } catch (RuntimeException e) {
                w.abandon(); // the JVM is shutting down already: nothing would finish the trace
                throw e;
            }
            writer = w;
            LOG.log(Level.INFO, "dpaccel GATK drop-in: recording kernel calls to " + path + " (complete at exit)");
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "dpaccel GATK drop-in: cannot record a trace to " + path + ": " + e);
            writer = null;
        }
        return writer;
    }

    /** Closes the trace (the shutdown hook; tests call it to finish a trace in-process). */
    static synchronized void close() {
        if (writer != null) {
            try {
                writer.close(DropInStats.engine(), DropInStats.swEngine());
            } catch (IOException e) {
                LOG.log(Level.WARNING, "dpaccel GATK drop-in: the trace could not be finished: " + e);
            }
            writer = null;
        }
    }

    /** Forgets the closed writer so that the next call opens the property's file again (tests). */
    static synchronized void reset() {
        close();
        opened = false;
    }

    /** Gives the recording up after an error; GATK never sees it. */
    private static synchronized void fail(TraceWriter w, Exception e) {
        if (writer == w) {
            writer = null;
            w.abandon();
            LOG.log(Level.WARNING, "dpaccel GATK drop-in: recording stopped and the partial trace deleted: " + e);
        }
    }

    static void pairHmmInit(String gklClass, PairHMMNativeArguments args) {
        TraceWriter w = writer();
        if (w == null) {
            return;
        }
        try {
            w.write(new TraceRecord.PairHmmInit(Thread.currentThread().getId(), w.at(System.nanoTime()), gklClass,
                args == null ? 1 : args.maxNumberOfThreads, args != null && args.useDoublePrecision));
        } catch (IOException | RuntimeException e) {
            fail(w, e);
        }
    }

    static void pairHmm(ReadDataHolder[] reads, HaplotypeDataHolder[] haps, double[] out, long t0, long nanos) {
        TraceWriter w = writer();
        if (w == null) {
            return;
        }
        try {
            byte[][][] r = new byte[reads.length][][];
            for (int i = 0; i < reads.length; i++) {
                ReadDataHolder d = reads[i];
                r[i] = new byte[][] { d.readBases, d.readQuals, d.insertionGOP, d.deletionGOP, d.overallGCP };
            }
            byte[][] h = new byte[haps.length][];
            for (int i = 0; i < haps.length; i++) {
                h[i] = haps[i].haplotypeBases;
            }
            w.write(new TraceRecord.PairHmm(Thread.currentThread().getId(), w.at(t0), nanos, r, h, out));
        } catch (IOException | RuntimeException e) {
            fail(w, e);
        }
    }

    static void pdhmm(byte[][][] reads, byte[][][] haps, int batch, int lanes, String carriedRows, double[] out,
        long t0, long nanos) {
        TraceWriter w = writer();
        if (w == null) {
            return;
        }
        try {
            w.write(new TraceRecord.Pdhmm(Thread.currentThread().getId(), w.at(t0), nanos, batch, lanes, carriedRows,
                reads, haps, out));
        } catch (IOException | RuntimeException e) {
            fail(w, e);
        }
    }

    static void sw(byte[] ref, byte[] alt, SWParameters p, SWOverhangStrategy s, SWNativeAlignerResult result,
        long t0, long nanos) {
        TraceWriter w = writer();
        if (w == null) {
            return;
        }
        try {
            int[] scores = { p.getMatchValue(), p.getMismatchPenalty(), p.getGapOpenPenalty(),
                p.getGapExtendPenalty() };
            w.write(new TraceRecord.Sw(Thread.currentThread().getId(), w.at(t0), nanos, ref, alt, scores, s.ordinal(),
                result.cigar, result.alignment_offset));
        } catch (IOException | RuntimeException e) {
            fail(w, e);
        }
    }
}
