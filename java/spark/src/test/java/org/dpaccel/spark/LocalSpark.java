package org.dpaccel.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/** A local-mode Spark context for tests: two executor threads, no UI, loopback only. */
final class LocalSpark {
    private LocalSpark() {
    }

    static JavaSparkContext start(String name) {
        SparkConf conf = new SparkConf().setMaster("local[2]").setAppName(name)
            .set("spark.ui.enabled", "false")
            .set("spark.driver.host", "127.0.0.1")
            .set("spark.driver.bindAddress", "127.0.0.1")
            .set("spark.task.maxFailures", "2");
        return new JavaSparkContext(conf);
    }
}
