package org.molten.forcefield.bundled;

import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.structures.io.Frame;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Accuracy of a force field against reference (teacher) labels, per system:
 * energy MAE per atom, mean over frames of |E - E_ref| / N (meV/atom), and force MAE and RMSE
 * over all Cartesian components of all atoms of all frames (eV/Å).
 *
 * @param system                 system name ("all" for every frame of every system pooled)
 * @param frames                 frames evaluated
 * @param atoms                  atoms summed over frames
 * @param energyMaeMevPerAtom    energy MAE per atom in meV/atom
 * @param forceMaeEvPerA         force-component MAE in eV/Å
 * @param forceRmseEvPerA        force-component RMSE in eV/Å
 */
public record Accuracy(String system, int frames, long atoms, double energyMaeMevPerAtom, double forceMaeEvPerA,
                       double forceRmseEvPerA) {

    /** The name of the pooled entry of {@link #evaluate(ForceField, Map)}. */
    public static final String ALL = "all";

    /** Sums of errors, so that systems can be pooled exactly. */
    private static final class Sums {
        int frames;
        long atoms;
        double energyAbsPerAtom;   // eV/atom
        double forceAbs;           // eV/Å
        double forceSq;            // (eV/Å)²

        void add(Sums o) {
            frames += o.frames;
            atoms += o.atoms;
            energyAbsPerAtom += o.energyAbsPerAtom;
            forceAbs += o.forceAbs;
            forceSq += o.forceSq;
        }

        Accuracy result(String name) {
            double comps = 3.0 * atoms;
            return new Accuracy(name, frames, atoms, 1e3 * energyAbsPerAtom / frames, forceAbs / comps,
                    Math.sqrt(forceSq / comps));
        }
    }

    /** Accuracy of {@code ff} on labelled frames (each with energy and forces). */
    public static Accuracy of(String system, ForceField ff, List<Frame> frames) {
        return sums(system, ff, frames).result(system);
    }

    /** Accuracy per system, in the map's order, plus {@link #ALL} pooled over every frame. */
    public static Map<String, Accuracy> evaluate(ForceField ff, Map<String, List<Frame>> testSet) {
        Map<String, Accuracy> out = new LinkedHashMap<>();
        Sums all = new Sums();
        for (Map.Entry<String, List<Frame>> e : testSet.entrySet()) {
            Sums s = sums(e.getKey(), ff, e.getValue());
            all.add(s);
            out.put(e.getKey(), s.result(e.getKey()));
        }
        out.put(ALL, all.result(ALL));
        return out;
    }

    private static Sums sums(String system, ForceField ff, List<Frame> frames) {
        if (frames.isEmpty()) {
            throw new IllegalArgumentException("system " + system + " has no frames");
        }
        Sums s = new Sums();
        for (int k = 0; k < frames.size(); k++) {
            Frame fr = frames.get(k);
            if (fr.energyEv().isEmpty() || !fr.hasForces()) {
                throw new IllegalArgumentException("system " + system + ", frame " + k + ": no reference energy/forces");
            }
            Atoms atoms = fr.atoms().copy();
            int n = atoms.size();
            double[] f = new double[3 * n];
            double e = ff.energyAndForces(atoms, f);
            double[] ref = fr.forcesEvPerA().orElseThrow();
            s.frames++;
            s.atoms += n;
            s.energyAbsPerAtom += Math.abs(e - fr.energyEv().getAsDouble()) / n;
            for (int c = 0; c < 3 * n; c++) {
                double d = f[c] - ref[c];
                s.forceAbs += Math.abs(d);
                s.forceSq += d * d;
            }
        }
        return s;
    }
}
