package org.dpaccel.cli;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * C's {@code printf("%.Pg")} for doubles, as glibc writes it (PLINK writes its matrices with
 * {@code %g}; Java's own %g keeps trailing zeros and switches to exponents at other points).
 * The double's exact value is rounded half-even to P significant digits (glibc rounds the exact
 * binary value), then written fixed when the exponent is in [-4, P) and as {@code d.ddde[+-]XX}
 * otherwise, trailing zeros removed.
 *
 * <p>Three paths, one result: up to 15 digits a double product scales the value to P digits;
 * its error (under 1e-9 of a unit in the last digit) can only matter within that distance of a
 * rounding boundary, so a scaled value whose fraction is within 1e-4 of one half goes to the
 * exact path, {@code new BigDecimal(v)}. For 16 and 17 digits (the command's default
 * "roundtrip" text) the product by an exact power of ten is taken exactly as the pair
 * {@code hi + lo} ({@code lo = fma(v, 10^k, -hi)} is the product's rounding error, itself a
 * double): at 16-17 digits hi is an integer, so the digits and the fraction that decides the
 * rounding are exact. Values outside 1e-6..1e16 take the exact path. The fast paths made the
 * command's 4 million values per square matrix several times cheaper.
 */
final class CFormat {
    private static final double[] POW10 = new double[23];
    private static final long[] LPOW10 = new long[19];

    static {
        double p = 1;
        for (int k = 0; k < POW10.length; k++, p *= 10) {
            POW10[k] = p; // exact up to 10^22
        }
        long q = 1;
        for (int k = 0; k < LPOW10.length; k++, q *= 10) {
            LPOW10[k] = q;
        }
    }

    private CFormat() {
    }

    /** Longest text {@link #put} writes for precision up to 17: "-0.000" + 17 digits, or
     * "-d." + 16 digits + "e-308". */
    static final int MAX_CHARS = 32;

    static String g(double v, int precision) {
        if (precision > 17) {
            return slow(v, precision);
        }
        byte[] b = new byte[MAX_CHARS];
        int n = put(v, precision, b, 0);
        return new String(b, 0, n, StandardCharsets.US_ASCII);
    }

    /**
     * Writes {@code g(v, precision)} as ASCII into b from index at (at least {@link #MAX_CHARS}
     * bytes of room) and returns the index after it: the square matrices' millions of values
     * go straight into the output buffer, with no String or StringBuilder each.
     * Precision 1..17.
     */
    static int put(double v, int precision, byte[] b, int at) {
        if (Double.isNaN(v) || Double.isInfinite(v) || v == 0) {
            String s = Double.isNaN(v) ? "nan" : Double.isInfinite(v) ? (v > 0 ? "inf" : "-inf")
                : (1 / v < 0) ? "-0" : "0";
            for (int k = 0; k < s.length(); k++) {
                b[at++] = (byte) s.charAt(k);
            }
            return at;
        }
        int r = precision <= 15 ? fast(v, precision, b, at) : fastExact(v, precision, b, at);
        if (r >= 0) {
            return r;
        }
        BigDecimal x = new BigDecimal(v).round(new MathContext(precision, RoundingMode.HALF_EVEN));
        int exp = x.precision() - x.scale() - 1;
        return layout(x.unscaledValue().abs().longValueExact(), exp, precision, v < 0, b, at);
    }

    /** The whole exact path as a String (any precision; the reference the fast paths equal). */
    static String slow(double v, int precision) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return (1 / v < 0) ? "-0" : "0";
        }
        return exact(v, precision);
    }

    /** The exact path: BigDecimal of the double's binary value, rounded half-even. */
    static String exact(double v, int precision) {
        BigDecimal r = new BigDecimal(v).round(new MathContext(precision, RoundingMode.HALF_EVEN));
        int exp = r.precision() - r.scale() - 1;
        return layout(r.unscaledValue().abs().toString(), exp, precision, v < 0);
    }

    /** -1 when the value is too close to a rounding boundary (or out of the table's range). */
    private static int fast(double v, int precision, byte[] b, int at) {
        double a = Math.abs(v);
        int e = decimalExponent(a);
        for (int attempt = 0; attempt < 2; attempt++) {
            int k = precision - 1 - e;
            if (k > 22 && attempt == 0) {
                e++; // the estimate may be one low
                continue;
            }
            if (k > 22 || k < -22) {
                return -1;
            }
            double scaled = k >= 0 ? a * POW10[k] : a / POW10[-k];
            if (scaled >= LPOW10[precision]) {
                e++;
                continue;
            }
            if (scaled < LPOW10[precision - 1]) {
                e--;
                continue;
            }
            double fl = Math.floor(scaled);
            double frac = scaled - fl;
            if (Math.abs(frac - 0.5) < 1e-4 || frac < 1e-9 || frac > 1 - 1e-9) {
                return -1; // near a tie, or near an integer where the floor itself may be off
            }
            long digits = (long) fl + (frac > 0.5 ? 1 : 0);
            if (digits == LPOW10[precision]) {
                digits = LPOW10[precision - 1];
                e++;
            }
            return layout(digits, precision, e, precision, v < 0, b, at);
        }
        return -1;
    }

    /**
     * 16-17 digits from the exact product v x 10^k = hi + lo (k in 0..22, so 10^k is exact);
     * -1 when v is outside the range that allows it.
     */
    private static int fastExact(double v, int precision, byte[] b, int at) {
        double a = Math.abs(v);
        int e = decimalExponent(a);
        for (int attempt = 0; attempt < 2; attempt++) {
            int k = precision - 1 - e;
            if (k > 22 && attempt == 0) {
                e++; // the estimate may be one low
                continue;
            }
            if (k < 0 || k > 22) {
                return -1;
            }
            double p = POW10[k];
            double hi = a * p;
            if (hi >= LPOW10[precision]) {
                e++;
                continue;
            }
            if (hi < LPOW10[precision - 1]) {
                e--;
                continue;
            }
            // hi >= 10^15 > 2^53 / 9: for 16-17 digits hi >= 10^15, and every double from
            // 2^53 up is an integer; 10^15..2^53 needs the check below
            if (hi != Math.rint(hi)) {
                return -1;
            }
            double lo = Math.fma(a, p, -hi);
            double fl = Math.floor(lo);
            double frac = lo - fl;
            long digits = (long) hi + (long) fl;
            if (frac > 0.5 || (frac == 0.5 && (digits & 1) != 0)) {
                digits++;
            }
            if (digits < LPOW10[precision - 1]) {
                return -1; // the exact product fell just below the range: rare, take the exact path
            }
            if (digits == LPOW10[precision]) {
                digits = LPOW10[precision - 1];
                e++;
            }
            return layout(digits, precision, e, precision, v < 0, b, at);
        }
        return -1;
    }

    /**
     * floor(log10(a)) for a normal positive double, or one less: the binary exponent times
     * log10(2) (the callers' loops correct the estimate by one when the scaled value leaves
     * its range). Math.log10 cost more than the rest of the fast path.
     */
    private static int decimalExponent(double a) {
        int e2 = Math.getExponent(a);
        return (int) Math.floor(e2 * 0.30102999566398120);
    }

    /**
     * digits (no leading zeros) x 10^(exp - ndigits + 1), written the %g way into b at `at`;
     * returns the end. The same text as the String layout below.
     */
    private static int layout(long digits, int exp, int precision, boolean negative, byte[] b, int at) {
        int nd = 1;
        while (nd < 19 && digits >= LPOW10[nd]) {
            nd++;
        }
        return layout(digits, nd, exp, precision, negative, b, at);
    }

    /** The same with nd, the number of digits of `digits`, known by the caller. */
    private static int layout(long digits, int nd, int exp, int precision, boolean negative, byte[] b, int at) {
        while (nd > 1 && digits % 10 == 0) {
            digits /= 10;
            nd--;
        }
        if (negative) {
            b[at++] = '-';
        }
        if (exp < -4 || exp >= precision) {
            at = digitsAt(digits, nd, b, at, 1);
            b[at++] = 'e';
            b[at++] = (byte) (exp < 0 ? '-' : '+');
            int x = Math.abs(exp);
            if (x >= 100) {
                b[at++] = (byte) ('0' + x / 100);
            }
            b[at++] = (byte) ('0' + x / 10 % 10);
            b[at++] = (byte) ('0' + x % 10);
            return at;
        }
        if (exp < 0) {
            b[at++] = '0';
            b[at++] = '.';
            for (int k = -1; k > exp; k--) {
                b[at++] = '0';
            }
            return digitsAt(digits, nd, b, at, nd);
        }
        if (nd <= exp + 1) {
            at = digitsAt(digits, nd, b, at, nd);
            for (int k = nd; k <= exp; k++) {
                b[at++] = '0';
            }
            return at;
        }
        return digitsAt(digits, nd, b, at, exp + 1);
    }

    /** "00".."99": two digits a step, the writer's inner loop. */
    private static final byte[] PAIRS = new byte[200];

    static {
        for (int k = 0; k < 100; k++) {
            PAIRS[2 * k] = (byte) ('0' + k / 10);
            PAIRS[2 * k + 1] = (byte) ('0' + k % 10);
        }
    }

    /** The nd digits of d at b[at..], with a '.' after the first `point` of them when point < nd. */
    private static int digitsAt(long d, int nd, byte[] b, int at, int point) {
        boolean dot = point < nd;
        int end = at + nd + (dot ? 1 : 0);
        if (dot) {
            // the digits after the point go first, right to left, then the point, then the rest
            int k = end;
            int frac = nd - point;
            long head = d / LPOW10[frac];
            putDigits(d - head * LPOW10[frac], frac, b, k - frac);
            b[end - frac - 1] = '.';
            putDigits(head, point, b, at);
        } else {
            putDigits(d, nd, b, at);
        }
        return end;
    }

    /** Exactly n digits of d (leading zeros included) at b[at..at+n). */
    private static void putDigits(long d, int n, byte[] b, int at) {
        int k = at + n;
        while (d >= 100_000_000L) {
            long q = d / 100_000_000L;
            int r = (int) (d - q * 100_000_000L);
            for (int i = 0; i < 4; i++) {
                int t = r % 100;
                r /= 100;
                b[--k] = PAIRS[2 * t + 1];
                b[--k] = PAIRS[2 * t];
            }
            d = q;
        }
        int r = (int) d;
        while (k - at >= 2) {
            int t = r % 100;
            r /= 100;
            b[--k] = PAIRS[2 * t + 1];
            b[--k] = PAIRS[2 * t];
        }
        if (k > at) {
            b[--k] = (byte) ('0' + r % 10);
        }
    }

    /** digits (no sign, no leading zeros) x 10^(exp - digits + 1), written the %g way. */
    private static String layout(String digits, int exp, int precision, boolean negative) {
        StringBuilder sb = new StringBuilder(24);
        if (negative) {
            sb.append('-');
        }
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        String d = digits.substring(0, end);
        if (exp < -4 || exp >= precision) {
            sb.append(d.charAt(0));
            if (d.length() > 1) {
                sb.append('.').append(d, 1, d.length());
            }
            sb.append('e').append(exp < 0 ? '-' : '+');
            int x = Math.abs(exp);
            if (x < 10) {
                sb.append('0');
            }
            sb.append(x);
        } else if (exp < 0) {
            sb.append("0.");
            for (int k = -1; k > exp; k--) {
                sb.append('0');
            }
            sb.append(d);
        } else if (d.length() <= exp + 1) {
            sb.append(d);
            for (int k = d.length(); k <= exp; k++) {
                sb.append('0');
            }
        } else {
            sb.append(d, 0, exp + 1).append('.').append(d, exp + 1, d.length());
        }
        return sb.toString();
    }
}
