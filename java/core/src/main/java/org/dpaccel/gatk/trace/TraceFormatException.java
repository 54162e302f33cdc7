package org.dpaccel.gatk.trace;

import java.io.IOException;

/** A trace that is not one: the message names the file, the record and the field. */
public final class TraceFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, and where
     */
    public TraceFormatException(String message) {
        super(message);
    }

    /**
     * @param message what is wrong, and where
     * @param cause the underlying read error
     */
    public TraceFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
