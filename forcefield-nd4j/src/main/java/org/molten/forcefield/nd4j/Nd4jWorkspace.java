package org.molten.forcefield.nd4j;

import org.molten.forcefield.student.DenseGemm;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;

/**
 * One worker thread's ND4J buffers: a reused input/output pair per call site ("slot") and
 * precision, so nothing is allocated per call once the sizes settle.
 */
final class Nd4jWorkspace implements DenseGemm.Workspace {
    private final INDArray[] xBuf;
    private final INDArray[] yBuf;
    private final int[] bufRows;
    private double[] rowD = new double[0];
    private float[] rowF = new float[0];

    Nd4jWorkspace(int slots) {
        xBuf = new INDArray[slots];
        yBuf = new INDArray[slots];
        bufRows = new int[slots];
    }

    /** The slot's buffers for m rows of the given widths and type, made anew when any of them changed. */
    private void ensure(int slot, DataType type, int in, int out, int m) {
        if (bufRows[slot] != m || xBuf[slot] == null || xBuf[slot].dataType() != type
                || xBuf[slot].size(0) != in || yBuf[slot].size(0) != out) {
            xBuf[slot] = Nd4j.create(type, new long[]{in, m}, 'f');
            yBuf[slot] = Nd4j.create(type, new long[]{out, m}, 'f');
            bufRows[slot] = m;
        }
    }

    @Override
    public void linear(int slot, double[][] x, DenseGemm.Weight w, int in, int out, double[] bias, double[][] y,
                       int from, int to, boolean accumulate) {
        int m = to - from;
        if (m <= 0) {
            return;
        }
        ensure(slot, DataType.DOUBLE, in, out, m);
        if (rowD.length < out) {
            rowD = new double[out];
        }
        INDArray xa = xBuf[slot];
        INDArray ya = yBuf[slot];
        DoubleBuffer xb = xa.data().asNioDouble();
        for (int i = from; i < to; i++) {
            xb.put((i - from) * in, x[i], 0, in);
        }
        Nd4j.gemm(((Nd4jGemm.Nd4jWeight) w).matrix(), xa, ya, false, false, 1.0, 0.0);
        DoubleBuffer yb = ya.data().asNioDouble();
        double[] r = rowD;
        for (int i = from; i < to; i++) {
            yb.get((i - from) * out, r, 0, out);
            double[] yi = y[i];
            if (accumulate) {
                for (int o = 0; o < out; o++) {
                    yi[o] += r[o];
                }
            } else if (bias != null) {
                for (int o = 0; o < out; o++) {
                    yi[o] = r[o] + bias[o];
                }
            } else {
                System.arraycopy(r, 0, yi, 0, out);
            }
        }
    }

    @Override
    public void linear(int slot, float[][] x, DenseGemm.Weight w, int in, int out, float[] bias, float[][] y,
                       int from, int to, boolean accumulate) {
        int m = to - from;
        if (m <= 0) {
            return;
        }
        ensure(slot, DataType.FLOAT, in, out, m);
        if (rowF.length < out) {
            rowF = new float[out];
        }
        INDArray xa = xBuf[slot];
        INDArray ya = yBuf[slot];
        FloatBuffer xb = xa.data().asNioFloat();
        for (int i = from; i < to; i++) {
            xb.put((i - from) * in, x[i], 0, in);
        }
        Nd4j.gemm(((Nd4jGemm.Nd4jWeight) w).matrix(), xa, ya, false, false, 1.0, 0.0);
        FloatBuffer yb = ya.data().asNioFloat();
        float[] r = rowF;
        for (int i = from; i < to; i++) {
            yb.get((i - from) * out, r, 0, out);
            float[] yi = y[i];
            if (accumulate) {
                for (int o = 0; o < out; o++) {
                    yi[o] += r[o];
                }
            } else if (bias != null) {
                for (int o = 0; o < out; o++) {
                    yi[o] = r[o] + bias[o];
                }
            } else {
                System.arraycopy(r, 0, yi, 0, out);
            }
        }
    }
}
