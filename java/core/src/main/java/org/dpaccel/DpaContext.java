package org.dpaccel;

import org.dpaccel.internal.ContextAccess;
import org.dpaccel.internal.NativeContext;

/**
 * A native dpaccel context: the chosen CPU kernels, a thread pool and the GPUs, if any.
 *
 * <p>Thread safe: many threads may compute on one context at once. {@link #close()} waits for
 * calls in flight and is idempotent; any computation or {@link #describe()} afterwards throws
 * IllegalStateException (the fixed facts {@link #isa()}, {@link #threads()},
 * {@link #backend()} and {@link #deviceCount()} stay readable). A context that is not closed
 * keeps its native memory and threads until the JVM exits, so use try-with-resources.
 */
public final class DpaContext implements AutoCloseable {
    static {
        ContextAccess.register(new Access());
    }

    private final NativeContext nc;

    private DpaContext(NativeContext nc) {
        this.nc = nc;
    }

    /**
     * Loads the native library if needed and creates a context.
     *
     * @param config the configuration; null for {@link Config#defaults()}
     * @return an open context
     * @throws DpaccelException if the native library cannot be loaded on this machine
     *     ({@link Status#UNSUPPORTED}, the message says why: platform, missing library,
     *     unwritable temporary directory) or the engine refuses the configuration
     *     (for example {@link Status#INVALID_ARG} for an unknown ISA name, {@link Status#NO_DEVICE}
     *     for a forced GPU backend without a usable GPU)
     */
    public static DpaContext create(Config config) {
        Config c = config == null ? Config.defaults() : config;
        int gpuDisable = c.gpuDisable == null ? -1 : (c.gpuDisable ? 1 : 0);
        return new DpaContext(NativeContext.create(c.threads, c.backend == null ? -1 : c.backend.code(),
            c.cpuDisable, gpuDisable, c.gpuDevices));
    }

    /**
     * Creates a context with {@link Config#defaults()}.
     *
     * @return an open context
     * @throws DpaccelException as {@link #create(Config)}
     */
    public static DpaContext create() {
        return create(Config.defaults());
    }

    /**
     * The CPU kernel variant the context chose.
     *
     * @return the ISA
     */
    public Isa isa() {
        return Isa.fromCode(nc.info(0));
    }

    /**
     * CPU threads a batch may use, the caller's included.
     *
     * @return the thread count
     */
    public int threads() {
        return nc.info(1);
    }

    /**
     * The backend batches use unless a call names another.
     *
     * @return the default backend
     */
    public Backend backend() {
        return Backend.fromCode(nc.info(2));
    }

    /**
     * Usable GPUs.
     *
     * @return the number of GPUs the context drives, 0 when none is usable
     */
    public int deviceCount() {
        return nc.info(3);
    }

    /**
     * One line for logs: version, ISA, threads, backend, GPUs or why none.
     *
     * @return the description
     * @throws IllegalStateException if the context is closed
     */
    public String describe() {
        return nc.describe();
    }

    /**
     * Whether {@link #close()} has run.
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return nc.isClosed();
    }

    /** Waits for calls in flight, then frees the native resources; idempotent. */
    @Override
    public void close() {
        nc.close();
    }

    /* Hands the native context to the workload packages only (see ContextAccess). */
    private static final class Access implements ContextAccess.Accessor {
        @Override
        public NativeContext nativeContext(DpaContext ctx) {
            return ctx.nc;
        }
    }
}
