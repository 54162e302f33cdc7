package org.dpaccel.cli;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * C's {@code printf("%.Pg")} for doubles, as glibc writes it (PLINK writes its matrices with
 * {@code %g}; Java's own %g keeps trailing zeros and switches to exponents at other points).
 * The double's exact value is rounded half-even to P significant digits (glibc rounds the exact
 * binary value, where a tie is rare), then written fixed when the exponent is in [-4, P) and
 * as {@code d.ddde[+-]XX} otherwise, trailing zeros removed.
 */
final class CFormat {
    private CFormat() {
    }

    static String g(double v, int precision) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return (1 / v < 0) ? "-0" : "0";
        }
        BigDecimal r = new BigDecimal(v).round(new MathContext(precision, RoundingMode.HALF_EVEN));
        int exp = r.precision() - r.scale() - 1;
        if (exp < -4 || exp >= precision) {
            BigDecimal mant = r.movePointLeft(exp);
            String m = strip(mant.toPlainString());
            String e = String.valueOf(Math.abs(exp));
            return m + "e" + (exp < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
        }
        return strip(r.toPlainString());
    }

    private static String strip(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }
}
