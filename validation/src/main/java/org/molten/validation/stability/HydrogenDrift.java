package org.molten.validation.stability;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.Bonds;
import org.molten.core.Element;
import org.molten.validation.metrics.StructuralIntegrity;

/**
 * {@link HydrogenRule#DRIFT}, followed frame by frame: for every hydrogen bonded to a heavy atom at the start
 * (bonds of {@link Bonds#perceive(Atoms)}), the frame at which its current stretch of frames farther than
 * {@value StructuralIntegrity#MAX_HYDROGEN_DISTANCE_A} Å from every heavy atom began; the drift frame is the earliest
 * such start among the hydrogens still drifting at the last frame seen. Not thread-safe.
 */
final class HydrogenDrift {
    private final int[] hydrogens;
    private final int[] heavy;
    private final String[] labels;
    private final int[] since;

    HydrogenDrift(Atoms start) {
        List<Integer> h = new ArrayList<>();
        for (Bonds.Bond b : Bonds.perceive(start)) {
            for (int[] p : new int[][] {{b.i(), b.j()}, {b.j(), b.i()}}) {
                if (start.element(p[0]) == Element.H && start.element(p[1]) != Element.H && !h.contains(p[0])) {
                    h.add(p[0]);
                }
            }
        }
        hydrogens = h.stream().mapToInt(Integer::intValue).sorted().toArray();
        List<Integer> heavyAtoms = new ArrayList<>();
        labels = new String[start.size()];
        for (int i = 0; i < start.size(); i++) {
            labels[i] = start.element(i).symbol() + i;
            if (start.element(i) != Element.H) {
                heavyAtoms.add(i);
            }
        }
        heavy = heavyAtoms.stream().mapToInt(Integer::intValue).toArray();
        since = new int[hydrogens.length];
        Arrays.fill(since, -1);
    }

    void observe(int frame, Atoms atoms) {
        for (int k = 0; k < hydrogens.length; k++) {
            boolean away = true;
            for (int a : heavy) {
                away &= atoms.distance(hydrogens[k], a) > StructuralIntegrity.MAX_HYDROGEN_DISTANCE_A;
            }
            since[k] = !away ? -1 : since[k] < 0 ? frame : since[k];
        }
    }

    /** The drift frame so far (final once the run ended), or -1. */
    int frame() {
        return Arrays.stream(since).filter(f -> f >= 0).min().orElse(-1);
    }

    /** "hydrogen H5 farther than 2.5 Å from every heavy atom from frame 312 on", or "" without drift. */
    String describe() {
        int f = frame();
        for (int k = 0; k < hydrogens.length; k++) {
            if (since[k] == f && f >= 0) {
                return String.format(Locale.ROOT, "hydrogen %s farther than %.1f Å from every heavy atom from frame %d on",
                        labels[hydrogens[k]], StructuralIntegrity.MAX_HYDROGEN_DISTANCE_A, f);
            }
        }
        return "";
    }
}
