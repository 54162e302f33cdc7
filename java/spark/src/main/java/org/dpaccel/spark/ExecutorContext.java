package org.dpaccel.spark;

import org.dpaccel.Config;
import org.dpaccel.DpaContext;

/**
 * One dpaccel context per executor JVM, created at its first task and closed when the JVM shuts
 * down. A context is thread safe and owns the native thread pool (and the GPUs), so the tasks
 * an executor runs at once share it instead of each starting threads of their own. Its
 * configuration comes from the executor's system properties and environment (dpaccel.backend,
 * dpaccel.threads, ...: docs/configuration.md), set with spark.executor.extraJavaOptions or
 * spark.executorEnv.
 */
public final class ExecutorContext {
    private ExecutorContext() {
    }

    // Initialization-on-demand holder: the JVM runs Holder's initializer once, at first use.
    private static final class Holder {
        static final DpaContext CONTEXT = open();

        private static DpaContext open() {
            DpaContext ctx = DpaContext.create(Config.defaults());
            Runtime.getRuntime().addShutdownHook(new Thread(ctx::close, "dpaccel-context-close"));
            return ctx;
        }
    }

    /**
     * The executor's context, created on first use.
     *
     * @return the context; never closed before the JVM shuts down
     */
    public static DpaContext get() {
        return Holder.CONTEXT;
    }
}
