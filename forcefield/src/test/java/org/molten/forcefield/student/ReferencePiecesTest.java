package org.molten.forcefield.student;

import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.RandomStream;

import java.util.function.DoubleSupplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every piece of the reference backward pass against central finite differences, before anything
 * is fused: the elementary operations, one message block (with respect to s, v and positions),
 * one update block and the readout, each with random upstream gradients.
 */
class ReferencePiecesTest {
    private static final double H = 1e-6;
    private static final double TOL = 1e-6;

    /** Central difference of {@code f} with respect to {@code x[k]}. */
    private static double fd(double[] x, int k, DoubleSupplier f) {
        double x0 = x[k];
        x[k] = x0 + H;
        double p = f.getAsDouble();
        x[k] = x0 - H;
        double m = f.getAsDouble();
        x[k] = x0;
        return (p - m) / (2 * H);
    }

    private static void close(double analytic, double numeric, double scale, String what) {
        assertTrue(Math.abs(analytic - numeric) <= TOL * Math.max(scale, 1e-3),
                what + ": analytic " + analytic + " vs finite difference " + numeric);
    }

    @Test
    void elementaryOperations() {
        for (double z : new double[]{-6, -1.3, -0.2, 0, 0.4, 2.5, 7}) {
            double[] x = {z};
            close(ReferenceOps.siluPrime(z), fd(x, 0, () -> ReferenceOps.silu(x[0])), 1, "SiLU' at " + z);
        }
        double rc = 5.0;
        double gamma = 16.0;
        for (double d : new double[]{0.7, 1.31, 2.2, 3.9, 4.95}) {
            double[] x = {d};
            double[] drbf = ReferenceOps.rbfPrime(d, 20, rc, gamma);
            for (int k = 0; k < 20; k++) {
                int kk = k;
                close(drbf[k], fd(x, 0, () -> ReferenceOps.rbf(x[0], 20, rc, gamma)[kk]), 1, "rbf'_" + k + " at " + d);
            }
            close(ReferenceOps.cutoffPrime(d, rc), fd(x, 0, () -> ReferenceOps.cutoff(x[0], rc)), 1, "fcut' at " + d);
        }
        // Beyond the cutoff everything vanishes, and fcut, fcut' reach zero continuously at r_c.
        assertTrue(ReferenceOps.cutoff(5.0, rc) == 0 && ReferenceOps.cutoffPrime(5.2, rc) == 0);
        assertTrue(ReferenceOps.cutoff(rc - 1e-7, rc) < 1e-12 && Math.abs(ReferenceOps.cutoffPrime(rc - 1e-7, rc)) < 1e-6);

        RandomStream rng = new RandomStream(3);
        int in = 5;
        int out = 4;
        double[] w = gaussian(rng, in * out);
        double[] b = gaussian(rng, out);
        double[] g = gaussian(rng, out);
        double[] x = gaussian(rng, in);
        double[] gx = ReferenceOps.linearBackward(w, g, out, in);
        for (int k = 0; k < in; k++) {
            close(gx[k], fd(x, k, () -> dot(g, ReferenceOps.linear(w, b, x, out, in))), 1, "linear d/dx_" + k);
        }
    }

    @Test
    void messageBlock() {
        RandomStream rng = new RandomStream(11);
        StudentWeights w = StudentWeights.random(5, new int[]{1, 6, 7, 8}, 4, 1, 6, 4.0, 3.0);
        ReferenceStudent ref = new ReferenceStudent(w);
        Atoms atoms = StudentFixtures.cluster(rng, 7, 1.0);
        int n = atoms.size();
        int f = 4;
        double[] sFlat = gaussian(rng, n * f);
        double[] vFlat = gaussian(rng, n * 3 * f);
        double[] gs = gaussian(rng, n * f);
        double[] gv = gaussian(rng, n * 3 * f);
        DoubleSupplier loss = () -> {
            ReferenceStudent.MessageCache c = ref.messageForward(0, ref.graph(atoms), unflat(sFlat, n, f), unflat3(vFlat, n, f));
            return dot(gs, flat(c.sOut)) + dot(gv, flat3(c.vOut));
        };
        ReferenceStudent.Graph g = ref.graph(atoms);
        assertTrue(g.size() > 2 * n, "the test needs a connected graph: " + g.size() + " edges");
        ReferenceStudent.MessageCache c = ref.messageForward(0, g, unflat(sFlat, n, f), unflat3(vFlat, n, f));
        double[] gD = new double[g.size()];
        double[][] gU = new double[g.size()][3];
        ReferenceStudent.Grad grad = ref.messageBackward(0, g, c, unflat(gs, n, f), unflat3(gv, n, f), gD, gU);
        double[] gR = ReferenceStudent.geometryBackward(g, gD, gU, n);
        double scale = Math.max(StudentFixtures.maxAbs(flat(grad.gS)), StudentFixtures.maxAbs(gR));
        double[] gS = flat(grad.gS);
        for (int k = 0; k < sFlat.length; k++) {
            close(gS[k], fd(sFlat, k, loss), scale, "message dL/ds[" + k + "]");
        }
        double[] gV = flat3(grad.gV);
        for (int k = 0; k < vFlat.length; k++) {
            close(gV[k], fd(vFlat, k, loss), scale, "message dL/dv[" + k + "]");
        }
        double[] r = atoms.positions();
        for (int k = 0; k < r.length; k++) {
            close(gR[k], fd(r, k, loss), scale, "message dL/dr[" + k + "]");
        }
    }

    @Test
    void updateBlock() {
        RandomStream rng = new RandomStream(12);
        StudentWeights w = StudentWeights.random(6, new int[]{1, 8}, 5, 1, 4, 4.0, 3.0);
        ReferenceStudent ref = new ReferenceStudent(w);
        int n = 3;
        int f = 5;
        double[] sFlat = gaussian(rng, n * f);
        double[] vFlat = gaussian(rng, n * 3 * f);
        double[] gs = gaussian(rng, n * f);
        double[] gv = gaussian(rng, n * 3 * f);
        DoubleSupplier loss = () -> {
            ReferenceStudent.UpdateCache c = ref.updateForward(0, unflat(sFlat, n, f), unflat3(vFlat, n, f));
            return dot(gs, flat(c.sOut)) + dot(gv, flat3(c.vOut));
        };
        ReferenceStudent.UpdateCache c = ref.updateForward(0, unflat(sFlat, n, f), unflat3(vFlat, n, f));
        ReferenceStudent.Grad grad = ref.updateBackward(0, c, unflat(gs, n, f), unflat3(gv, n, f));
        double[] gS = flat(grad.gS);
        double[] gV = flat3(grad.gV);
        double scale = Math.max(StudentFixtures.maxAbs(gS), StudentFixtures.maxAbs(gV));
        for (int k = 0; k < sFlat.length; k++) {
            close(gS[k], fd(sFlat, k, loss), scale, "update dL/ds[" + k + "]");
        }
        for (int k = 0; k < vFlat.length; k++) {
            close(gV[k], fd(vFlat, k, loss), scale, "update dL/dv[" + k + "]");
        }
    }

    @Test
    void readout() {
        RandomStream rng = new RandomStream(13);
        StudentWeights w = StudentWeights.random(7, new int[]{1, 8}, 6, 1, 4, 4.0, 3.0);
        ReferenceStudent ref = new ReferenceStudent(w);
        int n = 2;
        int f = 6;
        int[] species = {0, 1};
        double[] sFlat = gaussian(rng, n * f);
        DoubleSupplier energy = () -> {
            double e = 0;
            for (double x : ref.readoutForward(species, unflat(sFlat, n, f)).atomEnergy) {
                e += x;
            }
            return e;
        };
        double[] gS = flat(ref.readoutBackward(ref.readoutForward(species, unflat(sFlat, n, f))));
        for (int k = 0; k < sFlat.length; k++) {
            close(gS[k], fd(sFlat, k, energy), StudentFixtures.maxAbs(gS), "readout dE/ds[" + k + "]");
        }
    }

    // ---- helpers

    static double[] gaussian(RandomStream rng, int n) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = rng.nextGaussian();
        }
        return x;
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    static double[][] unflat(double[] x, int n, int f) {
        double[][] out = new double[n][f];
        for (int i = 0; i < n; i++) {
            System.arraycopy(x, i * f, out[i], 0, f);
        }
        return out;
    }

    static double[][][] unflat3(double[] x, int n, int f) {
        double[][][] out = new double[n][3][f];
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < 3; a++) {
                System.arraycopy(x, (3 * i + a) * f, out[i][a], 0, f);
            }
        }
        return out;
    }

    static double[] flat(double[][] x) {
        int f = x[0].length;
        double[] out = new double[x.length * f];
        for (int i = 0; i < x.length; i++) {
            System.arraycopy(x[i], 0, out, i * f, f);
        }
        return out;
    }

    static double[] flat3(double[][][] x) {
        int f = x[0][0].length;
        double[] out = new double[x.length * 3 * f];
        for (int i = 0; i < x.length; i++) {
            for (int a = 0; a < 3; a++) {
                System.arraycopy(x[i][a], 0, out, (3 * i + a) * f, f);
            }
        }
        return out;
    }
}
