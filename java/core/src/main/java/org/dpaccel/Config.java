package org.dpaccel;

import java.util.Objects;

/**
 * Context configuration. Precedence: a value set here, then the system property
 * ({@code dpaccel.threads}, {@code dpaccel.backend}, {@code dpaccel.cpu.disable},
 * {@code dpaccel.gpu.disable}, {@code dpaccel.gpu.devices}), then the environment variable the native library reads
 * ({@code DPACCEL_THREADS}, ...), then the default (all cores, AUTO, every ISA, GPU on).
 */
public final class Config {
    final int threads;          // 0 = unset
    final Backend backend;      // null = unset
    final String cpuDisable;    // null = unset
    final Boolean gpuDisable;   // null = unset
    final String gpuDevices;    // null = unset

    private Config(Builder b) {
        this.threads = b.threads;
        this.backend = b.backend;
        this.cpuDisable = b.cpuDisable;
        this.gpuDisable = b.gpuDisable;
        this.gpuDevices = b.gpuDevices;
    }

    /**
     * A builder with nothing set.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Defaults, with system properties applied.
     *
     * @return the configuration
     */
    public static Config defaults() {
        return builder().build();
    }

    /**
     * CPU threads requested.
     *
     * @return the count, or 0 when unset (the native default: environment, then all cores)
     */
    public int threads() {
        return threads;
    }

    /**
     * Backend requested.
     *
     * @return the backend, or null when unset (environment, then {@link Backend#AUTO})
     */
    public Backend backend() {
        return backend;
    }

    /**
     * GPUs requested.
     *
     * @return the comma list of CUDA device ordinals, or null when unset (environment, then every
     *     visible device)
     */
    public String gpuDevices() {
        return gpuDevices;
    }

    /** Builds a {@link Config}; unset values fall back as the class comment says. */
    public static final class Builder {
        private int threads;
        private Backend backend;
        private String cpuDisable;
        private Boolean gpuDisable;
        private String gpuDevices;

        private Builder() {
        }

        /**
         * CPU threads including the caller.
         *
         * @param n the count, at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code n} is below 1
         */
        public Builder threads(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("threads = " + n + ": must be at least 1");
            }
            this.threads = n;
            return this;
        }

        /**
         * Default backend of the context's batches.
         *
         * @param b the backend
         * @return this builder
         */
        public Builder backend(Backend b) {
            this.backend = Objects.requireNonNull(b, "backend");
            return this;
        }

        /**
         * ISAs never to use; an unknown name makes {@link DpaContext#create(Config)} fail
         * with {@link Status#INVALID_ARG}.
         *
         * @param list comma list such as "avx512" or "avx512,avx2"; "" for none
         * @return this builder
         */
        public Builder cpuDisable(String list) {
            this.cpuDisable = Objects.requireNonNull(list, "cpuDisable");
            return this;
        }

        /**
         * Whether to leave the GPUs alone (the context then never initialises CUDA).
         *
         * @param disable true to use no GPU
         * @return this builder
         */
        public Builder gpuDisable(boolean disable) {
            this.gpuDisable = disable;
            return this;
        }

        /**
         * The GPUs to use, by CUDA device ordinal (after {@code CUDA_VISIBLE_DEVICES}), in this
         * order: what a Spark task's {@code TaskContext.resources().get("gpu").addresses()} names.
         * The list's form is checked here; whether the devices exist is checked by
         * {@link DpaContext#create(Config)} (a device that is not visible means no GPU, and
         * {@link Status#NO_DEVICE} when the backend is GPU).
         *
         * @param ordinals such as "0" or "1,3"; "" for every visible device
         * @return this builder
         * @throws IllegalArgumentException if the list is not distinct integers in [0, 1023]
         */
        public Builder gpuDevices(String ordinals) {
            this.gpuDevices = checkDevices(Objects.requireNonNull(ordinals, "gpuDevices"), "gpuDevices");
            return this;
        }

        private static String checkDevices(String list, String what) {
            if (list.isEmpty()) {
                return list;
            }
            java.util.Set<Integer> seen = new java.util.HashSet<>();
            for (String t : list.split(",", -1)) {
                if (!t.matches("[0-9]{1,4}") || Integer.parseInt(t) > 1023 || !seen.add(Integer.parseInt(t))) {
                    throw new IllegalArgumentException(what + " = '" + list + "': expected distinct CUDA device "
                        + "ordinals in [0, 1023], comma-separated, such as 0 or 1,3");
                }
            }
            return list;
        }

        /**
         * The configuration, with system properties filling what was not set here.
         *
         * @return the configuration
         * @throws IllegalArgumentException if a system property has an invalid value
         */
        public Config build() {
            String p = System.getProperty("dpaccel.threads");
            if (threads == 0 && p != null && !p.isBlank()) {
                try {
                    threads(Integer.parseInt(p.trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("dpaccel.threads = '" + p + "': not an integer", e);
                }
            }
            p = System.getProperty("dpaccel.backend");
            if (backend == null && p != null && !p.isBlank()) {
                backend = Backend.parse(p, "dpaccel.backend");
            }
            p = System.getProperty("dpaccel.cpu.disable");
            if (cpuDisable == null && p != null) {
                cpuDisable = p;
            }
            p = System.getProperty("dpaccel.gpu.disable");
            if (gpuDisable == null && p != null && !p.isBlank()) {
                gpuDisable = Boolean.parseBoolean(p.trim());
            }
            p = System.getProperty("dpaccel.gpu.devices");
            if (gpuDevices == null && p != null) {
                gpuDevices = checkDevices(p.trim(), "dpaccel.gpu.devices");
            }
            return new Config(this);
        }
    }
}
