package org.dpaccel.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code --key value} / {@code --key=value} / {@code --flag} options, checked against a known set. */
public final class Options {
    private final Map<String, String> values = new LinkedHashMap<>();

    private Options() {
    }

    /**
     * @param flags options that take no value
     * @param known options that take a value
     */
    public static Options parse(String[] args, Set<String> flags, Set<String> known) {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
            String key = a.substring(2), val = null;
            int eq = key.indexOf('=');
            if (eq >= 0) {
                val = key.substring(eq + 1);
                key = key.substring(0, eq);
            }
            if (flags.contains(key)) {
                o.values.put(key, val == null ? "true" : val);
            } else if (known.contains(key)) {
                if (val == null) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException("--" + key + " needs a value");
                    }
                    val = args[++i];
                }
                o.values.put(key, val);
            } else {
                throw new IllegalArgumentException("unknown option --" + key + " (see --help)");
            }
        }
        return o;
    }

    public boolean has(String key) {
        return values.containsKey(key);
    }

    public String get(String key, String def) {
        return values.getOrDefault(key, def);
    }

    public boolean flag(String key) {
        return Boolean.parseBoolean(values.getOrDefault(key, "false"));
    }

    public int getInt(String key, int def, int min) {
        String v = values.get(key);
        if (v == null) {
            return def;
        }
        int x;
        try {
            x = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " = '" + v + "': not an integer");
        }
        if (x < min) {
            throw new IllegalArgumentException("--" + key + " = " + x + ": must be at least " + min);
        }
        return x;
    }

    public long getLong(String key, long def) {
        String v = values.get(key);
        try {
            return v == null ? def : Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " = '" + v + "': not an integer");
        }
    }

    /** A comma list of positive integers. */
    public List<Integer> getInts(String key, int def) {
        String v = values.get(key);
        List<Integer> out = new ArrayList<>();
        if (v == null) {
            out.add(def);
            return out;
        }
        for (String s : v.split(",")) {
            try {
                int x = Integer.parseInt(s.trim());
                if (x < 1) {
                    throw new NumberFormatException();
                }
                out.add(x);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--" + key + " = '" + v + "': expected positive integers, comma separated");
            }
        }
        return out;
    }

    public Map<String, String> asMap() {
        return values;
    }
}
