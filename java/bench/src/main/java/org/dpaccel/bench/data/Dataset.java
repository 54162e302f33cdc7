package org.dpaccel.bench.data;

import java.util.List;

/**
 * A named list of regions. {@code gatkShaped}: qualities and lengths as HaplotypeCaller produces
 * them, so dpaccel backends are held to 1e-5 (log10) of the double reference rather than 1e-4.
 */
public record Dataset(String name, String description, List<Region> regions, boolean gatkShaped) {
    public Dataset {
        regions = List.copyOf(regions);
    }

    public long cells() {
        long c = 0;
        for (Region r : regions) {
            c += r.cells();
        }
        return c;
    }

    public long pairs() {
        long p = 0;
        for (Region r : regions) {
            p += r.pairs();
        }
        return p;
    }

    public Dataset limit(int maxRegions) {
        if (maxRegions <= 0 || maxRegions >= regions.size()) {
            return this;
        }
        return new Dataset(name, description + " (first " + maxRegions + " regions)", regions.subList(0, maxRegions),
            gatkShaped);
    }
}
