package org.dpaccel.hmm;

import org.dpaccel.Isa;

/**
 * Results of {@link HmmFilter#compute}: one entry per (model, sequence), addressed by model index
 * (file order) and sequence index (batch order). A score is meaningful only where the matching
 * {@code has...} says it was computed: hmmsearch stops at the first failed stage, and sequences of
 * length 0 get nothing (unless {@link HmmFilterParams#allScores()}, every stage is computed for
 * every sequence of length 1 or more).
 */
public final class HmmFilterResults {
    private static final int COMPUTED_MSV = 1, COMPUTED_BIAS = 2, COMPUTED_VIT = 4;

    private final int models, sequences;
    private final float[] bits;
    private final double[] pvalues;
    private final byte[] flags;
    private final long pairs, cells, gpuPairs, passedMsv, passedBias, passedVit;
    private final Isa isa;

    HmmFilterResults(int models, int sequences, float[] bits, double[] pvalues, byte[] flags, long[] stats) {
        this.models = models;
        this.sequences = sequences;
        this.bits = bits;
        this.pvalues = pvalues;
        this.flags = flags;
        this.pairs = stats[0];
        this.cells = stats[1];
        this.gpuPairs = stats[2];
        this.passedMsv = stats[3];
        this.passedBias = stats[4];
        this.passedVit = stats[5];
        this.isa = Isa.fromCode((int) stats[6]);
    }

    private int at(int model, int seq) {
        if (model < 0 || model >= models) {
            throw new IndexOutOfBoundsException("model " + model + " of " + models);
        }
        if (seq < 0 || seq >= sequences) {
            throw new IndexOutOfBoundsException("sequence " + seq + " of " + sequences);
        }
        return model * sequences + seq;
    }

    /**
     * Number of models.
     *
     * @return the count
     */
    public int models() {
        return models;
    }

    /**
     * Number of sequences.
     *
     * @return the count
     */
    public int sequences() {
        return sequences;
    }

    /**
     * The MSV bit score (hmmsearch's SSV/MSV {@code usc - nullsc} in bits); +Infinity on overflow.
     *
     * @param model model index
     * @param seq sequence index
     * @return the value (0 where not computed)
     * @throws IndexOutOfBoundsException if an index is out of range
     */
    public float msvBits(int model, int seq) {
        return bits[3 * at(model, seq) + 0];
    }

    /**
     * The bias-corrected MSV bit score ({@code usc - filtersc}).
     *
     * @param model model index
     * @param seq sequence index
     * @return the value (0 where not computed)
     * @throws IndexOutOfBoundsException if an index is out of range
     */
    public float biasBits(int model, int seq) {
        return bits[3 * at(model, seq) + 1];
    }

    /**
     * The Viterbi filter bit score (with the bias-filter null, or the plain null under {@code --nobias}).
     *
     * @param model model index
     * @param seq sequence index
     * @return the value (0 where not computed)
     * @throws IndexOutOfBoundsException if an index is out of range
     */
    public float vitBits(int model, int seq) {
        return bits[3 * at(model, seq) + 2];
    }

    /**
     * The MSV P-value.
     *
     * @param model model index
     * @param seq sequence index
     * @return the value (0 where not computed)
     * @throws IndexOutOfBoundsException if an index is out of range
     */
    public double msvPvalue(int model, int seq) {
        return pvalues[3 * at(model, seq) + 0];
    }

    /**
     * The bias-corrected MSV P-value.
     *
     * @param model model index
     * @param seq sequence index
     * @return the value (0 where not computed)
     * @throws IndexOutOfBoundsException if an index is out of range
     */
    public double biasPvalue(int model, int seq) {
        return pvalues[3 * at(model, seq) + 1];
    }

    /**
     * The Viterbi filter P-value.
     *
     * @param model model index
     * @param seq sequence index
     * @return the value (0 where not computed)
     * @throws IndexOutOfBoundsException if an index is out of range
     */
    public double vitPvalue(int model, int seq) {
        return pvalues[3 * at(model, seq) + 2];
    }

    /**
     * Whether the pair passed the MSV filter (P &lt;= F1).
     *
     * @param model model index
     * @param seq sequence index
     * @return the flag
     * @throws IndexOutOfBoundsException if an index is out of range
     */
    public boolean passMsv(int model, int seq) {
        return flags[4 * at(model, seq) + 0] != 0;
    }

    /**
     * Whether the pair passed the bias filter too (cumulative: implies {@link #passMsv}).
     *
     * @param model model index
     * @param seq sequence index
     * @return the flag
     * @throws IndexOutOfBoundsException if an index is out of range
     */
    public boolean passBias(int model, int seq) {
        return flags[4 * at(model, seq) + 1] != 0;
    }

    /**
     * Whether the pair passed the Viterbi filter too, or skipped it because its bias P-value was &lt;= F2 (cumulative: implies {@link #passBias}).
     *
     * @param model model index
     * @param seq sequence index
     * @return the flag
     * @throws IndexOutOfBoundsException if an index is out of range
     */
    public boolean passVit(int model, int seq) {
        return flags[4 * at(model, seq) + 2] != 0;
    }

    /**
     * Whether the MSV score and P-value were computed for this pair.
     *
     * @param model model index
     * @param seq sequence index
     * @return the flag
     * @throws IndexOutOfBoundsException if an index is out of range
     */
    public boolean hasMsv(int model, int seq) {
        return (flags[4 * at(model, seq) + 3] & COMPUTED_MSV) != 0;
    }

    /**
     * Whether the bias filter score and P-value were computed for this pair.
     *
     * @param model model index
     * @param seq sequence index
     * @return the flag
     * @throws IndexOutOfBoundsException if an index is out of range
     */
    public boolean hasBias(int model, int seq) {
        return (flags[4 * at(model, seq) + 3] & COMPUTED_BIAS) != 0;
    }

    /**
     * Whether the Viterbi filter score and P-value were computed for this pair.
     *
     * @param model model index
     * @param seq sequence index
     * @return the flag
     * @throws IndexOutOfBoundsException if an index is out of range
     */
    public boolean hasVit(int model, int seq) {
        return (flags[4 * at(model, seq) + 3] & COMPUTED_VIT) != 0;
    }

    /**
     * Statistics: (model, sequence) pairs of length 1 or more.
     *
     * @return the count
     */
    public long pairs() {
        return pairs;
    }

    /**
     * Statistics: sum of M x L over those pairs.
     *
     * @return the count
     */
    public long cells() {
        return cells;
    }

    /**
     * Statistics: pairs computed on a GPU.
     *
     * @return the count
     */
    public long gpuPairs() {
        return gpuPairs;
    }

    /**
     * Statistics: pairs that passed the MSV filter.
     *
     * @return the count
     */
    public long passedMsv() {
        return passedMsv;
    }

    /**
     * Statistics: pairs that passed the bias filter.
     *
     * @return the count
     */
    public long passedBias() {
        return passedBias;
    }

    /**
     * Statistics: pairs that passed the Viterbi filter.
     *
     * @return the count
     */
    public long passedVit() {
        return passedVit;
    }

    /**
     * The CPU instruction set the kernels used.
     *
     * @return the ISA
     */
    public Isa isa() {
        return isa;
    }
}
