package org.dpaccel.bench;

import java.io.PrintStream;

/**
 * A one-line progress bar on stderr for steps that take longer than {@link #DELAY_NS}: quiet for
 * quick steps, redrawn at most 10 times a second, erased when the step ends.
 */
public final class Progress {
    static final long DELAY_NS = 2_000_000_000L;
    private static final int WIDTH = 30;

    private final PrintStream err;
    private final boolean enabled;
    private String label = "";
    private long total, done, start, lastDraw;
    private boolean drawn;

    public Progress(PrintStream err, boolean enabled) {
        this.err = err;
        this.enabled = enabled;
    }

    /** On when stderr is a terminal (System.console() is not null), unless forced. */
    public static Progress auto(String mode) {
        boolean on = switch (mode) {
            case "on" -> true;
            case "off" -> false;
            default -> System.console() != null;
        };
        return new Progress(System.err, on);
    }

    public void start(String what, long steps) {
        finish();
        label = what;
        total = Math.max(1, steps);
        done = 0;
        start = System.nanoTime();
        lastDraw = 0;
    }

    public void label(String what) {
        label = what;
    }

    public void step(long n) {
        done += n;
        if (!enabled) {
            return;
        }
        long now = System.nanoTime();
        if (now - start < DELAY_NS || now - lastDraw < 100_000_000L) {
            return;
        }
        lastDraw = now;
        double f = Math.min(1.0, (double) done / total);
        int fill = (int) Math.round(f * WIDTH);
        double elapsed = (now - start) / 1e9;
        String eta = f > 0.02 ? String.format(" eta %.0fs", elapsed * (1 - f) / f) : "";
        err.print("\r[" + "#".repeat(fill) + " ".repeat(WIDTH - fill) + "] " + String.format("%3.0f%%", f * 100) + " "
            + label + eta + "   ");
        err.flush();
        drawn = true;
    }

    public void finish() {
        if (drawn) {
            err.print("\r" + " ".repeat(WIDTH + label.length() + 30) + "\r");
            err.flush();
            drawn = false;
        }
    }
}
