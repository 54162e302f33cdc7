/**
 * Smith-Waterman alignment with GATK 4.6's semantics: build a {@link org.dpaccel.sw.SwBatch} and
 * run it with {@link org.dpaccel.sw.SmithWaterman#align}; CIGARs and offsets equal GATK's
 * {@code SmithWatermanJavaAligner} byte for byte.
 */
package org.dpaccel.sw;
