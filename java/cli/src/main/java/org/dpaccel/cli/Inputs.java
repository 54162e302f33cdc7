package org.dpaccel.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Opening input files, with the missing-file cases reported as bad input (exit 2). */
final class Inputs {
    private Inputs() {
    }

    /** Latin-1: every byte maps to one char, so a stray byte is reported, never a decoding error. */
    static BufferedReader open(Path file) throws IOException {
        if (Files.isDirectory(file)) {
            throw new BadInputException(file + ": is a directory");
        }
        if (!Files.isRegularFile(file)) {
            throw new BadInputException(file + ": no such file");
        }
        if (!Files.isReadable(file)) {
            throw new BadInputException(file + ": not readable");
        }
        return Files.newBufferedReader(file, StandardCharsets.ISO_8859_1);
    }
}
