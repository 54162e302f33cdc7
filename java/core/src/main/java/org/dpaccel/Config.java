package org.dpaccel;

import java.util.Objects;

/**
 * Context configuration. Precedence: a value set here, then the system property
 * ({@code dpaccel.threads}, {@code dpaccel.backend}, {@code dpaccel.cpu.disable},
 * {@code dpaccel.gpu.disable}), then the environment variable the native library reads
 * ({@code DPACCEL_THREADS}, ...), then the default (all cores, AUTO, every ISA, GPU on).
 */
public final class Config {
    final int threads;          // 0 = unset
    final Backend backend;      // null = unset
    final String cpuDisable;    // null = unset
    final Boolean gpuDisable;   // null = unset

    private Config(Builder b) {
        this.threads = b.threads;
        this.backend = b.backend;
        this.cpuDisable = b.cpuDisable;
        this.gpuDisable = b.gpuDisable;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Defaults, with system properties applied. */
    public static Config defaults() {
        return builder().build();
    }

    public int threads() {
        return threads;
    }

    public Backend backend() {
        return backend;
    }

    public static final class Builder {
        private int threads;
        private Backend backend;
        private String cpuDisable;
        private Boolean gpuDisable;

        private Builder() {
        }

        /** CPU threads including the caller; must be at least 1. */
        public Builder threads(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("threads = " + n + ": must be at least 1");
            }
            this.threads = n;
            return this;
        }

        public Builder backend(Backend b) {
            this.backend = Objects.requireNonNull(b, "backend");
            return this;
        }

        /** Comma list of ISAs never to use: "avx512", "avx512,avx2". "" = none. */
        public Builder cpuDisable(String list) {
            this.cpuDisable = Objects.requireNonNull(list, "cpuDisable");
            return this;
        }

        public Builder gpuDisable(boolean disable) {
            this.gpuDisable = disable;
            return this;
        }

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
            return new Config(this);
        }
    }
}
