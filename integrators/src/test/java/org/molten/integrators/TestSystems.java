package org.molten.integrators;

import org.molten.core.Atoms;
import org.molten.core.Element;
import org.molten.core.RandomStream;
import org.molten.forcefield.classical.LennardJones;
import org.molten.forcefield.classical.LennardJonesParameters;

/** Small systems for integrator tests. */
final class TestSystems {
    private TestSystems() {}

    /** Argon's UFF Lennard-Jones parameters with a 10 Å cutoff (wider than the cluster). */
    static LennardJones argonLj() {
        return LennardJones.of(LennardJonesParameters.uff(), 10.0);
    }

    /**
     * A 13-atom argon icosahedron (centre plus 12 vertices 3.75 Å out), the magic-number LJ
     * cluster, with a small seeded jitter so that no symmetry survives.
     */
    static Atoms argon13(long seed) {
        double phi = (1 + Math.sqrt(5)) / 2;
        double[][] v = {
            {0, 1, phi}, {0, -1, phi}, {0, 1, -phi}, {0, -1, -phi},
            {1, phi, 0}, {-1, phi, 0}, {1, -phi, 0}, {-1, -phi, 0},
            {phi, 0, 1}, {-phi, 0, 1}, {phi, 0, -1}, {-phi, 0, -1}};
        double norm = Math.sqrt(1 + phi * phi);
        double radius = 3.75;
        int[] z = new int[13];
        double[] r = new double[39];
        z[0] = Element.Ar.atomicNumber;
        RandomStream rng = new RandomStream(seed);
        for (int i = 0; i < 12; i++) {
            z[i + 1] = Element.Ar.atomicNumber;
            for (int k = 0; k < 3; k++) {
                r[3 * (i + 1) + k] = radius * v[i][k] / norm + 0.05 * (2 * rng.nextDouble() - 1);
            }
        }
        return Atoms.of(z, r, null);
    }

    /** Ethanol (ASE's g2 geometry), Å. */
    static Atoms ethanol() {
        int[] z = {6, 6, 8, 1, 1, 1, 1, 1, 1};
        double[] r = {
            1.168181, -0.400382, 0.000000,
            0.000000, 0.559462, 0.000000,
            -1.190083, -0.227669, 0.000000,
            -1.946623, 0.381525, 0.000000,
            0.042557, 1.207508, 0.886933,
            0.042557, 1.207508, -0.886933,
            2.115891, 0.125322, 0.000000,
            1.128599, -1.037900, 0.885200,
            1.128599, -1.037900, -0.885200};
        return Atoms.of(z, r, null);
    }
}
