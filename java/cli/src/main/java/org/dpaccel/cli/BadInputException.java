package org.dpaccel.cli;

/** Input the user can fix (missing file, option out of range); exit status 2 with this message. */
final class BadInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadInputException(String message) {
        super(message);
    }
}
