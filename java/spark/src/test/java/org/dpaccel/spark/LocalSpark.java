package org.dpaccel.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/** Spark for tests: local mode (executor threads in this JVM), or a local cluster whose
 * executors are JVMs of their own. No UI, loopback only. */
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

    /**
     * Spark's standalone cluster inside this JVM ({@code local-cluster[workers,1,1024]}): a master
     * and the workers here, each executor a JVM of its own with this JVM's class path and Java
     * options. The executors' launcher needs a Spark home, which a Maven build lacks: they get
     * {@code SPARK_TESTING=1} (the launcher then accepts a home without jars).
     */
    static SparkConf cluster(String name, int workers) {
        String javaOptions = System.getProperty("dpaccel.spark.java.options", "").replaceAll("\\s+", " ").trim();
        return new SparkConf().setMaster("local-cluster[" + workers + ",1,1024]").setAppName(name)
            .set("spark.ui.enabled", "false")
            .set("spark.driver.host", "127.0.0.1")
            .set("spark.driver.bindAddress", "127.0.0.1")
            .set("spark.executor.extraClassPath", System.getProperty("java.class.path"))
            .set("spark.executor.extraJavaOptions", javaOptions)
            .set("spark.executorEnv.SPARK_TESTING", "1")
            .set("spark.executorEnv.SPARK_SCALA_VERSION", scala.util.Properties.versionNumberString()
                .replaceAll("^(\\d+\\.\\d+).*", "$1"));
    }
}
