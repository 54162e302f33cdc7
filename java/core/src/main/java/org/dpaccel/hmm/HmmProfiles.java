package org.dpaccel.hmm;

import java.nio.file.Path;
import java.util.Objects;

import org.dpaccel.internal.NativeHmmProfiles;

/**
 * HMMER3 profile HMMs (text {@code .hmm} files from hmmbuild 3.1-3.4, protein), parsed and
 * configured once as hmmsearch configures them. Immutable and shareable across threads and
 * calls until closed; {@link #close()} waits for filters in flight, and later use throws
 * {@link IllegalStateException}.
 */
public final class HmmProfiles implements AutoCloseable {
    final NativeHmmProfiles nat;
    private final String[] names;
    private final int[] lengths;

    private HmmProfiles(NativeHmmProfiles nat) {
        this.nat = nat;
        this.names = nat.names();
        this.lengths = nat.lengths();
    }

    /**
     * Loads every model of a file.
     *
     * @param path the {@code .hmm} file
     * @return the profiles
     * @throws org.dpaccel.DpaccelException on a missing file or bad input; the message names the
     *     file, line, model index and NAME, and the field
     */
    public static HmmProfiles load(Path path) {
        Objects.requireNonNull(path, "path");
        return new HmmProfiles(NativeHmmProfiles.loadFile(path.toString()));
    }

    /**
     * Loads every model of HMMER3 text in memory.
     *
     * @param text the file's bytes
     * @return the profiles
     * @throws org.dpaccel.DpaccelException on bad input, naming {@code <buffer>}, line, model and field
     */
    public static HmmProfiles load(byte[] text) {
        Objects.requireNonNull(text, "text");
        return new HmmProfiles(NativeHmmProfiles.loadBuffer(text));
    }

    /**
     * Number of models.
     *
     * @return the count
     */
    public int size() {
        return names.length;
    }

    /**
     * NAME of model {@code i} (bytes outside printable ASCII shown as {@code ?}).
     *
     * @param i model index, in file order
     * @return the name
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public String name(int i) {
        return names[Objects.checkIndex(i, names.length)];
    }

    /**
     * LENG (match states M) of model {@code i}.
     *
     * @param i model index, in file order
     * @return the length
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public int length(int i) {
        return lengths[Objects.checkIndex(i, lengths.length)];
    }

    /**
     * Whether {@link #close()} has run.
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return nat.isClosed();
    }

    /** Frees the native profiles (waiting for filters in flight); idempotent. */
    @Override
    public void close() {
        nat.close();
    }
}
