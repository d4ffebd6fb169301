package org.molten.structures.io;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code Properties=name:type:columns:...} declaration of extended XYZ: which per-atom
 * quantities each atom line holds, in which columns. Types: S string, R real, I integer, L logical.
 */
final class PropertiesSpec {
    /** One declared property: its name, type letter, number of columns and first column (0-based). */
    record Column(String name, char type, int count, int first) {
        String declaration() {
            return name + ":" + type + ":" + count;
        }
    }

    final List<Column> columns;
    final int totalColumns;
    final String text;

    private PropertiesSpec(List<Column> columns, int total, String text) {
        this.columns = columns;
        this.totalColumns = total;
        this.text = text;
    }

    /** The default of plain XYZ and of extended XYZ without a Properties key. */
    static final String DEFAULT = "species:S:1:pos:R:3";

    static PropertiesSpec parse(String text) throws KeyValueLine.ParseException {
        String[] p = text.split(":", -1);
        if (p.length % 3 != 0 || text.isEmpty()) {
            throw new KeyValueLine.ParseException("Properties '" + text + "' is not a list of name:type:columns triples");
        }
        List<Column> cols = new ArrayList<>();
        int first = 0;
        for (int i = 0; i < p.length; i += 3) {
            String name = p[i];
            String type = p[i + 1].toUpperCase(Locale.ROOT);
            if (name.isEmpty() || type.length() != 1 || "SRIL".indexOf(type.charAt(0)) < 0) {
                throw new KeyValueLine.ParseException("Properties '" + text + "': column '" + name + ":" + p[i + 1]
                        + "' needs a type S, R, I or L");
            }
            int count;
            try {
                count = Integer.parseInt(p[i + 2]);
            } catch (NumberFormatException e) {
                count = -1;
            }
            if (count < 1) {
                throw new KeyValueLine.ParseException("Properties '" + text + "': column '" + name
                        + "' has a column count '" + p[i + 2] + "' that is not a positive integer");
            }
            cols.add(new Column(name, type.charAt(0), count, first));
            first += count;
        }
        return new PropertiesSpec(List.copyOf(cols), first, text);
    }

    /** The first column whose name is one of {@code names} (case-insensitive), or null. */
    Column find(String... names) {
        for (Column c : columns) {
            for (String n : names) {
                if (c.name.equalsIgnoreCase(n)) {
                    return c;
                }
            }
        }
        return null;
    }
}
