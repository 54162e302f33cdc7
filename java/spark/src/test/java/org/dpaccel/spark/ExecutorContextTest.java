package org.dpaccel.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Spark's GPU resource addresses -> the context's CUDA device list (docs/spark.md, "GPUs"). */
class ExecutorContextTest {
    @Test
    void addressesBecomeDeviceOrdinals() {
        assertEquals("0", ExecutorContext.gpuDevicesOf(new String[] {"0"}));
        assertEquals("1,3", ExecutorContext.gpuDevicesOf(new String[] {"1", "3"}));
    }

    @Test
    void anythingElseLeavesTheDefault() {
        assertNull(ExecutorContext.gpuDevicesOf(null));
        assertNull(ExecutorContext.gpuDevicesOf(new String[0]));
        // a discovery script that reports UUIDs or bus ids, or a duplicate
        assertNull(ExecutorContext.gpuDevicesOf(new String[] {"GPU-5d3c1e2a"}));
        assertNull(ExecutorContext.gpuDevicesOf(new String[] {"0", "0"}));
        assertNull(ExecutorContext.gpuDevicesOf(new String[] {"00000000:3B:00.0"}));
    }
}
