package org.dpaccel.cli;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.dpaccel.sw.SwOverhang;
import org.dpaccel.sw.SwParameters;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** GATK's Smith-Waterman parameter sets and overhang strategies, by the names GATK users know. */
final class SwParameterSets {
    /** GATK's SmithWatermanAlignmentConstants names, in the order --help lists them. */
    static final Map<String, SwParameters> BY_NAME = new LinkedHashMap<>();

    static {
        BY_NAME.put("NEW_SW_PARAMETERS", SwParameters.HAPLOTYPE_TO_REFERENCE);
        BY_NAME.put("ALIGNMENT_TO_BEST_HAPLOTYPE_SW_PARAMETERS", SwParameters.READ_TO_HAPLOTYPE);
        BY_NAME.put("STANDARD_NGS", SwParameters.DANGLING_END);
        BY_NAME.put("ORIGINAL_DEFAULT", SwParameters.ORIGINAL_DEFAULT);
    }

    private SwParameterSets() {
    }

    static final class Converter implements ITypeConverter<SwParameters> {
        @Override
        public SwParameters convert(String value) {
            SwParameters p = BY_NAME.get(value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
            if (p == null) {
                throw new TypeConversionException("'" + value + "': expected one of " + String.join(", ", BY_NAME.keySet()));
            }
            return p;
        }
    }

    /** softclip, indel, leading-indel, ignore (GATK's SWOverhangStrategy, any case, - or _). */
    static final class StrategyConverter implements ITypeConverter<SwOverhang> {
        @Override
        public SwOverhang convert(String value) {
            try {
                return SwOverhang.valueOf(value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "': expected softclip, indel, leading-indel or ignore");
            }
        }
    }
}
