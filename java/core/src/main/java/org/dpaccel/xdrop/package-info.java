/**
 * X-drop seed extension with SeqAn 2.x semantics (gapped X-drop, linear gaps): build an
 * {@link org.dpaccel.xdrop.XdropBatch} of sequences and seeds and run it with
 * {@link org.dpaccel.xdrop.Xdrop#compute}; every result equals SeqAn's
 * {@code extendSeed(..., EXTEND_BOTH, ..., GappedXDrop())}. See docs/xdrop.md.
 */
package org.dpaccel.xdrop;
