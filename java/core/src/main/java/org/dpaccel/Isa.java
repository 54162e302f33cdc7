package org.dpaccel;

/** CPU instruction-set variants; mirrors {@code dpa_isa}. */
public enum Isa {
    SCALAR, AVX2, AVX512;

    public static Isa fromCode(int code) {
        return values()[code];
    }

    /** The name used everywhere (files, properties, logs): scalar, avx2, avx512. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
