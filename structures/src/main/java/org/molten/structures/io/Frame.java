package org.molten.structures.io;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

import org.molten.core.Atoms;

/**
 * One frame of a structure file or trajectory: the atoms (species, masses in amu, positions in Å,
 * velocities in Å/fs, optional cell), optionally the potential energy (eV) and forces (eV/Å) of
 * the model that produced it, and free-form info (key → string), as ASE's {@code atoms.info}
 * (for example {@code step=1000 time_fs=500.0 seed=42}).
 *
 * <p>Immutable: the factories take a snapshot of the atoms and forces. {@link #atoms()} returns
 * that snapshot itself to keep reading cheap; treat it as read-only, or {@code copy()} it before
 * simulating from it.
 */
public final class Frame {
    /** Info keys follow extended XYZ: a letter or '_' and then letters, digits, '_' or '-'. */
    private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    /** Keys with a meaning of their own in extended XYZ; set them through the Frame's fields. */
    static final Set<String> RESERVED = Set.of("lattice", "properties", "pbc", "energy");

    private final Atoms atoms;
    private final double energyEv;   // NaN when absent
    private final double[] forces;   // null when absent
    private final Map<String, String> info;

    private Frame(Atoms atoms, double energyEv, double[] forces, Map<String, String> info) {
        this.atoms = atoms;
        this.energyEv = energyEv;
        this.forces = forces;
        this.info = info;
    }

    /** A frame holding a snapshot of {@code atoms}, no energy, no forces, no info. */
    public static Frame of(Atoms atoms) {
        return new Frame(atoms.copy(), Double.NaN, null, Map.of());
    }

    /**
     * A frame with the energy (eV) and forces (eV/Å, flat [3N], may be null) of a model.
     *
     * @throws IllegalArgumentException for a non-finite energy or force, or forces of the wrong length
     */
    public static Frame of(Atoms atoms, double energyEv, double[] forcesEvPerA) {
        Frame f = of(atoms).withEnergyEv(energyEv);
        return forcesEvPerA == null ? f : f.withForcesEvPerA(forcesEvPerA);
    }

    /** This frame with the potential energy in eV. */
    public Frame withEnergyEv(double energyEv) {
        if (!Double.isFinite(energyEv)) {
            throw new IllegalArgumentException("frame energy_eV must be finite: " + energyEv);
        }
        return new Frame(atoms, energyEv, forces, info);
    }

    /** This frame with forces in eV/Å (flat [3N], copied). */
    public Frame withForcesEvPerA(double[] forcesEvPerA) {
        if (forcesEvPerA.length != 3 * atoms.size()) {
            throw new IllegalArgumentException("forces need 3N = " + 3 * atoms.size() + " components, got "
                    + forcesEvPerA.length);
        }
        for (int i = 0; i < forcesEvPerA.length; i++) {
            if (!Double.isFinite(forcesEvPerA[i])) {
                throw new IllegalArgumentException("atom " + i / 3 + ": force " + "xyz".charAt(i % 3) + " is "
                        + forcesEvPerA[i] + " eV/Å");
            }
        }
        return new Frame(atoms, energyEv, forcesEvPerA.clone(), info);
    }

    /**
     * This frame with one more info entry (replacing one of the same key).
     *
     * @throws IllegalArgumentException for a key that is not [A-Za-z_][A-Za-z0-9_-]*, a reserved key
     *                                  (Lattice, Properties, pbc, energy), an empty value or a value
     *                                  with a line break
     */
    public Frame withInfo(String key, String value) {
        Map<String, String> m = new LinkedHashMap<>(info);
        m.put(checkKey(key), checkValue(key, value));
        return new Frame(atoms, energyEv, forces, Collections.unmodifiableMap(m));
    }

    /** This frame with all of {@code entries} added, in their iteration order. */
    public Frame withInfo(Map<String, String> entries) {
        Map<String, String> m = new LinkedHashMap<>(info);
        for (Map.Entry<String, String> e : entries.entrySet()) {
            m.put(checkKey(e.getKey()), checkValue(e.getKey(), e.getValue()));
        }
        return new Frame(atoms, energyEv, forces, Collections.unmodifiableMap(m));
    }

    private static String checkKey(String key) {
        if (key == null || !KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("info key '" + key + "' must match [A-Za-z_][A-Za-z0-9_-]*");
        }
        if (RESERVED.contains(key.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("info key '" + key + "' is reserved (Lattice, Properties, pbc and "
                    + "energy come from the frame's cell, columns and energy)");
        }
        return key;
    }

    private static String checkValue(String key, String value) {
        if (value == null || value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("info value of '" + key + "' must be one line of text, got "
                    + (value == null ? "null" : "a line break"));
        }
        if (value.isEmpty()) {
            // ASE 3.22 reads key="" as taking the next pair for its value
            throw new IllegalArgumentException("info value of '" + key + "' is empty; extended XYZ readers "
                    + "(ASE 3.22) cannot read key=\"\"");
        }
        return value;
    }

    /** The atoms (a snapshot owned by this frame; read-only by convention). */
    public Atoms atoms() {
        return atoms;
    }

    /** The potential energy in eV, if recorded. */
    public OptionalDouble energyEv() {
        return Double.isNaN(energyEv) ? OptionalDouble.empty() : OptionalDouble.of(energyEv);
    }

    /** The forces in eV/Å (flat [3N], a copy), if recorded. */
    public Optional<double[]> forcesEvPerA() {
        return forces == null ? Optional.empty() : Optional.of(forces.clone());
    }

    /** True when forces are recorded. */
    public boolean hasForces() {
        return forces != null;
    }

    /** Force component {@code k} (0..2) on atom {@code i} in eV/Å; requires {@link #hasForces()}. */
    double force(int i, int k) {
        return forces[3 * i + k];
    }

    /** Info entries in file order, unmodifiable. */
    public Map<String, String> info() {
        return info;
    }

    @Override
    public String toString() {
        return "Frame[" + atoms.size() + " atoms " + atoms.formula()
                + (energyEv().isPresent() ? ", energy " + energyEv + " eV" : "")
                + (forces != null ? ", forces" : "") + (atoms.cell().isPresent() ? ", periodic" : "")
                + (info.isEmpty() ? "" : ", info " + info) + "]";
    }
}
