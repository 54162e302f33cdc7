package org.dpaccel.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An executor process killed in the middle of a distance job. Spark's standalone cluster runs
 * inside this JVM ({@code local-cluster[2,1,1024]}: a master and two workers here, each executor
 * a JVM of its own, launched with this JVM's class path), and the executor that starts the
 * job's first task is killed through the cluster manager ({@code SparkContext.killExecutor}:
 * the worker destroys the process) while the job runs. Its tasks are lost and rerun on the
 * other executor; the output must equal the single-machine {@code dpaccel distance --counts}
 * byte for byte, with only finished parts and {@code _SUCCESS} in the parts folder.
 * ({@link LocalSpark#cluster} says how the executors start without a Spark home.)
 */
class SparkExecutorKillTest {
    @Test
    void distanceJobSurvivesAKilledExecutor(@TempDir Path dir) throws Exception {
        long seed = System.nanoTime();
        System.err.println("SparkExecutorKillTest seed " + seed);
        String prefix = dir.resolve("c").toString();
        SparkDistanceTest.write(prefix, new Random(seed));
        Path single = SparkDistanceTest.runSingleMachine(prefix, dir);

        SparkConf conf = LocalSpark.cluster("SparkExecutorKillTest", 2).set("spark.task.maxFailures", "4");
        AtomicReference<String> victim = new AtomicReference<>();
        Set<String> removed = ConcurrentHashMap.newKeySet();
        CountDownLatch started = new CountDownLatch(1);
        int[] tasksEndedBeforeKill = {0};
        JavaSparkContext jsc = new JavaSparkContext(conf);
        try {
            jsc.sc().addSparkListener(new SparkListener() {
                @Override
                public void onTaskStart(SparkListenerTaskStart e) {
                    if (victim.compareAndSet(null, e.taskInfo().executorId())) {
                        started.countDown();
                    }
                }

                @Override
                public void onTaskEnd(SparkListenerTaskEnd e) {
                    if (removed.isEmpty()) {
                        tasksEndedBeforeKill[0]++;
                    }
                }

                @Override
                public void onExecutorRemoved(SparkListenerExecutorRemoved e) {
                    removed.add(e.executorId());
                }
            });
            // Both executors registered before the job, so the lost tasks have somewhere to go.
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (jsc.sc().getExecutorIds().size() < 2 && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            assertEquals(2, jsc.sc().getExecutorIds().size(), "executors registered: " + jsc.sc().getExecutorIds());
            Thread killer = new Thread(() -> {
                try {
                    if (started.await(120, TimeUnit.SECONDS)) {
                        jsc.sc().killExecutor(victim.get());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "executor-killer");
            killer.start();
            SparkDistance.Options o = new SparkDistance.Options();
            o.bfile = prefix;
            o.out = dir.resolve("killed").toString();
            o.tile = 1; // N(N+1)/2 one-sample tiles: the job outlives the kill
            o.minKinship = Double.NaN;
            SparkDistance.Summary s = SparkDistance.run(jsc, o);
            killer.join();
            System.err.println("SparkExecutorKillTest: killed executor " + victim.get() + " after "
                + tasksEndedBeforeKill[0] + " of " + s.tiles() + " tasks had ended; removed " + removed);
            assertTrue(removed.contains(victim.get()),
                "executor " + victim.get() + " was not removed during the job (removed: " + removed + ")");
            int n = SparkDistanceTest.N;
            assertEquals(n * (n - 1) / 2, s.pairsWritten());
            assertFalse(tasksEndedBeforeKill[0] >= s.tiles(), "the job ended before the kill took effect");
        } finally {
            jsc.stop();
        }
        assertArrayEquals(Files.readAllBytes(single),
            Files.readAllBytes(dir.resolve("killed.counts.tsv")));
        assertEquals(Files.readString(dir.resolve("single.id")), Files.readString(dir.resolve("killed.id")));
        int n = SparkDistanceTest.N;
        try (var l = Files.list(dir.resolve("killed.parts"))) {
            assertEquals(n * (n + 1) / 2 + 1, l.count(), "parts and _SUCCESS only, no attempt files");
        }
    }
}
