package org.dpaccel;

/** Mirrors {@code dpa_status} in dpaccel.h. The codes are part of the ABI: never renumber. */
public enum Status {
    OK(0), NULL_ARG(1), INVALID_ARG(2), LIMIT(3), OUT_OF_MEMORY(4), UNSUPPORTED(5),
    NO_DEVICE(6), DEVICE(7), INTERNAL(8), UNKNOWN(-1);

    private final int code;

    Status(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static Status fromCode(int code) {
        for (Status s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return UNKNOWN;
    }
}
