package org.dpaccel.spark;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;

import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;
import org.dpaccel.Config;
import org.dpaccel.DpaContext;

/**
 * One dpaccel context per executor JVM, created at its first task and closed when the JVM shuts
 * down. A context is thread safe and owns the native thread pool (and the GPUs), so the tasks
 * an executor runs at once share it instead of each starting threads of their own. Its
 * configuration comes from the executor's system properties and environment (dpaccel.backend,
 * dpaccel.threads, ...: docs/configuration.md), set with spark.executor.extraJavaOptions or
 * spark.executorEnv.
 *
 * <p>GPUs: when neither dpaccel.gpu.devices nor DPACCEL_GPU_DEVICES is set and Spark's resource
 * scheduling gave the first task GPU addresses ({@code spark.task.resource.gpu.amount}), the
 * context opens those devices only, taking each address as a CUDA device ordinal (what Spark's
 * nvidia-smi discovery script reports). Every task of an executor shares its GPUs, so the first
 * task's addresses are the executor's. An address that is not an ordinal, or a context that then
 * finds no GPU, is logged as a warning (logger {@code org.dpaccel.spark}); the tasks still run.
 */
public final class ExecutorContext {
    private static final Logger LOG = System.getLogger("org.dpaccel.spark");

    private ExecutorContext() {
    }

    // Initialization-on-demand holder: the JVM runs Holder's initializer once, at first use.
    private static final class Holder {
        static final DpaContext CONTEXT = open();

        private static DpaContext open() {
            Config.Builder b = Config.builder();
            String devices = sparkGpus();
            if (devices != null) {
                b.gpuDevices(devices);
            }
            DpaContext ctx = DpaContext.create(b.build());
            if (devices != null && ctx.deviceCount() == 0) {
                LOG.log(Level.WARNING, "Spark assigned GPU address(es) " + devices + " but the dpaccel context "
                    + "has no GPU: " + ctx.describe());
            }
            Runtime.getRuntime().addShutdownHook(new Thread(ctx::close, "dpaccel-context-close"));
            return ctx;
        }
    }

    /** The current task's GPU addresses as a device list, unless the user set one; else null. */
    private static String sparkGpus() {
        String prop = System.getProperty("dpaccel.gpu.devices");
        String env = System.getenv("DPACCEL_GPU_DEVICES");
        TaskContext tc = TaskContext.get();
        if (prop != null || env != null || tc == null) {
            return null;
        }
        ResourceInformation gpu = tc.resourcesJMap().get("gpu");
        String devices = gpu == null ? null : gpuDevicesOf(gpu.addresses());
        if (gpu != null && devices == null) {
            LOG.log(Level.WARNING, "Spark's GPU addresses " + String.join(",", gpu.addresses())
                + " are not CUDA device ordinals: the dpaccel context uses every GPU it sees");
        }
        return devices;
    }

    /**
     * Spark resource addresses as a {@link Config.Builder#gpuDevices(String)} list.
     *
     * @param addresses the task's GPU addresses
     * @return "0" or "1,3", or null when there are none or one is not a device ordinal
     */
    static String gpuDevicesOf(String[] addresses) {
        if (addresses == null || addresses.length == 0) {
            return null;
        }
        String list = String.join(",", addresses);
        try {
            Config.builder().gpuDevices(list);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return list;
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
