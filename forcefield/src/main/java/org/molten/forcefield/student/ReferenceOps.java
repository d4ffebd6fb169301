package org.molten.forcefield.student;

/**
 * The elementary operations of the student model and their exact derivatives, written plainly
 * for the reference implementation (each one is checked against central finite differences in
 * the tests). Matrices are row-major [out][in] as in PyTorch's nn.Linear.
 */
final class ReferenceOps {
    private ReferenceOps() {}

    /** out = W x + b, W [out][in]; {@code b} may be null (no bias). */
    static double[] linear(double[] w, double[] b, double[] x, int outDim, int inDim) {
        double[] y = new double[outDim];
        for (int o = 0; o < outDim; o++) {
            double acc = b == null ? 0.0 : b[o];
            for (int i = 0; i < inDim; i++) {
                acc += w[o * inDim + i] * x[i];
            }
            y[o] = acc;
        }
        return y;
    }

    /** W^T g: the gradient of g · (W x + b) with respect to x. */
    static double[] linearBackward(double[] w, double[] g, int outDim, int inDim) {
        double[] gx = new double[inDim];
        for (int o = 0; o < outDim; o++) {
            for (int i = 0; i < inDim; i++) {
                gx[i] += w[o * inDim + i] * g[o];
            }
        }
        return gx;
    }

    /** Logistic sigmoid 1 / (1 + e^-z). */
    static double sigmoid(double z) {
        return 1.0 / (1.0 + Math.exp(-z));
    }

    /** SiLU(z) = z sigmoid(z). */
    static double silu(double z) {
        return z * sigmoid(z);
    }

    /** SiLU'(z) = sig(z) (1 + z (1 - sig(z))). */
    static double siluPrime(double z) {
        double s = sigmoid(z);
        return s * (1.0 + z * (1.0 - s));
    }

    /** Element-wise SiLU of a vector. */
    static double[] silu(double[] z) {
        double[] a = new double[z.length];
        for (int k = 0; k < z.length; k++) {
            a[k] = silu(z[k]);
        }
        return a;
    }

    /** g o SiLU'(z): the gradient through an element-wise SiLU. */
    static double[] siluBackward(double[] z, double[] g) {
        double[] out = new double[z.length];
        for (int k = 0; k < z.length; k++) {
            out[k] = g[k] * siluPrime(z[k]);
        }
        return out;
    }

    /** Radial basis rbf_k(d) = exp(-gamma (d - mu_k)^2), mu_k = r_c k / (n_rbf - 1). */
    static double[] rbf(double d, int nRbf, double cutoff, double gamma) {
        double[] out = new double[nRbf];
        for (int k = 0; k < nRbf; k++) {
            double mu = cutoff * k / (nRbf - 1);
            out[k] = Math.exp(-gamma * (d - mu) * (d - mu));
        }
        return out;
    }

    /** d rbf_k / d d = -2 gamma (d - mu_k) rbf_k(d). */
    static double[] rbfPrime(double d, int nRbf, double cutoff, double gamma) {
        double[] out = new double[nRbf];
        for (int k = 0; k < nRbf; k++) {
            double mu = cutoff * k / (nRbf - 1);
            out[k] = -2.0 * gamma * (d - mu) * Math.exp(-gamma * (d - mu) * (d - mu));
        }
        return out;
    }

    /** Cosine cutoff 0.5 (cos(pi d / r_c) + 1) for d &lt; r_c, else 0. */
    static double cutoff(double d, double rc) {
        return d < rc ? 0.5 * (Math.cos(Math.PI * d / rc) + 1.0) : 0.0;
    }

    /** d fcut / d d = -0.5 (pi / r_c) sin(pi d / r_c) for d &lt; r_c, else 0. */
    static double cutoffPrime(double d, double rc) {
        return d < rc ? -0.5 * (Math.PI / rc) * Math.sin(Math.PI * d / rc) : 0.0;
    }
}
