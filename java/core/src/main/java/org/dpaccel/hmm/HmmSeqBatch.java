package org.dpaccel.hmm;

import java.util.Arrays;
import java.util.Objects;

/**
 * Target protein sequences for {@link HmmFilter#compute}. The builder checks each sequence as it
 * is added: residues ACDEFGHIKLMNPQRSTVWY and BJZOUX in either case, {@code *} and {@code ~};
 * length 0 to {@link #MAX_LENGTH} (hmmsearch's limit; length 0 gets no scores). A rejection names
 * the sequence index and name, the position and the byte, so a built batch never fails
 * validation in native code.
 */
public final class HmmSeqBatch {
    /** Longest sequence (DPA_HMM_MAX_SEQ_LENGTH). */
    public static final int MAX_LENGTH = 100_000;

    private static final boolean[] ALLOWED = new boolean[256];

    static {
        for (char c : "ACDEFGHIKLMNPQRSTVWYBJZOUX".toCharArray()) {
            ALLOWED[c] = true;
            ALLOWED[Character.toLowerCase(c)] = true;
        }
        ALLOWED['*'] = true;
        ALLOWED['~'] = true;
    }

    final byte[] residues;
    final int[] lengths;
    private final String[] names;

    private HmmSeqBatch(byte[] residues, int[] lengths, String[] names) {
        this.residues = residues;
        this.lengths = lengths;
        this.names = names;
    }

    /**
     * A new, empty builder.
     *
     * @return the builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Number of sequences.
     *
     * @return the count
     */
    public int size() {
        return lengths.length;
    }

    /**
     * Name of sequence {@code i} as given to {@link Builder#add(String, byte[])}.
     *
     * @param i sequence index
     * @return the name
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public String name(int i) {
        return names[Objects.checkIndex(i, names.length)];
    }

    /**
     * Length of sequence {@code i}.
     *
     * @param i sequence index
     * @return the length
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public int length(int i) {
        return lengths[Objects.checkIndex(i, lengths.length)];
    }

    /** Collects sequences; not thread-safe. */
    public static final class Builder {
        private byte[] residues = new byte[1024];
        private int used;
        private int[] lengths = new int[16];
        private String[] names = new String[16];
        private int n;

        private Builder() {
        }

        /**
         * Adds a sequence.
         *
         * @param name its name (for messages and results), not null
         * @param seq the residues, copied
         * @return its index; results come back in this order
         * @throws IllegalArgumentException naming the sequence index and name, the field and the
         *     limit when it is longer than {@link #MAX_LENGTH}, holds a byte that is not a residue,
         *     or the batch would exceed 2^31 - 9 residues
         */
        public int add(String name, byte[] seq) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(seq, "seq");
            String who = "HMM sequence " + n + " (" + name + ")";
            if (seq.length > MAX_LENGTH) {
                throw new IllegalArgumentException(who + ": length = " + seq.length + ", must be <= " + MAX_LENGTH);
            }
            for (int i = 0; i < seq.length; i++) {
                if (!ALLOWED[seq[i] & 0xff]) {
                    int b = seq[i] & 0xff;
                    String shown = b >= 0x21 && b < 0x7f ? "'" + (char) b + "' (0x" + Integer.toHexString(b) + ")"
                        : "0x" + Integer.toHexString(b);
                    throw new IllegalArgumentException(who + ": residue " + (i + 1) + " = " + shown
                        + " is not an amino-acid code (ACDEFGHIKLMNPQRSTVWY, BJZOUX, * or ~)");
                }
            }
            if (used + (long) seq.length > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException(who + ": the batch would exceed 2^31 - 9 residues");
            }
            if (used + seq.length > residues.length) {
                residues = Arrays.copyOf(residues, (int) Math.min(Integer.MAX_VALUE - 8,
                    Math.max((long) residues.length * 2, (long) used + seq.length)));
            }
            System.arraycopy(seq, 0, residues, used, seq.length);
            used += seq.length;
            if (n == lengths.length) {
                lengths = Arrays.copyOf(lengths, n * 2);
                names = Arrays.copyOf(names, n * 2);
            }
            lengths[n] = seq.length;
            names[n] = name;
            return n++;
        }

        /**
         * Adds a sequence given as text (ASCII).
         *
         * @param name its name
         * @param seq the residues
         * @return its index
         * @throws IllegalArgumentException as {@link #add(String, byte[])}
         */
        public int add(String name, CharSequence seq) {
            Objects.requireNonNull(seq, "seq");
            byte[] b = new byte[seq.length()];
            for (int i = 0; i < b.length; i++) {
                char c = seq.charAt(i);
                b[i] = c < 0x80 ? (byte) c : (byte) 0xff; // non-ASCII: rejected by add(byte[])
            }
            return add(name, b);
        }

        /**
         * The batch; the builder may be reused (later additions do not change it).
         *
         * @return the batch
         */
        public HmmSeqBatch build() {
            return new HmmSeqBatch(Arrays.copyOf(residues, used), Arrays.copyOf(lengths, n), Arrays.copyOf(names, n));
        }
    }
}
