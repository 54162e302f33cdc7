package org.dpaccel;

/** A failure reported by the native library, with its stable {@link Status}. */
public class DpaccelException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final Status status;

    /** Called from JNI with the native status code. */
    public DpaccelException(int statusCode, String message) {
        this(Status.fromCode(statusCode), message);
    }

    public DpaccelException(Status status, String message) {
        super(message);
        this.status = status;
    }

    public DpaccelException(Status status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    public Status status() {
        return status;
    }
}
