package org.dpaccel.spark;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * Shared storage that fails: the local file system under the scheme {@code flaky://}, whose
 * part-attempt files ({@code _attempt-*}) die with an IOException after a few bytes while
 * {@link #failures} is above zero (each failure counts it down; -1 = always). Local-mode Spark
 * runs tasks in this JVM, so the static counter reaches them.
 */
public class FlakyFileSystem extends RawLocalFileSystem {
    static final AtomicInteger failures = new AtomicInteger();
    static final AtomicInteger failed = new AtomicInteger();

    @Override
    public URI getUri() {
        return URI.create("flaky:///");
    }

    @Override
    public String getScheme() {
        return "flaky";
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
        short replication, long blockSize, Progressable progress) throws IOException {
        return flaky(f, super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress));
    }

    @Override
    public FSDataOutputStream create(Path f, boolean overwrite, int bufferSize, short replication, long blockSize,
        Progressable progress) throws IOException {
        return flaky(f, super.create(f, overwrite, bufferSize, replication, blockSize, progress));
    }

    private static FSDataOutputStream flaky(Path f, FSDataOutputStream real) throws IOException {
        if (!f.getName().startsWith("_attempt-") || !takeFailure()) {
            return real;
        }
        OutputStream dying = new OutputStream() {
            private int written;

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (written + len > 10) {
                    real.write(b, off, Math.max(0, 10 - written));
                    real.flush();
                    throw new IOException("injected: shared storage lost " + f.getName());
                }
                real.write(b, off, len);
                written += len;
            }

            @Override
            public void close() throws IOException {
                real.close();
            }
        };
        return new FSDataOutputStream(dying, null);
    }

    private static boolean takeFailure() {
        while (true) {
            int n = failures.get();
            if (n == 0) {
                return false;
            }
            if (n < 0 || failures.compareAndSet(n, n - 1)) {
                failed.incrementAndGet();
                return true;
            }
        }
    }
}
