package org.dpaccel.bench.data;

import java.io.IOException;

/**
 * A data line a reader cannot use. The message reads {@code FILE line N, field F: problem}, so a
 * user can go straight to the record; the parts stay available to callers that format their own.
 */
public final class InputFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;
    private final String field;

    /** {@code field} may be null when the whole line is wrong (field count, header). */
    public InputFormatException(String source, int line, String field, String problem) {
        super(source + " line " + line + (field == null ? "" : ", field " + field) + ": " + problem);
        this.source = source;
        this.line = line;
        this.field = field;
    }

    public String source() {
        return source;
    }

    /** 1-based line number; 0 when the problem is the file as a whole (no data lines). */
    public int line() {
        return line;
    }

    public String field() {
        return field;
    }
}
