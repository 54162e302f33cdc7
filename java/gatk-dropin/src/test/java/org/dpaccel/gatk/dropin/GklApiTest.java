package org.dpaccel.gatk.dropin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The drop-in's GKL-named classes have exactly the public API of the GKL classes they shadow, in
 * GKL 0.8.11 (GATK 4.6) and GKL 0.9.1 (GATK 4.7): every class GATK 4.7 loads from GKL for PairHMM,
 * Smith-Waterman and PDHMM (IntelPairHmm, IntelPairHmmOMP, IntelSmithWaterman, IntelPDHMM; 0.8.11
 * has no IntelPDHMM). The GKL jars come from the local Maven repository (surefire passes their
 * paths); a missing jar is reported as skipped.
 */
class GklApiTest {
    private static final String[] SHADOWED = { "com.intel.gkl.pairhmm.IntelPairHmm",
        "com.intel.gkl.pairhmm.IntelPairHmmOMP", "com.intel.gkl.smithwaterman.IntelSmithWaterman",
        "com.intel.gkl.pdhmm.IntelPDHMM" };

    /** Loads com.intel.gkl classes from one jar only, everything else from the test class path. */
    private static final class GklOnly extends URLClassLoader {
        GklOnly(Path jar) throws IOException {
            super(new URL[] { jar.toUri().toURL() }, GklApiTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("com.intel.gkl.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                return c != null ? c : findClass(name);
            }
        }
    }

    private static Set<String> api(Class<?> c) {
        Set<String> s = new TreeSet<>();
        s.add("class " + Modifier.toString(c.getModifiers()) + " implements "
            + Arrays.toString(Arrays.stream(c.getInterfaces()).map(Class::getName).toArray()));
        for (Constructor<?> k : c.getConstructors()) {
            s.add("ctor " + Arrays.toString(k.getParameterTypes()));
        }
        for (Method m : c.getMethods()) {
            if (m.getDeclaringClass() == Object.class) {
                continue;
            }
            s.add(Modifier.toString(m.getModifiers() & ~Modifier.SYNCHRONIZED) + " " + m.getReturnType().getName()
                + " " + m.getName() + Arrays.toString(m.getParameterTypes()));
        }
        return s;
    }

    @ParameterizedTest
    @ValueSource(strings = { "dpaccel.gkl0811.jar", "dpaccel.gkl091.jar" })
    void publicApiMatchesGkl(String property) throws Exception {
        String p = System.getProperty(property);
        Assumptions.assumeTrue(p != null && Files.isRegularFile(Path.of(p)),
            "SKIPPED: " + property + " (" + p + ") not found: run through Maven, which resolves it");
        int compared = 0;
        try (GklOnly gkl = new GklOnly(Path.of(p))) {
            for (String name : SHADOWED) {
                String res = name.replace('.', '/') + ".class";
                try (InputStream in = gkl.findResource(res) == null ? null : gkl.findResource(res).openStream()) {
                    if (in == null) {
                        System.out.println("[gkl-api] " + Path.of(p).getFileName() + " has no " + name);
                        continue;
                    }
                }
                Class<?> theirs = gkl.loadClass(name);
                Class<?> ours = Class.forName(name);
                assertEquals(api(theirs), api(ours), name + " vs " + p);
                compared++;
            }
        }
        System.out.println("[gkl-api] " + Path.of(p).getFileName() + ": " + compared + " classes identical in public API");
        assertEquals(p.contains("0.9.1") ? 4 : 3, compared);
    }
}
