package org.molten.core;

/**
 * Molten's one internal unit system (the ASE conventions): length Å, energy eV, force eV/Å,
 * mass amu (unified atomic mass unit, Da), time fs, temperature K. Velocities are in Å/fs.
 *
 * <p>Constants are CODATA 2018 values (ASE 3.22 defaults to CODATA 2014; the two differ by
 * parts in 10⁸, below anything written to a file).
 */
public final class Units {
    private Units() {}

    /** Boltzmann constant in eV/K. */
    public static final double BOLTZMANN_EV_PER_K = 8.617333262e-5;

    /** Elementary charge in J (1 eV = this many joules). */
    public static final double EV_IN_J = 1.602176634e-19;

    /** Atomic mass constant in kg. */
    public static final double AMU_IN_KG = 1.66053906660e-27;

    /**
     * Acceleration in Å/fs² of a mass of 1 amu under a force of 1 eV/Å:
     * {@code a[Å/fs²] = F[eV/Å] / m[amu] * ACCEL_A_PER_FS2}.
     * Derivation: 1 eV/(Å·amu) = 1.602176634e-19 J / (1e-10 m · 1.66053906660e-27 kg)
     * = 9.64853321e17 m/s² = 9.64853321e-3 Å/fs².
     */
    public static final double ACCEL_A_PER_FS2 = EV_IN_J / (1e-10 * AMU_IN_KG) * 1e10 / 1e30;

    /** Kinetic energy in eV of 1 amu moving at 1 Å/fs, halved: {@code KE[eV] = 0.5 m v² * MV2_TO_EV}. */
    public static final double MV2_TO_EV = 1.0 / ACCEL_A_PER_FS2;

    /**
     * ASE's unit of time in fs: ASE keeps time in Å·sqrt(amu/eV) ≈ 10.1805 fs, so its momenta are
     * in amu·Å per this unit ({@code ase.units.fs} = 1 / this). Derivation:
     * Å·sqrt(amu/eV) = 1e-10 m · sqrt(1.66053906660e-27 kg / 1.602176634e-19 J) = 1.01805e-14 s,
     * which is 1/sqrt({@link #ACCEL_A_PER_FS2}) fs.
     */
    public static final double ASE_TIME_UNIT_FS = 1.0 / Math.sqrt(ACCEL_A_PER_FS2);

    /** 1 Hartree in eV (CODATA 2018). */
    public static final double HARTREE_IN_EV = 27.211386245988;

    /** 1 Bohr in Å (CODATA 2018). */
    public static final double BOHR_IN_A = 0.529177210903;

    /** Avogadro constant in 1/mol (for densities in g/cm³). */
    public static final double AVOGADRO = 6.02214076e23;

    /** Femtoseconds per picosecond. */
    public static final double FS_PER_PS = 1000.0;

    /** Nanoseconds per day at a timestep of {@code dtFs} and a rate of {@code stepsPerSecond}. */
    public static double nsPerDay(double dtFs, double stepsPerSecond) {
        return stepsPerSecond * dtFs * 1e-6 * 86400.0;
    }
}
