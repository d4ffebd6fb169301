package org.molten.cli;

import java.util.ArrayList;
import java.util.List;
import org.molten.core.Atoms;
import org.molten.core.ForceField;

/**
 * Test double: an elastic network, a harmonic spring (k eV/Å², rest length = starting distance)
 * between every pair of atoms closer than 3 Å in a reference structure. It keeps any small
 * molecule in shape (the springs between geminal atoms act as angle terms), conserves energy
 * well with Velocity Verlet, and costs nothing.
 */
final class ElasticNetwork implements ForceField {
    private static final double REACH_A = 3.0;
    private final String name;
    private final int[] pi;
    private final int[] pj;
    private final double[] r0;
    private final double k;

    ElasticNetwork(Atoms reference, double kEvPerA2) {
        List<int[]> pairs = new ArrayList<>();
        List<Double> lengths = new ArrayList<>();
        for (int i = 0; i < reference.size(); i++) {
            for (int j = i + 1; j < reference.size(); j++) {
                double d = reference.distance(i, j);
                if (d < REACH_A) {
                    pairs.add(new int[] {i, j});
                    lengths.add(d);
                }
            }
        }
        pi = pairs.stream().mapToInt(p -> p[0]).toArray();
        pj = pairs.stream().mapToInt(p -> p[1]).toArray();
        r0 = lengths.stream().mapToDouble(Double::doubleValue).toArray();
        k = kEvPerA2;
        name = "elastic-network(k=" + kEvPerA2 + " eV/A2, " + pi.length + " springs)";
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public double energyAndForces(Atoms atoms, double[] forces) {
        java.util.Arrays.fill(forces, 0);
        double e = 0;
        double[] d = new double[3];
        for (int s = 0; s < pi.length; s++) {
            atoms.displacement(pi[s], pj[s], d);
            double r = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            double x = r - r0[s];
            e += 0.5 * k * x * x;
            double f = -k * x / r; // force on j along d
            for (int c = 0; c < 3; c++) {
                forces[3 * pj[s] + c] += f * d[c];
                forces[3 * pi[s] + c] -= f * d[c];
            }
        }
        return e;
    }
}
