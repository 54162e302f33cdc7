/**
 * PaPaRa 2 placement scoring (papara_core 2.5 semantics): one ancestral profile per edge of a
 * reference tree ({@link org.dpaccel.papara.PaparaReference}), every read scored against every
 * profile, the best edge per read ({@link org.dpaccel.papara.Papara}). See docs/papara.md.
 */
package org.dpaccel.papara;
