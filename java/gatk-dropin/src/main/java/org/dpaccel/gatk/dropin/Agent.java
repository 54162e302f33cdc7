package org.dpaccel.gatk.dropin;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The drop-in as a Java agent, for launchers that take no class-path prefix (GATK's {@code gatk}
 * script runs {@code java -jar gatk-package-*-local.jar}):
 * {@code gatk --java-options "-javaagent:dpaccel-gatk-dropin.jar" HaplotypeCaller ...}, and on
 * Spark executors through {@code spark.executor.extraJavaOptions}.
 *
 * <p>The JVM appends the agent's jar to the class path, behind GATK's jar, so GKL's classes would
 * win; the agent therefore hands the JVM, whenever a class loader other than the drop-in's own
 * defines one of the {@code com.intel.gkl.*} classes this jar ships, the bytes of this jar's class
 * of that name instead. Everything else is as with the drop-in first on the class path: the same
 * classes, log lines, switches, and the real GKL behind them (read from GATK's jar by
 * {@link ShadowedGkl}'s private loader, which the agent leaves alone). If the agent cannot read
 * its own jar it says so once and changes nothing (GATK then runs on GKL).
 */
public final class Agent {
    private static final Logger LOG = System.getLogger("org.dpaccel.gatk");
    /** ShadowedGkl's loader: the classes it defines are GKL's own, behind the drop-in. */
    private static final String GKL_LOADER = ShadowedGkl.class.getName() + "$Loader";

    private Agent() {
    }

    /**
     * The agent's entry point ({@code Premain-Class} of the drop-in jar).
     *
     * @param args the agent's option string (unused)
     * @param inst the JVM's instrumentation
     */
    public static void premain(String args, Instrumentation inst) {
        Map<String, byte[]> ours;
        try {
            ours = shippedGklClasses();
        } catch (IOException | URISyntaxException | RuntimeException e) {
            System.err.println("dpaccel GATK drop-in agent: cannot read its own jar (" + e
                + "); dpaccel is NOT in use");
            return;
        }
        inst.addTransformer(new Swap(ours), false);
    }

    /** Internal class name (a/b/C) -> bytes, for every com/intel/gkl class in this jar. */
    static Map<String, byte[]> shippedGklClasses() throws IOException, URISyntaxException {
        CodeSource cs = Agent.class.getProtectionDomain().getCodeSource();
        if (cs == null || cs.getLocation() == null) {
            throw new IOException("no code source");
        }
        Map<String, byte[]> out = new HashMap<>();
        try (JarFile jar = new JarFile(Path.of(cs.getLocation().toURI()).toFile())) {
            Enumeration<JarEntry> e = jar.entries();
            while (e.hasMoreElements()) {
                JarEntry je = e.nextElement();
                String n = je.getName();
                if (n.startsWith("com/intel/gkl/") && n.endsWith(".class")) {
                    try (InputStream in = jar.getInputStream(je)) {
                        out.put(n.substring(0, n.length() - ".class".length()), in.readAllBytes());
                    }
                }
            }
        }
        if (out.isEmpty()) {
            throw new IOException(cs.getLocation() + " holds no com.intel.gkl class");
        }
        return out;
    }

    /** Our bytes for our class names, except in ShadowedGkl's loader. */
    static final class Swap implements ClassFileTransformer {
        private final Map<String, byte[]> ours;

        Swap(Map<String, byte[]> ours) {
            this.ours = ours;
        }

        @Override
        public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain pd,
            byte[] bytes) {
            if (className == null || redefined != null) {
                return null;
            }
            byte[] b = ours.get(className);
            if (b == null || (loader != null && loader.getClass().getName().equals(GKL_LOADER))
                || Arrays.equals(b, bytes)) {
                return null;
            }
            LOG.log(Level.INFO, "dpaccel GATK drop-in agent: " + className.replace('/', '.')
                + " defined from the drop-in's jar in place of GKL's");
            return b;
        }
    }
}
