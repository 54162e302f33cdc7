package org.dpaccel.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Runs {@link Main#run} in-process with captured streams; copies test resources to files. */
final class Cli {
    record Result(int rc, String out, String err) {
        String[] lines() {
            return out.isEmpty() ? new String[0] : out.split("\n");
        }

        @Override
        public String toString() {
            return "rc " + rc + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    private Cli() {
    }

    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A resource of this package copied into {@code dir}, so commands see a real file name. */
    static Path resource(Path dir, String name) throws IOException {
        Path p = dir.resolve(name);
        try (InputStream in = Cli.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("test resource " + name + " missing");
            }
            Files.copy(in, p);
        }
        return p;
    }

    /** Files in {@code dir} other than the given ones (leftover temporary output). */
    static long strayFiles(Path dir, Path... expected) throws IOException {
        try (var s = Files.list(dir)) {
            return s.filter(p -> {
                for (Path e : expected) {
                    if (p.getFileName().equals(e.getFileName())) {
                        return false;
                    }
                }
                return true;
            }).count();
        }
    }
}
