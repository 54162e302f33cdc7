package org.dpaccel.bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.dpaccel.bench.Correctness;
import org.dpaccel.bench.Machine;
import org.dpaccel.bench.Result;
import org.dpaccel.bench.data.Dataset;

/** The terminal table and the results folder: results.json, results.csv, report.html and its PNG plots. */
public final class Report {
    private Report() {
    }

    /** Everything about a run that is not a per-backend number. */
    public record Meta(Machine machine, Dataset dataset, String mode, int batch, int reps, int warmup, long seed,
        String args, String reference, int checkedRegions, long checkedCells, String baseline, String date,
        double expectedDiff) {
    }

    static final String[] COLUMNS = {"backend", "threads", "GCUPS", "pairs/s", "p50 ms", "p99 ms", "speed-up",
        "max |dev|", "check"};

    /** One row of the table as strings (terminal, HTML and CSV share it). */
    static String[] row(Result r, Result base) {
        if (!r.ran()) {
            return new String[] {r.backend, r.threads > 0 ? Integer.toString(r.threads) : "-", "-", "-", "-", "-", "-",
                "-", shorten(r.skipped != null ? "skipped: " + r.skipped : "ERROR: " + r.error, 90)};
        }
        String check = r.check == null ? "-" : r.check.ok() ? "ok (" + tol(r.check.tolerance()) + ")"
            : "FAIL " + r.check.failures() + " > " + tol(r.check.tolerance());
        return new String[] {r.backend, Integer.toString(r.threads), f3(r.gcups()), si(r.pairsPerSecond()),
            ms(r.p50()), ms(r.p99()), base == null ? "-" : String.format(Locale.ROOT, "%.2fx", r.speedup),
            r.check == null ? "-" : sci(r.check.maxDiff()), check};
    }

    public static void printTable(PrintStream out, List<Result> results, Result base) {
        int[] w = new int[COLUMNS.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = COLUMNS[i].length();
        }
        for (Result r : results) {
            String[] row = row(r, base);
            for (int i = 0; i < w.length - 1; i++) {
                w[i] = Math.max(w[i], row[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        appendRow(sb, COLUMNS, w);
        int total = 0;
        for (int x : w) {
            total += x + 2;
        }
        sb.append("-".repeat(Math.min(total + 10, 120))).append('\n');
        for (Result r : results) {
            appendRow(sb, row(r, base), w);
        }
        out.print(sb);
        if (base != null) {
            out.println("speed-up = GCUPS / GCUPS of " + base.label() + "; GCUPS and pairs/s are medians over reps; "
                + "latency = per call; max |dev| = log10 vs scalar double reference");
        }
    }

    private static void appendRow(StringBuilder sb, String[] row, int[] w) {
        for (int i = 0; i < row.length; i++) {
            boolean left = i == 0 || i == row.length - 1;
            String cell = row[i];
            if (i == row.length - 1) {
                sb.append(cell);
            } else if (left) {
                sb.append(cell).append(" ".repeat(w[i] - cell.length())).append("  ");
            } else {
                sb.append(" ".repeat(w[i] - cell.length())).append(cell).append("  ");
            }
        }
        sb.append('\n');
    }

    /** Lists every backend over its tolerance, with the offending pairs; true when any failed. */
    public static boolean printFailures(PrintStream out, List<Result> results, Dataset ds) {
        boolean failed = false;
        for (Result r : results) {
            if (r.error != null) {
                failed = true;
                out.println("\nFAILED " + r.backend + " x" + r.threads + ": " + r.error);
            }
            if (r.check != null && !r.check.ok()) {
                failed = true;
                out.printf(Locale.ROOT, "%nFAILED %s x%d: %d of %d checked pairs differ from the reference by more than "
                    + "%s (log10); first ones:%n", r.backend, r.threads, r.check.failures(), r.check.pairs(),
                    tol(r.check.tolerance()));
                out.println("  group   read    hap              value          reference        |diff|");
                for (Correctness.Offender o : r.check.offenders()) {
                    out.printf(Locale.ROOT, "  %5d  %5d  %5d  %17.10g  %17.10g  %12.4g%n", o.region(), o.read(), o.hap(),
                        o.value(), o.reference(), o.diff());
                }
            }
        }
        return failed;
    }

    public static void write(Path dir, Meta meta, List<Result> results) throws IOException {
        Files.writeString(dir.resolve("results.json"), json(meta, results), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("results.csv"), csv(results), StandardCharsets.UTF_8);
        boolean lenPlot = false, batPlot = false;
        try {
            Plot len = new Plot("PairHMM GCUPS vs sequence length", "read = haplotype length (16 reads x 4 haplotypes per "
                + "region, " + meta.batch() + " region(s) per call)", "GCUPS", false);
            Plot bat = new Plot("PairHMM GCUPS vs batch size (" + meta.dataset().name() + ")", "regions per call", "GCUPS",
                true);
            for (Result r : results) {
                if (r.ran()) {
                    len.add(r.label(), r.byLength);
                    bat.add(r.label(), r.byBatch);
                }
            }
            if (!len.isEmpty()) {
                len.write(dir.resolve("gcups_vs_length.png"));
                lenPlot = true;
            }
            if (!bat.isEmpty()) {
                bat.write(dir.resolve("gcups_vs_batch.png"));
                batPlot = true;
            }
        } catch (LinkageError | RuntimeException e) {
            System.err.println("dpaccel bench: no plots (" + e + "); a runtime with java.desktop draws them");
        }
        Files.writeString(dir.resolve("report.html"), html(meta, results, lenPlot, batPlot),
            StandardCharsets.UTF_8);
    }

    static String csv(List<Result> results) {
        StringBuilder sb = new StringBuilder(
            "backend,threads,status,gcups,pairs_per_s,p50_ms,p99_ms,speedup,max_abs_dev,tolerance,failures,checked_pairs,"
                + "median_s,cells,pairs,calls,detail\n");
        for (Result r : results) {
            String status = r.skipped != null ? "skipped" : r.error != null ? "error" : r.failedCheck() ? "fail" : "ok";
            sb.append(r.backend).append(',').append(r.threads).append(',').append(status).append(',');
            if (r.ran()) {
                sb.append(String.format(Locale.ROOT, "%.6g,%.6g,%.6g,%.6g,%.4g,%.3g,%.3g,%d,%d,%.6g,%d,%d,%d,",
                    r.gcups(), r.pairsPerSecond(), r.p50(), r.p99(), r.speedup, r.check.maxDiff(), r.check.tolerance(),
                    r.check.failures(), r.check.pairs(), r.seconds(), r.cells, r.pairs, r.calls));
            } else {
                sb.append(",,,,,,,,,,,,,");
            }
            String d = r.skipped != null ? r.skipped : r.error != null ? r.error : r.detail;
            sb.append('"').append(d.replace("\"", "\"\"")).append("\"\n");
        }
        return sb.toString();
    }

    static String json(Meta m, List<Result> results) {
        StringBuilder sb = new StringBuilder("{\n");
        kv(sb, 1, "tool", "dpaccel bench", true);
        kv(sb, 1, "date", m.date(), true);
        kv(sb, 1, "args", m.args(), true);
        sb.append("  \"machine\": {\n");
        kv(sb, 2, "cpu", m.machine().cpu(), true);
        sb.append("    \"cores\": ").append(m.machine().cores()).append(",\n");
        kv(sb, 2, "os", m.machine().os(), true);
        kv(sb, 2, "java", m.machine().java(), true);
        kv(sb, 2, "dpaccel_version", m.machine().dpaccelVersion(), true);
        kv(sb, 2, "dpaccel", m.machine().dpaccel(), false);
        sb.append("  },\n  \"dataset\": {\n");
        kv(sb, 2, "name", m.dataset().name(), true);
        kv(sb, 2, "description", m.dataset().description(), true);
        sb.append("    \"regions\": ").append(m.dataset().regions().size()).append(",\n");
        sb.append("    \"pairs\": ").append(m.dataset().pairs()).append(",\n");
        sb.append("    \"cells\": ").append(m.dataset().cells()).append(",\n");
        sb.append("    \"gatk_shaped\": ").append(m.dataset().gatkShaped()).append(",\n");
        sb.append("    \"seed\": ").append(m.seed()).append("\n  },\n");
        kv(sb, 1, "mode", m.mode(), true);
        sb.append("  \"regions_per_call\": ").append(m.batch()).append(",\n");
        sb.append("  \"reps\": ").append(m.reps()).append(",\n  \"warmup\": ").append(m.warmup()).append(",\n");
        kv(sb, 1, "reference", m.reference(), true);
        sb.append("  \"checked_regions\": ").append(m.checkedRegions()).append(",\n");
        sb.append("  \"checked_cells\": ").append(m.checkedCells()).append(",\n");
        sb.append("  \"reference_vs_file_expected\": ").append(num(m.expectedDiff())).append(",\n");
        kv(sb, 1, "baseline", m.baseline(), true);
        sb.append("  \"results\": [\n");
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            sb.append("    {");
            sb.append("\"backend\": ").append(str(r.backend)).append(", \"threads\": ").append(r.threads);
            sb.append(", \"detail\": ").append(str(r.detail));
            if (r.skipped != null) {
                sb.append(", \"skipped\": ").append(str(r.skipped));
            }
            if (r.error != null) {
                sb.append(", \"error\": ").append(str(r.error));
            }
            if (r.ran()) {
                sb.append(String.format(Locale.ROOT, ", \"gcups\": %s, \"pairs_per_s\": %s, \"p50_ms\": %s, \"p99_ms\": %s, "
                    + "\"speedup\": %s, \"median_s\": %s, \"cells\": %d, \"pairs\": %d, \"calls\": %d", num(r.gcups()),
                    num(r.pairsPerSecond()), num(r.p50()), num(r.p99()), num(r.speedup), num(r.seconds()), r.cells, r.pairs,
                    r.calls));
                sb.append(", \"rep_seconds\": ").append(arr(r.repSeconds));
                Correctness.Check c = r.check;
                sb.append(String.format(Locale.ROOT, ", \"check\": {\"ok\": %b, \"tolerance\": %s, \"max_abs_dev\": %s, "
                    + "\"pairs\": %d, \"failures\": %d, \"offenders\": [", c.ok(), num(c.tolerance()), num(c.maxDiff()),
                    c.pairs(), c.failures()));
                for (int k = 0; k < c.offenders().size(); k++) {
                    Correctness.Offender o = c.offenders().get(k);
                    sb.append(k > 0 ? ", " : "").append(String.format(Locale.ROOT,
                        "{\"group\": %d, \"read\": %d, \"hap\": %d, \"value\": %s, \"reference\": %s}", o.region(),
                        o.read(), o.hap(), num(o.value()), num(o.reference())));
                }
                sb.append("]}");
                sb.append(", \"gcups_by_length\": ").append(map(r.byLength));
                sb.append(", \"gcups_by_batch\": ").append(map(r.byBatch));
            }
            sb.append(i + 1 < results.size() ? "},\n" : "}\n");
        }
        sb.append("  ]\n}\n");
        return sb.toString();
    }

    static String html(Meta m, List<Result> results, boolean lenPlot, boolean batchPlot) {
        Result base = results.stream().filter(r -> r.ran() && r.backend.equals(m.baseline())).findFirst().orElse(null);
        StringBuilder sb = new StringBuilder("""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>dpaccel bench: PairHMM</title>
            <style>
            body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}
            table{border-collapse:collapse;margin:1em 0}td,th{padding:4px 10px;border-bottom:1px solid #ddd}
            td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f4f4f4;text-align:left}
            tr.fail td{background:#fde2e2}tr.skip td{color:#888}code{background:#f4f4f4;padding:1px 4px}
            dt{font-weight:600;margin-top:.4em}
            </style></head><body>
            <h1>dpaccel bench: PairHMM</h1>
            """);
        sb.append("<p>").append(esc(m.date())).append(" &middot; <code>dpaccel bench ").append(esc(m.args()))
            .append("</code></p>\n<h2>Machine</h2><ul>");
        sb.append("<li>CPU: ").append(esc(m.machine().cpu())).append(", ").append(m.machine().cores())
            .append(" cores</li><li>OS: ").append(esc(m.machine().os())).append("</li><li>JVM: ")
            .append(esc(m.machine().java())).append("</li><li>dpaccel ").append(esc(m.machine().dpaccelVersion()))
            .append(": ").append(esc(m.machine().dpaccel())).append("</li></ul>\n<h2>Data set</h2><p>")
            .append(esc(m.dataset().name())).append(": ").append(esc(m.dataset().description()))
            .append(String.format(Locale.ROOT, "<br>%d regions, %,d read x haplotype pairs, %.3f Gcells; mode <code>%s</code>, "
                + "%d region(s) per call, %d warm-up + %d timed passes.</p>%n", m.dataset().regions().size(),
                m.dataset().pairs(), m.dataset().cells() / 1e9, m.mode(), m.batch(), m.warmup(), m.reps()));
        sb.append("<h2>Results</h2>\n<table><tr>");
        for (String c : COLUMNS) {
            sb.append("<th>").append(esc(c)).append("</th>");
        }
        sb.append("</tr>\n");
        for (Result r : results) {
            String[] row = row(r, base);
            sb.append("<tr").append(!r.ran() && r.skipped != null ? " class=\"skip\"" : r.failedCheck()
                ? " class=\"fail\"" : "").append(">");
            for (int i = 0; i < row.length; i++) {
                sb.append(i == 0 || i == row.length - 1 ? "<td>" : "<td class=\"n\">").append(esc(row[i])).append("</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</table>\n<p>What runs in each row:</p><ul>");
        for (Result r : results) {
            if (r.ran()) {
                sb.append("<li><b>").append(esc(r.label())).append("</b>: ").append(esc(r.detail)).append("</li>");
            }
        }
        sb.append("</ul>\n");
        sb.append("<p>Correctness: ").append(m.checkedRegions()).append(" regions (")
            .append(String.format(Locale.ROOT, "%.3f", m.checkedCells() / 1e9)).append(" Gcells) of every backend compared with ")
            .append(esc(m.reference())).append(".");
        if (!Double.isNaN(m.expectedDiff())) {
            sb.append(String.format(Locale.ROOT, " The reference differs from the file's expected values by at most %.3g.",
                m.expectedDiff()));
        }
        sb.append("</p>\n");
        for (Result r : results) {
            if (r.check != null && !r.check.ok()) {
                sb.append("<h3>").append(esc(r.label())).append(": ").append(r.check.failures())
                    .append(" pairs over tolerance</h3><table><tr><th>group</th><th>read</th><th>hap</th><th>value</th>"
                        + "<th>reference</th><th>|diff|</th></tr>");
                for (Correctness.Offender o : r.check.offenders()) {
                    sb.append(String.format(Locale.ROOT, "<tr><td>%d</td><td>%d</td><td>%d</td><td class=\"n\">%.10g</td>"
                        + "<td class=\"n\">%.10g</td><td class=\"n\">%.3g</td></tr>", o.region(), o.read(), o.hap(),
                        o.value(), o.reference(), o.diff()));
                }
                sb.append("</table>\n");
            }
        }
        if (lenPlot) {
            sb.append("<h2>GCUPS vs sequence length</h2><p>Each point: regions of 16 reads x 4 haplotypes, read length = "
                + "haplotype length, ").append(m.batch()).append(" region(s) per call.</p>"
                + "<img src=\"gcups_vs_length.png\" alt=\"GCUPS vs length\" width=\"900\">\n");
        }
        if (batchPlot) {
            sb.append("<h2>GCUPS vs batch size</h2><p>Regions of the data set per call (GKL and <code>--mode gatk</code> "
                + "always make one native call per region).</p><img src=\"gcups_vs_batch.png\" alt=\"GCUPS vs batch size\" "
                + "width=\"900\">\n");
        }
        sb.append("""
            <h2>Columns</h2><dl>
            <dt>GCUPS</dt><dd>giga cell updates per second: sum of read length x haplotype length over all pairs, divided by
            the median wall time of a pass over the data set.</dd>
            <dt>pairs/s</dt><dd>read x haplotype likelihoods per second (median pass).</dd>
            <dt>p50 ms, p99 ms</dt><dd>latency of one call (one region per call by default, as HaplotypeCaller calls
            computeLikelihoods), over all timed passes.</dd>
            <dt>speed-up</dt><dd>GCUPS relative to the baseline row.</dd>
            <dt>max |dev|</dt><dd>largest absolute difference in log10 likelihood from dpaccel's scalar double-precision
            reference over the checked regions.</dd>
            <dt>check</dt><dd>ok when every checked pair is within tolerance: 1e-5 for dpaccel backends on GATK-shaped data,
            1e-4 otherwise (incumbents, stress data).</dd></dl>
            </body></html>
            """);
        return sb.toString();
    }

    private static void kv(StringBuilder sb, int indent, String k, String v, boolean comma) {
        sb.append("  ".repeat(indent)).append(str(k)).append(": ").append(str(v)).append(comma ? ",\n" : "\n");
    }

    static String str(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    static String num(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.6g", v) : "null";
    }

    private static String arr(double[] a) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < a.length; i++) {
            sb.append(i > 0 ? ", " : "").append(num(a[i]));
        }
        return sb.append(']').toString();
    }

    private static String map(Map<Integer, Double> m) {
        StringBuilder sb = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<Integer, Double> e : m.entrySet()) {
            sb.append(first ? "" : ", ").append('"').append(e.getKey()).append("\": ").append(num(e.getValue()));
            first = false;
        }
        return sb.append('}').toString();
    }

    static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String f3(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String ms(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : v >= 1 ? String.format(Locale.ROOT, "%.2f", v)
            : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String si(double v) {
        if (v >= 1e9) {
            return String.format(Locale.ROOT, "%.2f G", v / 1e9);
        }
        if (v >= 1e6) {
            return String.format(Locale.ROOT, "%.2f M", v / 1e6);
        }
        if (v >= 1e3) {
            return String.format(Locale.ROOT, "%.1f k", v / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", v);
    }

    private static String sci(double v) {
        return v == 0 ? "0" : Double.isInfinite(v) ? "inf" : String.format(Locale.ROOT, "%.1e", v);
    }

    private static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }

    private static String tol(double t) {
        return String.format(Locale.ROOT, "%.0e", t);
    }
}
