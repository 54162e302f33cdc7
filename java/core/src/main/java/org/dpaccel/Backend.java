package org.dpaccel;

import java.util.Locale;

/** Where a batch runs; mirrors {@code dpa_backend}. */
public enum Backend {
    /** The cost model picks the GPU when one is present and the batch is large enough to win. */
    AUTO(0),
    CPU(1),
    /** Forced GPU; fails with {@link Status#NO_DEVICE} when no GPU is usable. */
    GPU(2),
    /** CPU threads and every GPU take work from one queue. */
    HYBRID(3);

    private final int code;

    Backend(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** Parses "auto", "cpu", "gpu" (or "cuda"), "hybrid", case-insensitively. */
    public static Backend parse(String s, String source) {
        String v = s.trim().toLowerCase(Locale.ROOT);
        if (v.equals("cuda")) {
            return GPU;
        }
        for (Backend b : values()) {
            if (b.name().toLowerCase(Locale.ROOT).equals(v)) {
                return b;
            }
        }
        throw new IllegalArgumentException(source + " = '" + s + "': expected auto, cpu, gpu or hybrid");
    }
}
