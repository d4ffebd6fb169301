package org.molten.forcefield.nd4j;

import org.molten.forcefield.student.DenseGemm;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;

/**
 * The optimised student's dense layers through ND4J's GEMM (OpenBLAS), registered as the
 * {@link DenseGemm} provider in META-INF/services. One BLAS call per layer and block of atoms.
 *
 * <p>Layout: a Java row-major matrix [m][k] has the memory of a column-major [k][m] matrix, so
 * y^T = M^T x^T is one column-major GEMM on the very bytes the rows are copied into, with no
 * transposition: the weight given as rows m[in][out] is the column-major [out][in] matrix A, X^T
 * is column-major [in][rows], Y^T column-major [out][rows].
 */
public final class Nd4jGemm implements DenseGemm {
    /** Used by {@link java.util.ServiceLoader}. */
    public Nd4jGemm() {
    }

    /** An ND4J weight matrix, column-major [out][in]. */
    record Nd4jWeight(INDArray matrix) implements Weight {
    }

    @Override
    public String name() {
        return "ND4J (OpenBLAS)";
    }

    @Override
    public void load() {
        // one BLAS thread: the student splits atoms over its own threads (OMP_NUM_THREADS=1 in ./molten too)
        Nd4j.getEnvironment().setMaxThreads(1);
        Nd4j.factory().blas().setMaxThreads(1);
        INDArray a = Nd4j.create(DataType.DOUBLE, new long[]{2, 2}, 'f');
        Nd4j.gemm(a, a, a.dup('f'), false, false, 1.0, 0.0);
    }

    @Override
    public Weight weight(double[][] m) {
        int in = m.length;
        int out = m[0].length;
        INDArray a = Nd4j.create(DataType.DOUBLE, new long[]{out, in}, 'f');
        DoubleBuffer b = a.data().asNioDouble();
        for (int q = 0; q < in; q++) {
            b.put(q * out, m[q], 0, out);
        }
        return new Nd4jWeight(a);
    }

    @Override
    public Weight weight(float[][] m) {
        int in = m.length;
        int out = m[0].length;
        INDArray a = Nd4j.create(DataType.FLOAT, new long[]{out, in}, 'f');
        FloatBuffer b = a.data().asNioFloat();
        for (int q = 0; q < in; q++) {
            b.put(q * out, m[q], 0, out);
        }
        return new Nd4jWeight(a);
    }

    @Override
    public Workspace workspace(int slots) {
        return new Nd4jWorkspace(slots);
    }
}
