package org.dpaccel.spark;

import java.io.IOException;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;

/** File-system lookup shared by driver and tasks. */
final class HadoopFiles {
    private HadoopFiles() {
    }

    /**
     * The file system of {@code p}; for local files the raw one, so no .crc side files appear
     * next to the results (the outputs carry their own tile checks: line counts per row).
     */
    static FileSystem of(Path p, Configuration conf) throws IOException {
        FileSystem fs = p.getFileSystem(conf);
        return fs instanceof LocalFileSystem local ? local.getRawFileSystem() : fs;
    }
}
