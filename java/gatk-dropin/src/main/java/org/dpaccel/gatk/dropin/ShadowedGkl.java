package org.dpaccel.gatk.dropin;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.security.CodeSource;
import java.util.Enumeration;
import java.util.concurrent.ConcurrentHashMap;

import org.broadinstitute.gatk.nativebindings.pairhmm.PairHMMNativeBinding;
import org.broadinstitute.gatk.nativebindings.smithwaterman.SWAlignerNativeBinding;

/**
 * The real Intel GKL classes that the drop-in shadows. Our {@code com.intel.gkl.pairhmm.*} and
 * {@code com.intel.gkl.smithwaterman.IntelSmithWaterman} come
 * first on the class path, so the application class loader can never load GKL's classes of the
 * same name; this private loader defines every {@code com.intel.gkl.*} class from the first
 * class-path entry after ours that has GKL (GATK's jar), and delegates everything else
 * (gatk-native-bindings, commons-logging, ...) to the application class loader, so the GKL
 * instance it makes is a {@link PairHMMNativeBinding} or {@link SWAlignerNativeBinding} GATK can
 * use (one loader per GKL jar, shared by both). GKL extracts its native
 * libraries to fresh temp files, so its JNI symbols bind to these classes.
 */
final class ShadowedGkl {
    private static final ConcurrentHashMap<String, Loader> LOADERS = new ConcurrentHashMap<>();

    private ShadowedGkl() {
    }

    /** A new instance of the real GKL class {@code className}, or null if no GKL is behind us. */
    static PairHMMNativeBinding newPairHmm(String className) throws ReflectiveOperationException {
        return newInstance(className, PairHMMNativeBinding.class);
    }

    /** A new instance of the real GKL Smith-Waterman class {@code className}, or null if no GKL is behind us. */
    static SWAlignerNativeBinding newSmithWaterman(String className) throws ReflectiveOperationException {
        return newInstance(className, SWAlignerNativeBinding.class);
    }

    /** A new instance of the real GKL class {@code className} (GKL 0.9.1's IntelPDHMM), or null. */
    static Object newInstance(String className) throws ReflectiveOperationException {
        return newInstance(className, Object.class);
    }

    private static <T> T newInstance(String className, Class<T> type) throws ReflectiveOperationException {
        Loader l = loader(className);
        if (l == null) {
            return null;
        }
        Class<?> c = Class.forName(className, true, l);
        return type.cast(c.getConstructor().newInstance());
    }

    /** Where the real class comes from, for log lines. */
    static String source(String className) {
        Loader l = loader(className);
        return l == null ? "nowhere" : l.base;
    }

    private static Loader loader(String className) {
        String res = className.replace('.', '/') + ".class";
        ClassLoader app = ShadowedGkl.class.getClassLoader();
        String base = otherBase(app, res);
        if (base == null) {
            return null;
        }
        return LOADERS.computeIfAbsent(base, b -> new Loader(app, b));
    }

    /** The class-path root (URL prefix) of the first copy of {@code res} that is not in our jar. */
    private static String otherBase(ClassLoader app, String res) {
        String mine = null;
        CodeSource cs = ShadowedGkl.class.getProtectionDomain().getCodeSource();
        if (cs != null && cs.getLocation() != null) {
            mine = cs.getLocation().toString();
        }
        try {
            Enumeration<URL> all = app.getResources(res);
            while (all.hasMoreElements()) {
                String u = all.nextElement().toString();
                if (!u.endsWith(res)) {
                    continue;
                }
                String base = u.substring(0, u.length() - res.length());
                if (mine != null && (base.equals(mine) || base.equals("jar:" + mine + "!/"))) {
                    continue;
                }
                return base;
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    private static final class Loader extends ClassLoader {
        static {
            registerAsParallelCapable();
        }

        final String base;

        Loader(ClassLoader parent, String base) {
            super("dpaccel-shadowed-gkl", parent);
            this.base = base;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("com.intel.gkl.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            try (InputStream in = new URL(base + name.replace('.', '/') + ".class").openStream()) {
                byte[] b = in.readAllBytes();
                return defineClass(name, b, 0, b.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name + " in " + base, e);
            }
        }

        /** GKL's own resources (its native libraries) from its own jar first. */
        @Override
        public URL getResource(String name) {
            if (name.startsWith("com/intel/gkl/")) {
                try {
                    URL u = new URL(base + name);
                    u.openStream().close();
                    return u;
                } catch (IOException e) {
                    // not there: ask the parent
                }
            }
            return super.getResource(name);
        }
    }
}
