package org.molten.core;

/**
 * The force-field contract (ASE's Calculator, OpenMM's Force + Platform): potential energy in eV
 * and forces in eV/Å for a state. Implementations: the classical reference potential, the student
 * model (reference, optimised CPU, CUDA) and the TorchScript baseline.
 *
 * <p><b>Thread-safety:</b> an instance may hold scratch buffers, neighbour lists and device
 * memory; it is <em>not</em> safe for concurrent calls unless its class says otherwise. Give each
 * simulation thread its own instance.
 *
 * <p><b>Lifecycle:</b> {@link #close()} releases native resources (device memory, libtorch
 * handles); calls after close fail with {@link IllegalStateException}.
 */
public interface ForceField extends AutoCloseable {

    /** A short name for logs and reports ("student/optimised", "lj+harmonic"). */
    String name();

    /**
     * An identity of the parameters behind {@link #name()} (for the student: the SHA-256 of its
     * weights and hyper-parameters), or "" when the force field has none. A restart compares it,
     * so a checkpoint written with one weight file is not continued with another of the same name.
     */
    default String parametersFingerprint() {
        return "";
    }

    /**
     * Computes the potential energy and the forces of {@code atoms}.
     *
     * @param atoms   the state (positions in Å, the cell if periodic)
     * @param forces  output, length 3N, overwritten with F_i = -dE/dr_i in eV/Å
     * @return the potential energy in eV
     * @throws IllegalArgumentException if the state cannot be evaluated (unsupported element,
     *                                  cutoff larger than half the cell), naming the cause
     */
    double energyAndForces(Atoms atoms, double[] forces);

    /** True when {@link #energyAndForces(Atoms, double[], double[])} gives per-atom energies. */
    default boolean providesPerAtomEnergies() {
        return false;
    }

    /**
     * As {@link #energyAndForces(Atoms, double[])}, also writing per-atom energies (eV, length N,
     * summing to the total).
     *
     * @throws UnsupportedOperationException if {@link #providesPerAtomEnergies()} is false
     */
    default double energyAndForces(Atoms atoms, double[] forces, double[] perAtomEnergiesEv) {
        throw new UnsupportedOperationException(name() + " does not provide per-atom energies");
    }

    /** Convenience: energy and a new force array. */
    default ForceResult evaluate(Atoms atoms) {
        double[] f = new double[3 * atoms.size()];
        double e = energyAndForces(atoms, f);
        return new ForceResult(e, f);
    }

    /** Releases native resources; the default holds none. */
    @Override
    default void close() {
    }

    /**
     * Checks the output arrays of {@link #energyAndForces(Atoms, double[], double[])}: forces of
     * length 3N and, when given, per-atom energies of length N.
     *
     * @throws IllegalArgumentException naming the array, its length and the length needed
     */
    static void requireOutputLengths(Atoms atoms, double[] forces, double[] perAtomEnergiesEv) {
        int n = atoms.size();
        if (forces.length != 3 * n) {
            throw new IllegalArgumentException("forces array has length " + forces.length + ", need 3N = " + 3 * n);
        }
        if (perAtomEnergiesEv != null && perAtomEnergiesEv.length != n) {
            throw new IllegalArgumentException("per-atom energy array has length " + perAtomEnergiesEv.length
                    + ", need N = " + n);
        }
    }
}
