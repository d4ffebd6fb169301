package org.molten.bench;

import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.Units;

/**
 * The MD step the suite times for host-driven force fields: velocity Verlet (Swope et al., J. Chem.
 * Phys. 76, 637 (1982)), one energy+forces call per step, positions Å, velocities Å/fs, forces
 * eV/Å. Kept here, minimal, so that the timed step is the force call plus O(N) updates and nothing
 * else (no reporters, no guards); the production integrator is org.molten.integrators.VelocityVerlet.
 */
final class HostVelocityVerlet {
    private final ForceField ff;
    private final Atoms atoms;
    private final double dt;
    private final double[] f;
    private final double[] accel;

    HostVelocityVerlet(ForceField ff, Atoms atoms, double dtFs) {
        this.ff = ff;
        this.atoms = atoms;
        this.dt = dtFs;
        this.f = new double[3 * atoms.size()];
        this.accel = new double[atoms.size()];
        for (int i = 0; i < atoms.size(); i++) {
            accel[i] = Units.ACCEL_A_PER_FS2 / atoms.massAmu(i);
        }
        ff.energyAndForces(atoms, f);
    }

    /** One step; returns the potential energy (eV) at the new positions. */
    double step() {
        double[] r = atoms.positions();
        double[] v = atoms.velocities();
        for (int k = 0; k < r.length; k++) {
            v[k] += 0.5 * dt * f[k] * accel[k / 3];
            r[k] += dt * v[k];
        }
        double e = ff.energyAndForces(atoms, f);
        if (!Double.isFinite(e)) {
            throw new IllegalStateException("benchmark MD blew up: non-finite energy " + e + " eV");
        }
        for (int k = 0; k < r.length; k++) {
            v[k] += 0.5 * dt * f[k] * accel[k / 3];
        }
        return e;
    }

    /** Forces (eV/Å) at the current positions (live array). */
    double[] forces() {
        return f;
    }
}
