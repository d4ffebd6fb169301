package org.molten.forcefield.cuda;

import org.molten.forcefield.student.StudentWeights;

/**
 * The student's weights in the order the group kernel reads them (molten_group.cuh, {@code Net.group_w}): the float
 * order of {@code write_weights()} in the probe the kernel came from (scripts/probes/group_force_probe.py, in git
 * history: last at commit 8312246), so that the engine's kernel and the probe read the same buffer. Forward products
 * read the transposed copies ({@code xT}: {@code [in][out]}, one coalesced column a thread), the backward products
 * PyTorch's {@code [out][in]}:
 *
 * <pre>
 *   cutoff, gamma, scale, 0 | embedding [S][F] | atomref [S] padded to a multiple of 4 |
 *   per layer t: phi0T [F][F], phi0 [F][F], b_phi0 [F], phi2T [F][3F], phi2 [3F][F], b_phi2 [3F],
 *                filter [3F][n_rbf], b_filter [3F], UVT [F][2F], UV [2F][F] (U rows then V rows),
 *                mlp0T [2F][F], mlp0 [F][2F], b_mlp0 [F], mlp2T [F][3F], mlp2 [3F][F], b_mlp2 [3F] |
 *   readout: W5T [F][F/2], W5 [F/2][F], b5 [F/2], W6 [F/2], b6, 0, 0, 0
 * </pre>
 *
 * Only the group kernel's shape exists: F = 128, T = 3, n_rbf = 20, F/2 readout ({@link #supports}). Immutable.
 */
final class GroupWeights {
    /** The hyperparameters the group kernel is compiled for (molten_group.cuh: grp::F, NT, NR, FH). */
    static final int F = 128;
    static final int LAYERS = 3;
    static final int N_RBF = 20;
    static final int FH = 64;
    /** Floats of one layer (grp::LO::size). */
    static final int LAYER_FLOATS = 2 * F * F + F + 2 * F * 3 * F + 3 * F + 3 * F * N_RBF + 3 * F + 2 * F * 2 * F
            + 2 * 2 * F * F + F + 2 * F * 3 * F + 3 * F;

    final float[] data;
    /** Offsets (floats) of the atomref table, layer 0 and the readout's W5T (Net.group_ar, group_lay, group_ro). */
    final long atomref, layers, readout;

    private int cursor;

    /** Whether the group kernel's shape is the model's. */
    static boolean supports(DeviceWeights dw) {
        return dw.f == F && dw.layers == LAYERS && dw.nRbf == N_RBF && dw.fr == FH;
    }

    GroupWeights(StudentWeights w) {
        int f = w.hidden();
        int s = w.speciesCount();
        if (f != F || w.layers() != LAYERS || w.nRbf() != N_RBF || w.readoutHidden() != FH) {
            throw new IllegalArgumentException("the group kernel holds F = " + F + ", T = " + LAYERS + ", n_rbf = " + N_RBF
                    + " only, not F = " + f + ", T = " + w.layers() + ", n_rbf = " + w.nRbf());
        }
        int arPadded = 4 * ((s + 3) / 4);
        data = new float[4 + s * f + arPadded + LAYERS * LAYER_FLOATS + 2 * F * FH + 2 * FH + 4];
        put(new double[] {w.cutoffA(), w.gammaPerA2(), w.tensor("scale")[0], 0});
        put(w.tensor("embedding.weight"));
        atomref = cursor;
        double[] ar = new double[arPadded];
        System.arraycopy(w.tensor("atomref"), 0, ar, 0, s);
        put(ar);
        layers = cursor;
        for (int t = 0; t < LAYERS; t++) {
            String it = "interactions." + t + ".";
            String up = "updates." + t + ".";
            int at = cursor;
            putLinear(w, it + "phi.0", f, f);
            putLinear(w, it + "phi.2", 3 * f, f);
            put(w.tensor(it + "filter.weight"));             // [3F][n_rbf]
            put(w.tensor(it + "filter.bias"));
            double[] uv = new double[2 * f * f];              // [U; V]: [2F][F]
            System.arraycopy(w.tensor(up + "U.weight"), 0, uv, 0, f * f);
            System.arraycopy(w.tensor(up + "V.weight"), 0, uv, f * f, f * f);
            put(DeviceWeights.transpose(uv, 2 * f, f));
            put(uv);
            putLinear(w, up + "mlp.0", f, 2 * f);
            putLinear(w, up + "mlp.2", 3 * f, f);
            if (cursor - at != LAYER_FLOATS) {
                throw new IllegalStateException("group layer " + t + ": " + (cursor - at) + " floats, the kernel reads "
                        + LAYER_FLOATS);
            }
        }
        readout = cursor;
        putLinear(w, "readout.0", FH, f);
        put(w.tensor("readout.2.weight"));
        put(new double[] {w.tensor("readout.2.bias")[0], 0, 0, 0});
        if (cursor != data.length) {
            throw new IllegalStateException("group weights: " + cursor + " floats written, " + data.length + " expected");
        }
    }

    /** Bytes of the buffer. */
    long bytes() {
        return 4L * data.length;
    }

    /**
     * A linear layer {@code name} ({@code out} x {@code in}, PyTorch's [out][in]): its transpose [in][out] for the
     * forward products, the weight as it is for the backward ones, then the bias.
     */
    private void putLinear(StudentWeights w, String name, int out, int in) {
        double[] weight = w.tensor(name + ".weight");
        put(DeviceWeights.transpose(weight, out, in));
        put(weight);
        put(w.tensor(name + ".bias"));
    }

    private void put(double[] a) {
        for (double x : a) {
            data[cursor++] = (float) x;
        }
    }
}
