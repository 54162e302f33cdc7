package org.dpaccel;

/**
 * Why a call failed; mirrors {@code dpa_status} in dpaccel.h. The codes are part of the ABI:
 * never renumber.
 */
public enum Status {
    /** Success (never carried by an exception). */
    OK(0),
    /** A required argument was null. */
    NULL_ARG(1),
    /** A value is outside its documented range. */
    INVALID_ARG(2),
    /** A size exceeds a documented limit or overflows. */
    LIMIT(3),
    /** Host memory allocation failed. */
    OUT_OF_MEMORY(4),
    /**
     * The request needs something this machine or build does not have: a backend, an ISA, or
     * the native library itself (no library for this platform, or it could not be loaded).
     */
    UNSUPPORTED(5),
    /** A GPU was required but no usable GPU or driver was found. */
    NO_DEVICE(6),
    /** A GPU error that could not be recovered from. */
    DEVICE(7),
    /** A bug in dpaccel; the message says where. */
    INTERNAL(8),
    /** A code this version of the Java classes does not know. */
    UNKNOWN(-1);

    private final int code;

    Status(int code) {
        this.code = code;
    }

    /**
     * The native {@code dpa_status} value.
     *
     * @return the code
     */
    public int code() {
        return code;
    }

    /**
     * The status with a native {@code dpa_status} value.
     *
     * @param code the value
     * @return the status, {@link #UNKNOWN} for a value not listed here
     */
    public static Status fromCode(int code) {
        for (Status s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return UNKNOWN;
    }
}
