package org.dpaccel;

import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.dpaccel.internal.NativeLoader;
import org.dpaccel.internal.Natives;

/**
 * A native dpaccel context: chosen CPU kernels, a thread pool and the GPUs, if any. Thread
 * safe: many threads may compute on one context at once. {@link #close()} waits for calls in
 * flight, is idempotent, and any use afterwards throws IllegalStateException.
 */
public final class DpaContext implements AutoCloseable {
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private long handle;
    private final int[] info = new int[4];

    private DpaContext(long handle) {
        this.handle = handle;
        Natives.info(handle, info);
    }

    /** Loads the native library if needed and creates a context. */
    public static DpaContext create(Config config) {
        NativeLoader.ensureLoaded();
        Config c = config == null ? Config.defaults() : config;
        int gpuDisable = c.gpuDisable == null ? -1 : (c.gpuDisable ? 1 : 0);
        long h = Natives.createContext(c.threads, c.backend == null ? -1 : c.backend.code(),
            c.cpuDisable, gpuDisable);
        return new DpaContext(h);
    }

    public static DpaContext create() {
        return create(Config.defaults());
    }

    /**
     * Runs {@code body} with the native handle while holding the context open. Used by the
     * workload APIs; close() waits for it.
     */
    public <T> T withHandle(java.util.function.LongFunction<T> body) {
        lock.readLock().lock();
        try {
            if (handle == 0) {
                throw new IllegalStateException("dpaccel context is closed");
            }
            return body.apply(handle);
        } finally {
            lock.readLock().unlock();
        }
    }

    public Isa isa() {
        return Isa.fromCode(info[0]);
    }

    public int threads() {
        return info[1];
    }

    public Backend backend() {
        return Backend.values()[info[2]];
    }

    public int deviceCount() {
        return info[3];
    }

    /** One line: version, ISA, threads, backend, GPUs or why none. */
    public String describe() {
        return withHandle(Natives::describe);
    }

    public boolean isClosed() {
        lock.readLock().lock();
        try {
            return handle == 0;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (handle != 0) {
                Natives.destroyContext(handle);
                handle = 0;
            }
        } finally {
            lock.writeLock().unlock();
        }
    }
}
