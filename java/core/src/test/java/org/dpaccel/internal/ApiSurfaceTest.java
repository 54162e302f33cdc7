package org.dpaccel.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.dpaccel.DpaContext;
import org.junit.jupiter.api.Test;

/**
 * What the jar lets other code touch: the module exports exactly the API packages, the
 * JNI declarations are not public, and no public API method takes or returns a native handle.
 */
class ApiSurfaceTest {
    static Path classesDir() throws Exception {
        return Path.of(DpaContext.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void moduleExportsOnlyTheApiPackages() throws Exception {
        ModuleDescriptor d = ModuleFinder.of(classesDir()).find("org.dpaccel").orElseThrow().descriptor();
        Set<String> exported = new TreeSet<>();
        for (ModuleDescriptor.Exports e : d.exports()) {
            assertFalse(e.isQualified(), "qualified export " + e);
            exported.add(e.source());
        }
        assertEquals(Set.of("org.dpaccel", "org.dpaccel.gatk", "org.dpaccel.pairhmm", "org.dpaccel.sw",
            "org.dpaccel.distance", "org.dpaccel.xdrop", "org.dpaccel.pdhmm", "org.dpaccel.papara", "org.dpaccel.hmm",
            "org.dpaccel.gatk.trace"), exported);
        assertTrue(d.opens().isEmpty(), "opens " + d.opens());
        assertTrue(d.packages().contains("org.dpaccel.internal"));
        // java.base only: the bindings jar cannot be a module (see module-info.java)
        assertEquals(Set.of("java.base"),
            d.requires().stream().map(ModuleDescriptor.Requires::name).collect(Collectors.toSet()));
    }

    @Test
    void jniDeclarationsAreNotPublic() {
        assertFalse(Modifier.isPublic(Natives.class.getModifiers()));
        for (Method m : Natives.class.getDeclaredMethods()) {
            assertFalse(Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers()), m.toString());
        }
    }

    @Test
    void noPublicMethodPassesARawHandle() {
        for (Class<?> c : new Class<?>[] {DpaContext.class, NativeContext.class, ContextAccess.class, NativeHmmProfiles.class}) {
            for (Method m : c.getMethods()) {
                if (m.getDeclaringClass() == Object.class) {
                    continue;
                }
                assertTrue(m.getReturnType() != long.class, m.toString());
                for (Class<?> p : m.getParameterTypes()) {
                    assertTrue(p != long.class, m.toString());
                }
            }
        }
    }

    @Test
    void onlyDpaContextRegistersTheAccessor() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
            () -> ContextAccess.register(ctx -> null));
        assertTrue(e.getMessage().contains("only DpaContext"), e.getMessage());
    }
}
