package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;
import org.molten.forcefield.student.StudentWeights;

/**
 * A mixed batch on one device binding (issue 29): replicas of different molecules and sizes, with their own
 * temperatures, seeds and thermostat parameters, each equal to the molecule run alone, through the emulator.
 *
 * <ul>
 *   <li>Against the same molecule alone on the stage kernels: <b>bit for bit</b>. Below 25 atoms in all, batch and
 *       molecule run the same small-system kernels, in which every atom's rows, neighbour slots, dense outputs and
 *       per-replica reductions are computed by the same arithmetic in the same order whatever else the batch holds,
 *       and each replica's random numbers are keyed by its own seed and atom index within the replica.</li>
 *   <li>Against the molecule alone on the small-molecule cluster kernel (what a single molecule gets): <b>to float32
 *       rounding</b> (1e-5 Å and Å/fs after 6 steps; checked for Langevin and the Nosé–Hoover chain, the
 *       stochastic and the chained kind, to keep the test short: MoleculeThermostatTest has the others): the cluster kernel sums its channel slices in another order,
 *       while the thermostats' definitions, streams and variables are the same.</li>
 * </ul>
 */
class MixedBatchTest {
    @BeforeEach
    void needsGpu() {
        assumeTrue(CudaTestSupport.gpu(), CudaTestSupport::whyNot);
    }

    /** Water at 350 K, ethanol at 250 K, a 10-atom H/C/N/O cluster at 300 K (22 atoms), each with its own parameter. */
    static List<ReplicaStart> batch(String kind, long seed) {
        Atoms cluster = CudaTestSupport.randomAtoms(seed, 10, 4.2, 1.1, null);
        Atoms[] mols = {CudaDynamicsTest.water(), CudaDynamicsTest.ethanol(), cluster};
        double[] temps = {350, 250, 300};
        double[] par = {2, 5, 10};
        List<ReplicaStart> out = new ArrayList<>();
        for (int r = 0; r < mols.length; r++) {
            DynamicsSpec d = switch (kind) {
                case "langevin" -> new DynamicsSpec.Langevin(0.5, temps[r], 0.02 * par[r], true);
                case "bussi" -> new DynamicsSpec.Bussi(0.5, temps[r], par[r]);
                case "nose-hoover" -> new DynamicsSpec.NoseHooverChain(0.5, temps[r], par[r], 3, 1, 3);
                default -> new DynamicsSpec.Berendsen(0.5, temps[r], par[r]);
            };
            Atoms a = CudaDynamicsTest.thermalised(mols[r], temps[r], seed * 10 + r);
            out.add(new ReplicaStart(a, d, seed + 7 * r, 3 * a.size() - 3));
        }
        return out;
    }

    @Test
    void replicasOfAMixedBatchEqualEachMoleculeAlone() {
        long seed = 41;
        StudentWeights w = MoleculeThermostatTest.weights(seed);
        int steps = 6;
        for (String kind : new String[] {"langevin", "bussi", "nose-hoover", "berendsen"}) {
            List<ReplicaStart> starts = batch(kind, seed);
            List<Atoms> together = new ArrayList<>();
            double[] bath = new double[starts.size()];
            try (CudaMdEngine md = new CudaMdEngine(w, starts, MoleculeThermostatTest.stages(4))) {
                assertEquals("stages", md.mode());
                md.advance(steps);
                for (int r = 0; r < starts.size(); r++) {
                    Atoms a = starts.get(r).atoms().copy();
                    md.read(r, a, null);
                    together.add(a);
                    bath[r] = md.bathEnergyEv(r);
                }
            }
            for (int r = 0; r < starts.size(); r++) {
                String what = String.format(Locale.ROOT, "%s, replica %d (%d atoms, seed %d)", kind, r,
                        starts.get(r).atoms().size(), starts.get(r).seed());
                MoleculeThermostatTest.Run stg = MoleculeThermostatTest.run(w, starts.get(r), MoleculeThermostatTest.stages(4), steps);
                assertArrayEquals(stg.atoms().positions(), together.get(r).positions(), what + ": positions, stages alone");
                assertArrayEquals(stg.atoms().velocities(), together.get(r).velocities(), what + ": velocities, stages alone");
                assertEquals(stg.bathEv(), bath[r], 0.0, what + ": bath energy, stages alone");
                if (kind.equals("bussi") || kind.equals("berendsen")) {
                    continue;
                }
                MoleculeThermostatTest.Run mol = MoleculeThermostatTest.run(w, starts.get(r), MoleculeThermostatTest.molecule(4), steps);
                assertEquals("molecule", mol.mode(), what);
                double dx = MoleculeThermostatTest.maxDev(mol.atoms().positions(), together.get(r).positions());
                double dv = MoleculeThermostatTest.maxDev(mol.atoms().velocities(), together.get(r).velocities());
                assertTrue(dx < 1e-5 && dv < 1e-5, what + ": the cluster kernel alone deviates by " + dx + " Å, " + dv + " Å/fs");
                assertEquals(bath[r], mol.bathEv(), 1e-5, what + ": bath energy, cluster kernel alone");
            }
        }
    }

    /**
     * What a binding shares is refused when a replica differs in it, by name: the Langevin drift removal is one flag
     * of the whole batch's kernels (a replica keeping its drift would otherwise silently lose it).
     */
    @Test
    void aReplicaThatDiffersInWhatTheBatchSharesIsRefused() {
        long seed = 42;
        List<ReplicaStart> starts = List.of(
                new ReplicaStart(CudaDynamicsTest.thermalised(CudaDynamicsTest.water(), 300, seed), new DynamicsSpec.Langevin(
                        0.5, 300, 0.02, true), seed, 6),
                new ReplicaStart(CudaDynamicsTest.thermalised(CudaDynamicsTest.ethanol(), 300, seed), new DynamicsSpec.Langevin(
                        0.5, 300, 0.02, false), seed + 1, 24));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new CudaMdEngine(MoleculeThermostatTest.weights(seed), starts, MoleculeThermostatTest.stages(4)).close());
        assertTrue(e.getMessage().contains("replica 1") && e.getMessage().contains("drift"), e.getMessage());
    }
}
