package org.dpaccel.internal;

import java.util.Objects;

import org.dpaccel.DpaContext;

/**
 * How the workload packages ({@code org.dpaccel.pairhmm}, {@code .sw}, {@code .gatk}) reach the
 * {@link NativeContext} inside a {@link DpaContext} without DpaContext exposing it (or a raw
 * handle) in its public API. DpaContext registers the one accessor from its static initializer;
 * registration by any other class is refused. Even a caller that reaches this class on the
 * class path only gets a NativeContext, which checks that it is open before every native call.
 */
public final class ContextAccess {
    /** Implemented by a class nested in DpaContext. */
    public interface Accessor {
        /**
         * The native side of a context.
         *
         * @param ctx the context
         * @return its native context
         */
        NativeContext nativeContext(DpaContext ctx);
    }

    private static volatile Accessor accessor;

    private ContextAccess() {
    }

    /**
     * Called once, by DpaContext's static initializer.
     *
     * @param a the accessor, a class nested in DpaContext
     * @throws IllegalStateException if one is registered already or {@code a} is not DpaContext's
     */
    public static synchronized void register(Accessor a) {
        if (a.getClass().getNestHost() != DpaContext.class) {
            throw new IllegalStateException("only DpaContext registers the context accessor");
        }
        if (accessor != null) {
            throw new IllegalStateException("context accessor already registered");
        }
        accessor = a;
    }

    /**
     * The native context inside {@code ctx}.
     *
     * @param ctx the context
     * @return its native context (possibly closed: its methods then throw IllegalStateException)
     * @throws NullPointerException if {@code ctx} is null
     */
    public static NativeContext of(DpaContext ctx) {
        Objects.requireNonNull(ctx, "ctx");
        // A DpaContext instance exists, so its class (and the registration) is initialised.
        return accessor.nativeContext(ctx);
    }
}
