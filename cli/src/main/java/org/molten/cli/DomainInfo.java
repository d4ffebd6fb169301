package org.molten.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.molten.forcefield.bundled.ModelRegistry;
import org.molten.forcefield.domain.AtomEnvironment;
import org.molten.forcefield.domain.ModelDomain;
import org.molten.forcefield.student.StudentWeights;

/** {@code molten info}'s lines about the bundled versions and the domain of the active model. */
final class DomainInfo {
    /** Environments per line of the list. */
    private static final int PER_LINE = 6;

    private DomainInfo() {
    }

    /** "models   student-gfn2-v5 (v5, default)" and the domain: elements, molecules, frames, environments with counts. */
    static void print(StudentWeights active, String activeName, PrintStream out) {
        out.printf("models   bundled: %s; active: %s (--model NAME or FILE chooses)%n", String.join(", ", ModelRegistry.names()),
                activeName);
        ModelDomain d = ModelDomain.of(active);
        if (!d.known()) {
            out.printf("domain   unknown: the weight file has no domain entry; no structure can be checked against it%n");
            return;
        }
        out.printf("domain   elements %s; %d training molecules%s; %d frames; %d atom environments, element(bonded "
                        + "neighbours) [atoms over all frames]:%n", String.join(", ", d.elements()), d.moleculeCount(),
                d.molecules().isEmpty() ? "" : " (" + String.join(", ", d.molecules()) + ")", d.frames(), d.environments().size());
        List<String> typical = new ArrayList<>();
        List<String> strained = new ArrayList<>();
        for (Map.Entry<AtomEnvironment, Long> e : d.environments().entrySet()) {
            (d.onlyTransient(e.getKey()) ? strained : typical).add(e.getKey().canonical() + " [" + e.getValue() + "]");
        }
        list(d.typical().isEmpty() ? "all" : "typical of a training molecule (" + typical.size() + ")", typical, out);
        list("seen only in strained frames (" + strained.size() + "; a structure's atom in one of these is warned about)",
                strained, out);
        if (d.hasPairs()) {
            out.printf("         %d bonded pairs of environments (from %s; a structure's bond between two environments never "
                    + "bonded in the training data is warned about)%n", d.pairs().size(),
                    d.pairsSource() == null ? "the training data" : d.pairsSource());
        }
    }

    private static void list(String heading, List<String> items, PrintStream out) {
        if (items.isEmpty()) {
            return;
        }
        out.printf("         %s:%n", heading);
        for (int k = 0; k < items.size(); k += PER_LINE) {
            out.printf("           %s%n", String.join("  ", items.subList(k, Math.min(items.size(), k + PER_LINE))));
        }
    }
}
