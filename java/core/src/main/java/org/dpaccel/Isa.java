package org.dpaccel;

import java.util.Locale;

/** CPU instruction-set variants of the kernels; mirrors {@code dpa_isa} in dpaccel.h. */
public enum Isa {
    /** Portable C, no vector extensions. */
    SCALAR,
    /** AVX2 with FMA and BMI1/2, 256-bit vectors. */
    AVX2,
    /** AVX-512 F, BW, DQ and VL, 512-bit vectors. */
    AVX512;

    /**
     * The ISA with a native {@code dpa_isa} value (its ordinal).
     *
     * @param code the value
     * @return the ISA
     * @throws IllegalArgumentException if no ISA has that value
     */
    public static Isa fromCode(int code) {
        Isa[] all = values();
        if (code < 0 || code >= all.length) {
            throw new IllegalArgumentException("no dpaccel ISA has code " + code);
        }
        return all[code];
    }

    /**
     * The name used everywhere (files, properties, logs).
     *
     * @return "scalar", "avx2" or "avx512"
     */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
