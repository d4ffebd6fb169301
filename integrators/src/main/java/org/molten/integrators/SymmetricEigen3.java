package org.molten.integrators;

/**
 * Eigenvalues and eigenvectors of a symmetric 3×3 matrix by cyclic Jacobi rotations (Golub and
 * Van Loan, §8.5), used for the principal axes of the inertia tensor. Converges to machine
 * precision in a handful of sweeps.
 */
final class SymmetricEigen3 {
    private SymmetricEigen3() {}

    /**
     * @param m        symmetric matrix (not modified)
     * @param values   out: eigenvalues
     * @param vectors  out: eigenvectors as columns, vectors[row][k] belongs to values[k]
     */
    static void decompose(double[][] m, double[] values, double[][] vectors) {
        double[][] a = {m[0].clone(), m[1].clone(), m[2].clone()};
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                vectors[i][j] = i == j ? 1 : 0;
            }
        }
        for (int sweep = 0; sweep < 50; sweep++) {
            double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
            double diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
            if (off <= 1e-30 * diag || off == 0) {
                break;
            }
            for (int p = 0; p < 2; p++) {
                for (int q = p + 1; q < 3; q++) {
                    if (a[p][q] == 0) {
                        continue;
                    }
                    double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                    double t = Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                    if (theta == 0) {
                        t = 1;
                    }
                    double c = 1 / Math.sqrt(t * t + 1);
                    double s = t * c;
                    for (int k = 0; k < 3; k++) {
                        double akp = a[k][p], akq = a[k][q];
                        a[k][p] = c * akp - s * akq;
                        a[k][q] = s * akp + c * akq;
                    }
                    for (int k = 0; k < 3; k++) {
                        double apk = a[p][k], aqk = a[q][k];
                        a[p][k] = c * apk - s * aqk;
                        a[q][k] = s * apk + c * aqk;
                    }
                    for (int k = 0; k < 3; k++) {
                        double vkp = vectors[k][p], vkq = vectors[k][q];
                        vectors[k][p] = c * vkp - s * vkq;
                        vectors[k][q] = s * vkp + c * vkq;
                    }
                }
            }
        }
        for (int k = 0; k < 3; k++) {
            values[k] = a[k][k];
        }
    }
}
