package org.dpaccel.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import org.dpaccel.DpaccelException;
import org.dpaccel.Status;

/**
 * Loads libdpaccel once per class loader. Lookup order:
 * <ol>
 * <li>system property {@code dpaccel.native.path} (env {@code DPACCEL_NATIVE_PATH}): a directory
 *     holding libdpaccel.so (and optionally libdpaccel_cuda.so); no fallback when set;</li>
 * <li>the copy bundled in the jar under {@code org/dpaccel/native/<version>/<os>-<arch>/},
 *     extracted into a fresh private directory {@code dpaccel-<version>-*} under
 *     {@code dpaccel.tmpdir} (or GATK's temporary directory, or {@code java.io.tmpdir}), its bytes
 *     verified against the resource. The CUDA backend is extracted beside it, because the core
 *     library dlopen()s it from its own directory by the name libdpaccel_cuda.so. A unique
 *     directory per load lets several class loaders each load their own copy.</li>
 * </ol>
 * The version is in the resource path, not in the file names, because the engine finds the
 * CUDA library by its plain name: two dpaccel jars of different versions on one class path then
 * each find their own pair, and extract it into directories of their own. After loading, the
 * library's own version must equal the jar's.
 *
 * <p>Failures are remembered: {@link #ensureLoaded()} rethrows the first one, as a
 * {@link DpaccelException} with status {@link Status#UNSUPPORTED}, the reason and the cause.
 */
public final class NativeLoader {
    static final String CORE = "libdpaccel.so";
    static final String CUDA = "libdpaccel_cuda.so";
    /** This JVM's platform folder name, read once so messages and lookups agree. */
    static final String PLATFORM = Platform.folder();
    /** Where the bundled libraries for this platform sit inside the jar. */
    static final String RESOURCE_DIR = "org/dpaccel/native/" + BuildInfo.VERSION + "/" + PLATFORM + "/";

    private static Throwable failure;
    private static boolean loaded;
    private static String source = "not loaded";

    private NativeLoader() {
    }

    /**
     * Loads the library if needed.
     *
     * @throws DpaccelException (status {@link Status#UNSUPPORTED}) with the reason, if it cannot
     */
    public static synchronized void ensureLoaded() {
        ensureLoaded(null);
    }

    /**
     * As {@link #ensureLoaded()}, extracting under {@code tmpDir} when it is not null and
     * {@code dpaccel.tmpdir} is not set (GATK passes its --tmp-dir here).
     *
     * @param tmpDir where to extract, or null
     * @throws DpaccelException (status {@link Status#UNSUPPORTED}) with the reason, if it cannot
     */
    public static synchronized void ensureLoaded(Path tmpDir) {
        if (loaded) {
            return;
        }
        if (failure == null) {
            try {
                load(tmpDir);
                loaded = true;
                return;
            } catch (Throwable t) { // UnsatisfiedLinkError from System.load included
                failure = t;
            }
        }
        throw new DpaccelException(Status.UNSUPPORTED, "dpaccel " + BuildInfo.VERSION
            + ": native library not loaded: " + failure.getMessage(), failure);
    }

    /**
     * Whether the library is loaded in this class loader.
     *
     * @return true once {@link #ensureLoaded()} succeeded
     */
    public static synchronized boolean isLoaded() {
        return loaded;
    }

    /**
     * Where the library came from, or why it did not load.
     *
     * @return "not loaded", the path it was loaded from, or "failed: " and the reason
     */
    public static synchronized String source() {
        return failure != null ? "failed: " + failure.getMessage() : source;
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
            checkVersion(lib.toString());
            source = lib.toString();
            return;
        }
        String folder = RESOURCE_DIR;
        ClassLoader cl = NativeLoader.class.getClassLoader();
        if (cl.getResource(folder + CORE) == null) {
            throw new IOException("this dpaccel jar has no native library for " + PLATFORM
                + " (looked for /" + folder + CORE + "; docs/platforms.md lists the supported"
                + " platforms); set -Ddpaccel.native.path=<dir> to use one built for this platform");
        }
        String tmp = System.getProperty("dpaccel.tmpdir");
        Path base = tmp != null && !tmp.isBlank() ? Paths.get(tmp)
            : tmpDir != null ? tmpDir : Paths.get(System.getProperty("java.io.tmpdir"));
        Path target;
        try {
            target = Files.createTempDirectory(base, "dpaccel-" + BuildInfo.VERSION + "-");
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
        checkVersion(core.toString());
        source = "bundled " + folder + CORE + " extracted to " + target;
    }

    /*
     * A library of another version has a different JNI contract (array layouts, status codes):
     * refuse it rather than compute wrong results. A -SNAPSHOT jar accepts its release number.
     */
    private static void checkVersion(String lib) throws IOException {
        checkVersion(lib, Natives.version(), BuildInfo.VERSION);
    }

    static void checkVersion(String lib, String libraryVersion, String classesVersion) throws IOException {
        String want = classesVersion.endsWith("-SNAPSHOT")
            ? classesVersion.substring(0, classesVersion.length() - "-SNAPSHOT".length())
            : classesVersion;
        if (!want.equals(libraryVersion)) {
            throw new IOException(lib + " is version " + libraryVersion + " but these dpaccel classes are "
                + classesVersion + "; use the library built with them");
        }
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
