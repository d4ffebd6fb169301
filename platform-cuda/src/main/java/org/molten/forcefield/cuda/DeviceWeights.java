package org.molten.forcefield.cuda;

import java.util.Locale;
import org.molten.forcefield.student.StudentWeights;

/**
 * The student's weights as the kernels read them: one float32 buffer holding every matrix in
 * both orientations (nn.Linear's {@code [out][in]} for the warp-per-output layers and the
 * transposed {@code [in][out]} for the tiled layers and the backward passes), the concatenated
 * {@code [U; V]} of each update block, the filters transposed to {@code [n_rbf][3F]}, and the
 * block-0 message features {@code phi_0(Emb[z])} per species, computed once here in float64
 * (the embedding is constant, so the first phi network needs no evaluation per step).
 *
 * <p>Offsets are in floats and 64-byte aligned. Immutable.
 */
final class DeviceWeights {
    /** Relative size below which a radial basis term is left out of the window (see {@link #window}). */
    static final double RBF_WINDOW_EPS = 1e-9;
    /** Largest radial-basis window the kernels hold (MOLTEN_MAXKW). */
    static final int MAXKW = 32;
    /** Largest hidden width the kernels support (32 * MOLTEN_MAXM). */
    static final int MAX_HIDDEN = 256;

    final int f;
    final int fr;
    final int layers;
    final int nRbf;
    final int species;
    final int kw;
    final double cutoffA;
    final double gammaPerA2;
    final double muStepA;
    final double scale;
    final double b6;
    final float[] data;
    // offsets (floats)
    final long emb, phi0, atomref, w5, w5t, b5, w6;
    final long[] w1 = new long[NetLayout.MAXT], w1t = new long[NetLayout.MAXT], b1 = new long[NetLayout.MAXT];
    final long[] w2 = new long[NetLayout.MAXT], w2t = new long[NetLayout.MAXT], b2 = new long[NetLayout.MAXT];
    final long[] wft = new long[NetLayout.MAXT], bf = new long[NetLayout.MAXT], wf4 = new long[NetLayout.MAXT];
    final long[] uv = new long[NetLayout.MAXT], uvt = new long[NetLayout.MAXT];
    final long[] w3 = new long[NetLayout.MAXT], w3t = new long[NetLayout.MAXT], b3 = new long[NetLayout.MAXT];
    final long[] w4 = new long[NetLayout.MAXT], w4t = new long[NetLayout.MAXT], b4 = new long[NetLayout.MAXT];

    private int cursor;

    /**
     * Why these weights cannot run on the GPU, or {@code null} if they can.
     */
    static String unsupportedReason(StudentWeights w) {
        int f = w.hidden();
        if (f % 32 != 0 || f > MAX_HIDDEN) {
            return String.format(Locale.ROOT, "hidden width %d is not a multiple of 32 up to %d", f, MAX_HIDDEN);
        }
        if (w.layers() > NetLayout.MAXT) {
            return "model has " + w.layers() + " interaction blocks; the GPU kernels support up to " + NetLayout.MAXT;
        }
        if (w.nRbf() < 2) {
            return "model has fewer than 2 radial basis functions";
        }
        int kw = window(w.nRbf(), w.gammaPerA2(), w.cutoffA() / (w.nRbf() - 1));
        if (kw > MAXKW) {
            return "radial basis window of " + kw + " terms exceeds the GPU limit " + MAXKW;
        }
        return null;
    }

    /**
     * Number of radial basis terms evaluated per edge. With centres mu_k spaced by {@code step}, the
     * terms more than h+1/2 spacings from d are below exp(-gamma ((h + 1/2) step)^2) <= 1e-9 of
     * the largest, far below float32 rounding, and are left out: a window of 2h + 1 terms around
     * the nearest centre (the whole basis when that is not smaller).
     */
    static int window(int nRbf, double gamma, double step) {
        double delta = Math.sqrt(Math.log(1.0 / RBF_WINDOW_EPS) / gamma);
        int h = (int) Math.ceil(delta / step - 0.5);
        return Math.min(nRbf, 2 * Math.max(h, 0) + 1);
    }

    DeviceWeights(StudentWeights w) {
        String why = unsupportedReason(w);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        f = w.hidden();
        fr = w.readoutHidden();
        layers = w.layers();
        nRbf = w.nRbf();
        species = w.speciesCount();
        cutoffA = w.cutoffA();
        gammaPerA2 = w.gammaPerA2();
        muStepA = cutoffA / (nRbf - 1);
        kw = window(nRbf, gammaPerA2, muStepA);
        scale = w.tensor("scale")[0];
        b6 = w.tensor("readout.2.bias")[0];

        int total = 0;
        total += align(species * f) + align(species * 3 * f) + align(species);
        total += 2 * align(fr * f) + 2 * align(fr);
        int perBlock = 2 * align(f * f) + align(f) + 2 * align(3 * f * f) + align(3 * f) + align(nRbf * 3 * f)
                + align(3 * f) + 2 * align(2 * f * f) + 2 * align(2 * f * f) + align(f) + 2 * align(3 * f * f)
                + align(3 * f) + align(4 * nRbf * f);
        total += layers * perBlock;
        data = new float[total];

        double[] embD = w.tensor("embedding.weight");
        emb = put(embD);
        phi0 = put(phi0Table(w, embD));
        atomref = put(w.tensor("atomref"));
        double[] w5d = w.tensor("readout.0.weight");
        w5 = put(w5d);
        w5t = put(transpose(w5d, fr, f));
        b5 = put(w.tensor("readout.0.bias"));
        w6 = put(w.tensor("readout.2.weight"));
        for (int t = 0; t < layers; t++) {
            String it = "interactions." + t + ".";
            String up = "updates." + t + ".";
            double[] a = w.tensor(it + "phi.0.weight");
            w1[t] = put(a);
            w1t[t] = put(transpose(a, f, f));
            b1[t] = put(w.tensor(it + "phi.0.bias"));
            a = w.tensor(it + "phi.2.weight");
            w2[t] = put(a);
            w2t[t] = put(transpose(a, 3 * f, f));
            b2[t] = put(w.tensor(it + "phi.2.bias"));
            wft[t] = put(transpose(w.tensor(it + "filter.weight"), 3 * f, nRbf));
            bf[t] = put(w.tensor(it + "filter.bias"));
            wf4[t] = put(filterByChannel(w.tensor(it + "filter.weight"), f, nRbf));
            double[] u = w.tensor(up + "U.weight");
            double[] v = w.tensor(up + "V.weight");
            double[] cat = new double[2 * f * f];
            System.arraycopy(u, 0, cat, 0, f * f);
            System.arraycopy(v, 0, cat, f * f, f * f);
            uv[t] = put(cat);
            uvt[t] = put(transpose(cat, 2 * f, f));
            a = w.tensor(up + "mlp.0.weight");
            w3[t] = put(a);
            w3t[t] = put(transpose(a, f, 2 * f));
            b3[t] = put(w.tensor(up + "mlp.0.bias"));
            a = w.tensor(up + "mlp.2.weight");
            w4[t] = put(a);
            w4t[t] = put(transpose(a, 3 * f, f));
            b4[t] = put(w.tensor(up + "mlp.2.bias"));
        }
    }

    /** Bytes of the packed buffer. */
    long bytes() {
        return 4L * data.length;
    }

    /** Writes the weight offsets and model scalars into a parameter block. */
    void describe(NetLayout.Builder b) {
        b.set("F", f).set("FR", fr).set("T", layers).set("nrbf", nRbf).set("kw", kw);
        b.set("cutoff", cutoffA).set("gamma", gammaPerA2).set("mu_step", muStepA).set("scale", scale).set("b6", b6);
        b.set("o_emb", emb).set("o_phi0", phi0).set("o_atomref", atomref).set("o_w5", w5).set("o_w5t", w5t)
                .set("o_b5", b5).set("o_w6", w6);
        for (int t = 0; t < layers; t++) {
            b.set("o_w1", t, w1[t]).set("o_w1t", t, w1t[t]).set("o_b1", t, b1[t]);
            b.set("o_w2", t, w2[t]).set("o_w2t", t, w2t[t]).set("o_b2", t, b2[t]);
            b.set("o_wft", t, wft[t]).set("o_bf", t, bf[t]).set("o_wf4", t, wf4[t]);
            b.set("o_uv", t, uv[t]).set("o_uvt", t, uvt[t]);
            b.set("o_w3", t, w3[t]).set("o_w3t", t, w3t[t]).set("o_b3", t, b3[t]);
            b.set("o_w4", t, w4[t]).set("o_w4t", t, w4t[t]).set("o_b4", t, b4[t]);
        }
    }

    private static int align(int n) {
        return (n + 15) & ~15;
    }

    private long put(double[] a) {
        int at = cursor;
        for (int i = 0; i < a.length; i++) {
            data[at + i] = (float) a[i];
        }
        cursor += align(a.length);
        return at;
    }

    /**
     * The filter weights Wf [3F][n_rbf] as [n_rbf][F][4] = (Wf[c][k], Wf[F + c][k], Wf[2F + c][k], 0): the three parts
     * of one channel and radial-basis term in one 16-byte load (the warp-per-row message passes).
     */
    static double[] filterByChannel(double[] wf, int f, int nRbf) {
        double[] out = new double[4 * nRbf * f];
        for (int k = 0; k < nRbf; k++) {
            for (int c = 0; c < f; c++) {
                for (int p = 0; p < 3; p++) {
                    out[(k * f + c) * 4 + p] = wf[(p * f + c) * nRbf + k];
                }
            }
        }
        return out;
    }

    /** [rows][cols] row-major to [cols][rows]. */
    static double[] transpose(double[] a, int rows, int cols) {
        double[] t = new double[a.length];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                t[c * rows + r] = a[r * cols + c];
            }
        }
        return t;
    }

    /** phi_0(Emb[z]) = W2 SiLU(W1 Emb[z] + b1) + b2 of block 0, per species, in float64. */
    private static double[] phi0Table(StudentWeights w, double[] embD) {
        int f = w.hidden(), ns = w.speciesCount();
        double[] w1 = w.tensor("interactions.0.phi.0.weight");
        double[] b1 = w.tensor("interactions.0.phi.0.bias");
        double[] w2 = w.tensor("interactions.0.phi.2.weight");
        double[] b2 = w.tensor("interactions.0.phi.2.bias");
        double[] out = new double[ns * 3 * f];
        double[] hidden = new double[f];
        for (int s = 0; s < ns; s++) {
            for (int o = 0; o < f; o++) {
                double z = b1[o];
                for (int k = 0; k < f; k++) {
                    z += w1[o * f + k] * embD[s * f + k];
                }
                hidden[o] = z / (1.0 + Math.exp(-z));
            }
            for (int o = 0; o < 3 * f; o++) {
                double y = b2[o];
                for (int k = 0; k < f; k++) {
                    y += w2[o * f + k] * hidden[k];
                }
                out[s * 3 * f + o] = y;
            }
        }
        return out;
    }
}
