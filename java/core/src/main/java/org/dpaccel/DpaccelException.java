package org.dpaccel;

/**
 * A failure reported by the native library, or the library's absence, with its stable
 * {@link Status}. Invalid arguments caught in Java are IllegalArgumentException or
 * NullPointerException instead, and use of a closed context is IllegalStateException.
 */
public class DpaccelException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** Why the call failed (part of the serialized form). */
    private final Status status;

    /* Called from JNI (jni_onload.c looks up this (int, String) constructor). */
    DpaccelException(int statusCode, String message) {
        this(Status.fromCode(statusCode), message);
    }

    /**
     * An exception with a status and a message.
     *
     * @param status why the call failed
     * @param message what failed, naming the field, index, value and limit where there is one
     */
    public DpaccelException(Status status, String message) {
        super(message);
        this.status = status;
    }

    /**
     * An exception with a status, a message and the underlying cause.
     *
     * @param status why the call failed
     * @param message what failed
     * @param cause the underlying error
     */
    public DpaccelException(Status status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    /**
     * Why the call failed.
     *
     * @return the status
     */
    public Status status() {
        return status;
    }
}
