package org.dpaccel.cli;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Where results go: stdout, or {@code -o FILE}. A file is written under a temporary name in the
 * same directory and renamed over FILE by {@link #commit()}, so a command that fails leaves no
 * partial file behind (and an existing FILE untouched).
 */
final class OutputFile implements AutoCloseable {
    private final Path target;
    private final Path temp;
    private final PrintStream stream;
    private boolean committed;

    private OutputFile(Path target, Path temp, PrintStream stream) {
        this.target = target;
        this.temp = temp;
        this.stream = stream;
    }

    /** {@code target} null = {@code stdout} (flushed, never closed). */
    static OutputFile open(Path target, PrintStream stdout) throws IOException {
        if (target == null) {
            return new OutputFile(null, null, new PrintStream(new FilterOutputStream(stdout) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    flush();
                }
            }, false, StandardCharsets.UTF_8));
        }
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        if (Files.isDirectory(abs)) {
            throw new BadInputException("-o " + target + ": is a directory");
        }
        if (dir == null || !Files.isDirectory(dir)) {
            throw new BadInputException("-o " + target + ": directory " + dir + " does not exist");
        }
        Path temp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".part");
        OutputStream os = new BufferedOutputStream(Files.newOutputStream(temp), 1 << 16);
        return new OutputFile(target, temp, new PrintStream(os, false, StandardCharsets.UTF_8));
    }

    PrintStream stream() {
        return stream;
    }

    /**
     * The temporary file for a writer outside this class (a native one): it writes the whole file
     * there and nothing goes to {@link #stream()}; {@link #commit()} renames it as usual.
     */
    Path temp() {
        if (temp == null) {
            throw new IllegalStateException("stdout has no file to write");
        }
        return temp;
    }

    /** Makes the output final: flushed to stdout, or renamed over the target file. */
    void commit() throws IOException {
        stream.flush();
        if (stream.checkError()) {
            throw new IOException("writing " + (target == null ? "stdout" : target) + " failed");
        }
        if (temp != null) {
            stream.close();
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        committed = true;
    }

    @Override
    public void close() throws IOException {
        stream.close();
        if (temp != null && !committed) {
            Files.deleteIfExists(temp);
        }
    }
}
