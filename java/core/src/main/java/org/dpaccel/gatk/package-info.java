/**
 * Implementations of GATK's native bindings ({@code PairHMMNativeBinding},
 * {@code SWAlignerNativeBinding}) on dpaccel. They need {@code gatk-native-bindings} on the class
 * path (see the module descriptor for the module path).
 */
package org.dpaccel.gatk;
