package org.dpaccel.bench.data;

import java.util.Arrays;

/**
 * One read as GATK hands it to the native PairHMM: bases and four phred arrays of the same
 * length (base qualities already floored by the caller, insertion/deletion gap-open penalties,
 * gap-continuation penalty).
 */
public record Read(byte[] bases, byte[] quals, byte[] ins, byte[] del, byte[] gcp) {
    public Read {
        int n = bases.length;
        if (quals.length != n || ins.length != n || del.length != n || gcp.length != n) {
            throw new IllegalArgumentException("read arrays differ in length: bases " + n + ", quals " + quals.length
                + ", ins " + ins.length + ", del " + del.length + ", gcp " + gcp.length);
        }
    }

    public int length() {
        return bases.length;
    }

    /** True when all five arrays are equal (records compare arrays by identity). */
    public boolean sameAs(Read o) {
        return Arrays.equals(bases, o.bases) && Arrays.equals(quals, o.quals) && Arrays.equals(ins, o.ins)
            && Arrays.equals(del, o.del) && Arrays.equals(gcp, o.gcp);
    }
}
