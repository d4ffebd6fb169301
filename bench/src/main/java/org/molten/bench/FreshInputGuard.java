package org.molten.bench;

import java.util.Arrays;

/**
 * Proof that every timed call computed from new positions: before each timed call the positions
 * must differ from the previous call's (a checksum over all coordinates), and afterwards the
 * result must differ too (energy or forces, bit for bit). A force field or harness that returns a
 * cached answer, or a loop that forgot to move the atoms, fails the configuration loudly with
 * {@link StaleResultException} instead of reporting a speed that was never computed.
 */
public final class FreshInputGuard {
    private final String what;
    private long calls;
    private double lastChecksum = Double.NaN;
    private double lastEnergy = Double.NaN;
    private double[] lastForces;

    /** A guard for the calls of {@code what} ("optimised-f64, 22 atoms, energy+forces"). */
    public FreshInputGuard(String what) {
        this.what = what;
    }

    /** A weighted sum of all coordinates (Å): changes when any coordinate changes. */
    public static double checksum(double[] positionsA) {
        double s = 0;
        for (int k = 0; k < positionsA.length; k++) {
            s += positionsA[k] * (1.0 + 1e-3 * (k % 977));
        }
        return s;
    }

    /**
     * Records one call: the positions it saw, the energy (eV) and forces (eV/Å; may be null) it
     * returned.
     *
     * @throws StaleResultException if the positions or the answer equal the previous call's
     */
    public void record(double[] positionsA, double energyEv, double[] forces) {
        double c = checksum(positionsA);
        calls++;
        if (calls > 1) {
            if (c == lastChecksum) {
                throw new StaleResultException(what + ": call " + calls
                        + " saw the same positions as the call before (checksum " + c + "); the benchmark must move the atoms");
            }
            boolean sameForces = forces == null || Arrays.equals(forces, lastForces);
            if (energyEv == lastEnergy && sameForces) {
                throw new StaleResultException(what + ": call " + calls + " returned exactly the previous energy ("
                        + energyEv + " eV)" + (forces == null ? "" : " and forces")
                        + " for new positions: a cached result, not a computation");
            }
        }
        lastChecksum = c;
        lastEnergy = energyEv;
        lastForces = forces == null ? null : forces.clone();
    }

    /** Calls recorded. */
    public long calls() {
        return calls;
    }
}
