package org.dpaccel.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeBinding;
import org.dpaccel.Backend;
import org.dpaccel.DpaContext;
import org.dpaccel.Isa;
import org.dpaccel.gatk.DpaPairHmm;
import org.dpaccel.pairhmm.PairHmm;
import org.dpaccel.pairhmm.PairHmmBatch;
import org.dpaccel.pairhmm.Precision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loader in fresh class loaders (each has its own NativeLoader state, like a second
 * plug-in in one JVM): a missing native library makes load() return false without throwing,
 * an unwritable temp dir likewise, and a second class loader loads its own copy and computes.
 */
class NativeLoaderTest {
    private static ClassLoader isolated() throws Exception {
        URL classes = DpaPairHmm.class.getProtectionDomain().getCodeSource().getLocation();
        URL bindings = PairHMMNativeBinding.class.getProtectionDomain().getCodeSource().getLocation();
        return new URLClassLoader(new URL[] {classes, bindings}, ClassLoader.getPlatformClassLoader());
    }

    private static boolean loadIn(ClassLoader cl, File tmp) throws Exception {
        Class<?> c = Class.forName("org.dpaccel.gatk.DpaPairHmm", true, cl);
        Object hmm = c.getDeclaredConstructor().newInstance();
        Method load = c.getMethod("load", File.class);
        return (Boolean) load.invoke(hmm, tmp);
    }

    @Test
    void missingNativeLibraryMakesLoadReturnFalse(@TempDir Path empty) throws Exception {
        String old = System.getProperty("dpaccel.native.path");
        System.setProperty("dpaccel.native.path", empty.resolve("does-not-exist").toString());
        try {
            assertFalse(loadIn(isolated(), null));
        } finally {
            restore("dpaccel.native.path", old);
        }
    }

    /**
     * DpaContext.create without a loadable library: DpaccelException (UNSUPPORTED) with the
     * loader's reason, every time, never UnsatisfiedLinkError or ExceptionInInitializerError.
     */
    @Test
    void missingNativeLibraryMakesCreateThrowDpaccelException(@TempDir Path empty) throws Exception {
        String old = System.getProperty("dpaccel.native.path");
        System.setProperty("dpaccel.native.path", empty.resolve("does-not-exist").toString());
        try {
            ClassLoader cl = isolated();
            Class<?> ctx = Class.forName("org.dpaccel.DpaContext", true, cl);
            for (int attempt = 0; attempt < 2; attempt++) {
                InvocationTargetException ite = org.junit.jupiter.api.Assertions.assertThrows(
                    InvocationTargetException.class, () -> ctx.getMethod("create").invoke(null));
                Throwable e = ite.getCause();
                assertEquals("org.dpaccel.DpaccelException", e.getClass().getName(), String.valueOf(e));
                assertEquals("UNSUPPORTED", String.valueOf(e.getClass().getMethod("status").invoke(e)));
                assertTrue(e.getMessage().contains("dpaccel.native.path"), e.getMessage());
                assertTrue(e.getMessage().contains(BuildInfo.VERSION), e.getMessage());
            }
            Class<?> dpaccel = Class.forName("org.dpaccel.Dpaccel", true, cl);
            assertEquals(false, dpaccel.getMethod("tryLoad").invoke(null));
            assertTrue(((String) dpaccel.getMethod("loadStatus").invoke(null)).startsWith("failed: "));
            InvocationTargetException ite = org.junit.jupiter.api.Assertions.assertThrows(
                InvocationTargetException.class, () -> dpaccel.getMethod("nativeVersion").invoke(null));
            assertEquals("org.dpaccel.DpaccelException", ite.getCause().getClass().getName());
        } finally {
            restore("dpaccel.native.path", old);
        }
    }

    /**
     * The bundled library sits under a folder named after the version, is extracted into a
     * directory named after it, and is the version of these classes.
     */
    @Test
    void bundledLibraryPathCarriesTheVersion() throws Exception {
        String pomVersion = System.getProperty("dpaccel.project.version");
        if (pomVersion != null) {
            assertEquals(pomVersion, BuildInfo.VERSION);
        }
        assertEquals("org/dpaccel/native/" + BuildInfo.VERSION + "/" + Platform.folder() + "/",
            NativeLoader.RESOURCE_DIR);
        if (System.getProperty("dpaccel.native.path") == null && System.getenv("DPACCEL_NATIVE_PATH") == null) {
            assertTrue(NativeLoader.class.getClassLoader().getResource(NativeLoader.RESOURCE_DIR + NativeLoader.CORE) != null,
                "no bundled " + NativeLoader.RESOURCE_DIR + NativeLoader.CORE);
            NativeLoader.ensureLoaded();
            assertTrue(NativeLoader.source().contains("/dpaccel-" + BuildInfo.VERSION + "-"), NativeLoader.source());
        }
        assertEquals(BuildInfo.VERSION.replace("-SNAPSHOT", ""), org.dpaccel.Dpaccel.nativeVersion());
        assertEquals(BuildInfo.VERSION, org.dpaccel.Dpaccel.version());
    }

    /** docs/platforms.md: on a platform the jar has no library for, create names it and load is false. */
    @Test
    void unsupportedPlatformIsADpaccelExceptionAndLoadFalse() throws Exception {
        String os = System.getProperty("os.name"), arch = System.getProperty("os.arch");
        ClassLoader cl = isolated();
        Class<?> ctx;
        try {
            System.setProperty("os.name", "Mac OS X");
            System.setProperty("os.arch", "aarch64");
            ctx = Class.forName("org.dpaccel.DpaContext", true, cl);
            Class.forName("org.dpaccel.internal.NativeLoader", true, cl); // fixes its platform folder now
        } finally {
            System.setProperty("os.name", os);
            System.setProperty("os.arch", arch);
        }
        InvocationTargetException ite = org.junit.jupiter.api.Assertions.assertThrows(
            InvocationTargetException.class, () -> ctx.getMethod("create").invoke(null));
        Throwable e = ite.getCause();
        assertEquals("org.dpaccel.DpaccelException", e.getClass().getName(), String.valueOf(e));
        assertTrue(e.getMessage().contains("no native library for macos-aarch64"), e.getMessage());
        assertTrue(e.getMessage().contains("/org/dpaccel/native/" + BuildInfo.VERSION + "/macos-aarch64/libdpaccel.so"),
            e.getMessage());
        Class<?> hmm = Class.forName("org.dpaccel.gatk.DpaPairHmm", true, cl);
        Object binding = hmm.getDeclaredConstructor().newInstance();
        assertEquals(false, hmm.getMethod("load", File.class).invoke(binding, (File) null));
    }

    @Test
    void libraryOfAnotherVersionIsRefused() throws Exception {
        NativeLoader.checkVersion("lib", "0.1.0", "0.1.0");
        NativeLoader.checkVersion("lib", "0.1.0", "0.1.0-SNAPSHOT");
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
            () -> NativeLoader.checkVersion("/x/libdpaccel.so", "0.2.0", "0.1.0"));
        assertTrue(e.getMessage().contains("/x/libdpaccel.so is version 0.2.0 but these dpaccel classes are 0.1.0"),
            e.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
            () -> NativeLoader.checkVersion("lib", "0.1.0-SNAPSHOT", "0.1.0"));
    }

    @Test
    void unwritableTempDirMakesLoadReturnFalse(@TempDir Path dir) throws Exception {
        Path file = Files.createFile(dir.resolve("not-a-directory"));
        String old = System.getProperty("dpaccel.tmpdir");
        System.setProperty("dpaccel.tmpdir", file.toString());
        try {
            assertFalse(loadIn(isolated(), null));
        } finally {
            restore("dpaccel.tmpdir", old);
        }
    }

    @Test
    void secondClassLoaderLoadsItsOwnCopy() throws Exception {
        assertTrue(new DpaPairHmm().load(null));
        assertTrue(loadIn(isolated(), null));
        assertTrue(loadIn(isolated(), null));
    }

    @Test
    void runsWithoutCuda() {
        // CI machines have no GPU: the jar must load and compute on the CPU, and say why no GPU.
        try (DpaContext ctx = DpaContext.create()) {
            String line = ctx.describe();
            assertTrue(line.startsWith("dpaccel "), line);
            if (ctx.deviceCount() == 0) {
                assertTrue(line.contains("no GPU"), line);
            }
            assertTrue(ctx.threads() >= 1);
            Isa isa = ctx.isa();
            assertTrue(line.contains("isa=" + isa.id()), line);
            // and it computes: 1x1 match, hand-derived log10((1 - 1e-3) * (1 - 0.1))
            PairHmmBatch b = PairHmmBatch.builder()
                .addRead(new byte[] {'A'}, new byte[] {30}, new byte[] {45}, new byte[] {45}, new byte[] {10})
                .addHaplotype(new byte[] {'A'}).build();
            double[] r = PairHmm.compute(ctx, b, Precision.FLOAT_THEN_DOUBLE, Backend.CPU);
            assertEquals(Math.log10(0.999 * 0.9), r[0], 1e-6);
        }
    }

    @Test
    void platformFolder() {
        String f = Platform.folder();
        assertTrue(f.matches("[a-z]+-[a-z0-9_]+"), f);
        if (System.getProperty("os.arch").equals("amd64")) {
            assertEquals("x86_64", Platform.arch());
        }
    }

    private static void restore(String key, String old) {
        if (old == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, old);
        }
    }
}
