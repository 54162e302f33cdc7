package org.dpaccel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * The jar as a named module (the rest of the suite uses the class path, as GATK does): in a
 * fresh module layer, org.dpaccel resolves with nothing but java.base, finds its bundled native
 * library (resources under org/dpaccel/native are not encapsulated: "native" cannot be a package
 * name), creates a context and describes it; the internal package is not accessible.
 */
class ModulePathTest {
    @Test
    void createsAContextAsANamedModule() throws Exception {
        Path classes = Path.of(DpaContext.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ModuleLayer boot = ModuleLayer.boot();
        Configuration cf = boot.configuration().resolve(ModuleFinder.of(classes), ModuleFinder.of(),
            Set.of("org.dpaccel"));
        ModuleLayer layer = boot.defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
        Module m = layer.findModule("org.dpaccel").orElseThrow();
        assertTrue(m.isExported("org.dpaccel"));
        assertFalse(m.isExported("org.dpaccel.internal"));

        Class<?> ctxClass = layer.findLoader("org.dpaccel").loadClass("org.dpaccel.DpaContext");
        assertEquals(m, ctxClass.getModule());
        Object ctx = ctxClass.getMethod("create").invoke(null);
        try {
            String line = (String) ctxClass.getMethod("describe").invoke(ctx);
            assertTrue(line.startsWith("dpaccel "), line);
        } finally {
            ctxClass.getMethod("close").invoke(ctx);
        }

        // This test's (unnamed) module cannot reach into the non-exported package.
        Class<?> loader = layer.findLoader("org.dpaccel").loadClass("org.dpaccel.internal.NativeLoader");
        Method source = loader.getMethod("source");
        assertThrows(IllegalAccessException.class, () -> source.invoke(null));
    }
}
