package org.dpaccel.internal;

import java.util.Objects;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Owner of one native HMM profiles handle ({@code dpa_hmm_profiles}), guarded like
 * {@link NativeContext}: calls hold the read lock, {@link #close()} takes the write lock, so a
 * handle is never freed under a running filter and a closed one never reaches native code.
 * Not part of the API; {@code org.dpaccel.hmm.HmmProfiles} wraps it.
 */
public final class NativeHmmProfiles implements AutoCloseable {
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private long handle; // guarded by lock; 0 once closed
    private final String[] names;
    private final int[] lengths;

    private NativeHmmProfiles(long handle) {
        this.handle = handle;
        this.lengths = new int[Natives.hmmCount(handle)];
        this.names = Natives.hmmDescribe(handle, lengths);
    }

    /**
     * Loads every model of a HMMER3 text file.
     *
     * @param path the file
     * @return the open profiles
     * @throws org.dpaccel.DpaccelException naming the file, line, model and field on bad input
     */
    public static NativeHmmProfiles loadFile(String path) {
        Objects.requireNonNull(path, "path");
        NativeLoader.ensureLoaded();
        return wrap(Natives.hmmLoadFile(path));
    }

    /**
     * Loads every model of HMMER3 text held in memory.
     *
     * @param text the file's bytes
     * @return the open profiles
     * @throws org.dpaccel.DpaccelException naming "&lt;buffer&gt;", line, model and field on bad input
     */
    public static NativeHmmProfiles loadBuffer(byte[] text) {
        Objects.requireNonNull(text, "text");
        NativeLoader.ensureLoaded();
        return wrap(Natives.hmmLoadBuffer(text));
    }

    private static NativeHmmProfiles wrap(long h) {
        try {
            return new NativeHmmProfiles(h);
        } catch (RuntimeException | Error e) {
            Natives.hmmFree(h);
            throw e;
        }
    }

    /**
     * Model names (NAME), in file order; a copy.
     *
     * @return the names
     */
    public String[] names() {
        return names.clone();
    }

    /**
     * Model lengths (LENG), in file order; a copy.
     *
     * @return the lengths
     */
    public int[] lengths() {
        return lengths.clone();
    }

    /**
     * Whether {@link #close()} has run.
     *
     * @return true once closed
     */
    public boolean isClosed() {
        lock.readLock().lock();
        try {
            return handle == 0;
        } finally {
            lock.readLock().unlock();
        }
    }

    /* Read lock + live handle; the caller must call exit() in a finally block. */
    long enter() {
        Lock r = lock.readLock();
        r.lock();
        if (handle == 0) {
            r.unlock();
            throw new IllegalStateException("HMM profiles are closed");
        }
        return handle;
    }

    void exit() {
        lock.readLock().unlock();
    }

    /** Frees the native profiles, waiting for filters in flight; idempotent. */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (handle != 0) {
                Natives.hmmFree(handle);
                handle = 0;
            }
        } finally {
            lock.writeLock().unlock();
        }
    }
}
