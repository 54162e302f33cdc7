/**
 * All-pairs genotype distance with PLINK's flat-missing semantics: wrap PLINK 1 .bed rows in a
 * {@link org.dpaccel.distance.GenotypeBatch}, count with
 * {@link org.dpaccel.distance.GenotypeDistance#counts}, and derive PLINK's and KING's metrics
 * with {@link org.dpaccel.distance.DistanceMetric}. See docs/distance.md.
 */
package org.dpaccel.distance;
