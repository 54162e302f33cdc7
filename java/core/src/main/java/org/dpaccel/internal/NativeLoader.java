package org.dpaccel.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Loads libdpaccel once per class loader. Lookup order:
 * <ol>
 * <li>system property {@code dpaccel.native.path} (env {@code DPACCEL_NATIVE_PATH}): a directory
 *     holding libdpaccel.so (and optionally libdpaccel_cuda.so); no fallback when set;</li>
 * <li>the copy bundled in the jar under {@code org/dpaccel/native/<os>-<arch>/}, extracted into a
 *     fresh private directory under {@code dpaccel.tmpdir} (or {@code java.io.tmpdir}), its bytes
 *     verified against the resource. The CUDA backend is extracted beside it, because the core
 *     library dlopen()s it from its own directory. A unique directory per load lets several
 *     class loaders each load their own copy.</li>
 * </ol>
 * Failures are remembered: {@link #ensureLoaded()} rethrows the first one with its cause.
 */
public final class NativeLoader {
    static final String CORE = "libdpaccel.so";
    static final String CUDA = "libdpaccel_cuda.so";

    private static Throwable failure;
    private static boolean loaded;
    private static String source = "not loaded";

    private NativeLoader() {
    }

    /** Loads the library if needed; throws UnsatisfiedLinkError (with the reason) if it cannot. */
    public static synchronized void ensureLoaded() {
        ensureLoaded(null);
    }

    /**
     * As {@link #ensureLoaded()}, extracting under {@code tmpDir} when it is not null and
     * {@code dpaccel.tmpdir} is not set (GATK passes its --tmp-dir here).
     */
    public static synchronized void ensureLoaded(Path tmpDir) {
        if (loaded) {
            return;
        }
        if (failure != null) {
            throw linkError(failure.getMessage(), failure);
        }
        try {
            load(tmpDir);
            loaded = true;
        } catch (Throwable t) {
            failure = t;
            throw linkError(t.getMessage(), t);
        }
    }

    public static synchronized boolean isLoaded() {
        return loaded;
    }

    /** Where the library came from, or why it did not load. */
    public static synchronized String source() {
        return failure != null ? "failed: " + failure.getMessage() : source;
    }

    private static UnsatisfiedLinkError linkError(String msg, Throwable cause) {
        UnsatisfiedLinkError e = new UnsatisfiedLinkError(msg);
        e.initCause(cause);
        return e;
    }

    private static void load(Path tmpDir) throws IOException {
        String dir = System.getProperty("dpaccel.native.path");
        if (dir == null || dir.isBlank()) {
            dir = System.getenv("DPACCEL_NATIVE_PATH");
        }
        if (dir != null && !dir.isBlank()) {
            Path lib = Paths.get(dir).resolve(CORE).toAbsolutePath();
            if (!Files.isRegularFile(lib)) {
                throw new IOException("dpaccel.native.path = '" + dir + "': no " + CORE + " there");
            }
            System.load(lib.toString());
            source = lib.toString();
            return;
        }
        String folder = "org/dpaccel/native/" + Platform.folder() + "/";
        ClassLoader cl = NativeLoader.class.getClassLoader();
        if (cl.getResource(folder + CORE) == null) {
            throw new IOException("this dpaccel jar has no native library for " + Platform.folder()
                + " (looked for /" + folder + CORE + "); set -Ddpaccel.native.path=<dir> to use one"
                + " built for this platform");
        }
        String tmp = System.getProperty("dpaccel.tmpdir");
        Path base = tmp != null && !tmp.isBlank() ? Paths.get(tmp)
            : tmpDir != null ? tmpDir : Paths.get(System.getProperty("java.io.tmpdir"));
        Path target;
        try {
            target = Files.createTempDirectory(base, "dpaccel-");
        } catch (IOException e) {
            throw new IOException("cannot create a private directory under '" + base
                + "' to extract the native library (set -Ddpaccel.tmpdir=<writable dir>): " + e, e);
        }
        target.toFile().deleteOnExit();
        Path core = extract(cl, folder + CORE, target.resolve(CORE));
        if (cl.getResource(folder + CUDA) != null) {
            extract(cl, folder + CUDA, target.resolve(CUDA));
        }
        System.load(core.toString());
        source = "bundled " + folder + CORE + " extracted to " + target;
    }

    /*
     * Streams the resource to dest and checks the written file against the resource's size
     * and CRC-32, reading both in pieces: the CUDA library is tens of MB (one kernel set per
     * architecture), and holding it (twice) on the heap made a 192 MB-heap JVM fail to load.
     */
    private static Path extract(ClassLoader cl, String resource, Path dest) throws IOException {
        java.util.zip.CRC32 written = new java.util.zip.CRC32();
        long size = 0;
        byte[] buf = new byte[1 << 16];
        try (InputStream in = cl.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("resource " + resource + " vanished");
            }
            try (java.io.OutputStream out = Files.newOutputStream(dest)) {
                for (int n; (n = in.read(buf)) > 0; ) {
                    out.write(buf, 0, n);
                    written.update(buf, 0, n);
                    size += n;
                }
            }
        }
        dest.toFile().deleteOnExit();
        java.util.zip.CRC32 onDisk = new java.util.zip.CRC32();
        long diskSize = 0;
        try (InputStream in = Files.newInputStream(dest)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                onDisk.update(buf, 0, n);
                diskSize += n;
            }
        }
        if (diskSize != size || onDisk.getValue() != written.getValue()) {
            throw new IOException("extracted " + dest + " differs from " + resource + " (disk full?)");
        }
        return dest;
    }
}
