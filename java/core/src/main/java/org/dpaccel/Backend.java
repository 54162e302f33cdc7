package org.dpaccel;

import java.util.Locale;

/** Where a batch runs; mirrors {@code dpa_backend} in dpaccel.h. */
public enum Backend {
    /** The cost model picks the GPU when one is present and the batch is large enough to win. */
    AUTO(0),
    /** CPU threads only, even when a GPU is present. */
    CPU(1),
    /** Forced GPU; fails with {@link Status#NO_DEVICE} when no GPU is usable. */
    GPU(2),
    /** CPU threads and every GPU take work from one queue. */
    HYBRID(3);

    private final int code;

    Backend(int code) {
        this.code = code;
    }

    /**
     * The native {@code dpa_backend} value.
     *
     * @return the code
     */
    public int code() {
        return code;
    }

    /**
     * The backend with a native {@code dpa_backend} value.
     *
     * @param code the value
     * @return the backend
     * @throws IllegalArgumentException if no backend has that value
     */
    public static Backend fromCode(int code) {
        for (Backend b : values()) {
            if (b.code == code) {
                return b;
            }
        }
        throw new IllegalArgumentException("no dpaccel backend has code " + code);
    }

    /**
     * Parses "auto", "cpu", "gpu" (or "cuda"), "hybrid", case-insensitively.
     *
     * @param s the text
     * @param source where the text came from, named in the error (e.g. "dpaccel.backend")
     * @return the backend
     * @throws IllegalArgumentException if {@code s} names no backend
     */
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
