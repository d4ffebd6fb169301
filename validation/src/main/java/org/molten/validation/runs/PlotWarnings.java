package org.molten.validation.runs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plot failures of one cause said once: on a machine without fonts every plot fails the same way
 * ("Fontconfig head is null"), and twenty identical warnings would bury the others.
 */
final class PlotWarnings {
    private PlotWarnings() {}

    /** The warnings with those of the same cause (the text after the file name) folded into one. */
    static List<String> condense(List<String> warnings) {
        Map<String, List<String>> byCause = new LinkedHashMap<>();
        List<String> out = new ArrayList<>();
        for (String w : warnings) {
            int at = w.indexOf(" could not be drawn: ");
            if (!w.startsWith("plot ") || at < 0) {
                out.add(w);
                continue;
            }
            String file = w.substring("plot ".length(), at);
            byCause.computeIfAbsent(w.substring(at + " could not be drawn: ".length()), c -> new ArrayList<>()).add(file);
        }
        byCause.forEach((cause, files) -> out.add(files.size() == 1 ? "plot " + files.get(0) + " could not be drawn: " + cause
                : files.size() + " plots were skipped (" + files.get(0) + ", ...): " + cause));
        return out;
    }
}
