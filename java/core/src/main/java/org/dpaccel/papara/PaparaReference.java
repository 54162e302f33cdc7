package org.dpaccel.papara;

import java.util.Objects;

import org.dpaccel.DpaContext;
import org.dpaccel.internal.ContextAccess;
import org.dpaccel.internal.NativeContext;

/**
 * One ancestral profile per edge of a reference tree, in PaPaRa's edge order. A site byte holds
 * the state mask in bits 0-3 (A=1 C=2 G=4 T=8) and the gap flag in bit 4.
 */
public final class PaparaReference {
    final byte[] sites;
    private final int numEdges;
    private final long numSites;
    private final int[] edgeNodes;
    private final long[] columns;

    private PaparaReference(byte[] sites, int numEdges, long numSites, int[] edgeNodes, long[] columns) {
        this.sites = sites;
        this.numEdges = numEdges;
        this.numSites = numSites;
        this.edgeNodes = edgeNodes;
        this.columns = columns;
    }

    /**
     * Builds the profiles of every edge.
     *
     * @param ctx the context
     * @param parent parent node per node, -1 for the one root; children are ordered by index
     * @param length branch length to the parent per node (the root's ignored)
     * @param row alignment row of each tip, -1 for inner nodes
     * @param rows the alignment, rows of equal length (characters as in a PHYLIP file)
     * @param model the gap model
     * @return the profiles
     * @throws IllegalArgumentException on null or unequal arrays
     * @throws org.dpaccel.DpaccelException with the native message on a bad tree or alignment
     */
    public static PaparaReference build(DpaContext ctx, int[] parent, double[] length, int[] row, byte[][] rows,
        GapModel model) {
        Objects.requireNonNull(ctx, "ctx");
        Objects.requireNonNull(parent, "parent");
        Objects.requireNonNull(length, "length");
        Objects.requireNonNull(row, "row");
        Objects.requireNonNull(rows, "rows");
        Objects.requireNonNull(model, "model");
        if (length.length != parent.length || row.length != parent.length) {
            throw new IllegalArgumentException("parent, length and row differ in length: " + parent.length + ", "
                + length.length + ", " + row.length);
        }
        if (rows.length == 0) {
            throw new IllegalArgumentException("the alignment has no rows");
        }
        int cols = Objects.requireNonNull(rows[0], "rows[0]").length;
        byte[] chars = new byte[Math.multiplyExact(rows.length, cols)];
        for (int r = 0; r < rows.length; r++) {
            byte[] x = Objects.requireNonNull(rows[r], "rows[" + r + "]");
            if (x.length != cols) {
                throw new IllegalArgumentException("alignment row " + r + " has " + x.length + " characters, row 0 "
                    + cols);
            }
            System.arraycopy(x, 0, chars, r * cols, cols);
        }
        NativeContext nc = ContextAccess.of(ctx);
        long[] shape = nc.paparaShape(parent, length, row, rows.length, cols, chars);
        int e = (int) shape[0];
        long s = shape[1];
        byte[] sites = new byte[Math.toIntExact(Math.multiplyExact((long) e, s))];
        int[] edges = new int[2 * e];
        long[] columns = new long[(int) s];
        nc.paparaBuild(parent, length, row, rows.length, cols, chars, model.code(), sites, edges, columns);
        return new PaparaReference(sites, e, s, edges, columns);
    }

    /**
     * Profiles given as site bytes (e.g. read back from {@code dpaccel papara --profiles}), for scoring
     * without a tree. Site {@code s} keeps column {@code s}; edge nodes are -1.
     *
     * @param profiles one array of site bytes per profile (mask in bits 0-3, gap flag in bit 4), equal
     *     non-zero lengths
     * @return the profiles (copied)
     * @throws IllegalArgumentException naming the profile and site of a bad byte or length
     */
    public static PaparaReference ofSites(byte[][] profiles) {
        Objects.requireNonNull(profiles, "profiles");
        if (profiles.length == 0) {
            throw new IllegalArgumentException("no profiles");
        }
        int s = Objects.requireNonNull(profiles[0], "profiles[0]").length;
        if (s == 0) {
            throw new IllegalArgumentException("profile 0 has no sites");
        }
        byte[] sites = new byte[Math.multiplyExact(profiles.length, s)];
        for (int e = 0; e < profiles.length; e++) {
            byte[] p = Objects.requireNonNull(profiles[e], "profiles[" + e + "]");
            if (p.length != s) {
                throw new IllegalArgumentException("profile " + e + " has " + p.length + " sites, profile 0 " + s);
            }
            for (int i = 0; i < s; i++) {
                if ((p[i] & 0xe0) != 0) {
                    throw new IllegalArgumentException("profile " + e + " site " + i + " = " + (p[i] & 0xff)
                        + ": bits 5-7 must be zero");
                }
            }
            System.arraycopy(p, 0, sites, e * s, s);
        }
        int[] edges = new int[2 * profiles.length];
        java.util.Arrays.fill(edges, -1);
        long[] columns = new long[s];
        for (int i = 0; i < s; i++) {
            columns[i] = i;
        }
        return new PaparaReference(sites, profiles.length, s, edges, columns);
    }

    /** @return the number of edges (profiles) */
    public int numEdges() {
        return numEdges;
    }

    /** @return the sites per profile (alignment columns not gap in every tree row) */
    public long numSites() {
        return numSites;
    }

    /**
     * @param edge edge index
     * @param end 0 for the side below, 1 for the other end
     * @return the tree node at that end
     */
    public int edgeNode(int edge, int end) {
        Objects.checkIndex(edge, numEdges);
        Objects.checkIndex(end, 2);
        return edgeNodes[2 * edge + end];
    }

    /**
     * @param site site index
     * @return the alignment column the site comes from
     */
    public long column(int site) {
        return columns[Objects.checkIndex(site, columns.length)];
    }

    /**
     * @param edge edge index
     * @param site site index
     * @return the site byte (mask in bits 0-3, gap flag in bit 4)
     */
    public int site(int edge, int site) {
        Objects.checkIndex(edge, numEdges);
        Objects.checkIndex(site, (int) numSites);
        return sites[(int) (edge * numSites + site)] & 0xff;
    }
}
