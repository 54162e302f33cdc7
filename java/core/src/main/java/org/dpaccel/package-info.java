/**
 * The dpaccel entry points: {@link org.dpaccel.DpaContext} (a native context: CPU kernels,
 * threads and GPUs), its {@link org.dpaccel.Config}, and the shared vocabulary
 * ({@link org.dpaccel.Backend}, {@link org.dpaccel.Isa}, {@link org.dpaccel.Status},
 * {@link org.dpaccel.DpaccelException}). The workloads are in {@link org.dpaccel.pairhmm} and
 * {@link org.dpaccel.sw}.
 */
package org.dpaccel;
