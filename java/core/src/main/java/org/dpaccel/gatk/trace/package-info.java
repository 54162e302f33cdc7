/**
 * Traces of the kernel calls a GATK run makes (docs/GATK.md, "HaplotypeCaller traces"): the GATK
 * drop-in writes one with {@code -Ddpaccel.gatk.trace=FILE}, and its replay tool runs the same calls
 * on dpaccel and on Intel GKL to project what each does to the run. {@link
 * org.dpaccel.gatk.trace.TraceWriter} and {@link org.dpaccel.gatk.trace.TraceReader} hold the
 * format; both use plain arrays, so this package needs nothing from GATK.
 */
package org.dpaccel.gatk.trace;
