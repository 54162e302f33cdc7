package org.dpaccel.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.dpaccel.bench.VectorsWriter;
import org.dpaccel.bench.data.PairHmmGenerator;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code dpaccel bench gen-vectors}: the golden PairHMM vectors of test-data/ (test-data/README.md). */
@Command(name = "gen-vectors", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    description = "Writes gatk_regions.snapshot.tsv and edge_cases.snapshot.tsv with expected values from the scalar double-precision "
        + "reference; prints one line per file.")
final class GenVectorsCommand implements Callable<Integer> {
    @ParentCommand
    BenchCommand parent;

    @Option(names = "--out-dir", paramLabel = "DIR", defaultValue = "test-data/pairhmm",
        description = "where the files go (default: ${DEFAULT-VALUE})")
    Path outDir;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "" + PairHmmGenerator.DEFAULT_SEED,
        description = "generator seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--regions", paramLabel = "N", defaultValue = "" + VectorsWriter.GATK_REGIONS,
        description = "GATK-shaped regions in gatk_regions.snapshot.tsv (default: ${DEFAULT-VALUE})")
    int regions;

    @Override
    public Integer call() throws IOException {
        return VectorsWriter.run(outDir, seed, regions, parent.top.out);
    }
}
