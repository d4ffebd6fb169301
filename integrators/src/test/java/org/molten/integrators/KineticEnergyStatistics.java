package org.molten.integrators;

/**
 * Mean and variance of a correlated time series (kinetic energies) with honest errors: the
 * series is cut into equal blocks much longer than its correlation time; the error of the mean
 * is the standard error of the block means, the error of the variance the jackknife over blocks.
 */
final class KineticEnergyStatistics {
    private final double[] sum;
    private final double[] sumSq;
    private final long perBlock;
    private long count;

    KineticEnergyStatistics(int blocks, long samples) {
        this.sum = new double[blocks];
        this.sumSq = new double[blocks];
        this.perBlock = samples / blocks;
    }

    void add(double x) {
        int b = (int) (count / perBlock);
        if (b < sum.length) {
            sum[b] += x;
            sumSq[b] += x * x;
        }
        count++;
    }

    double mean() {
        double s = 0;
        for (double x : sum) {
            s += x;
        }
        return s / (perBlock * sum.length);
    }

    double meanError() {
        int n = sum.length;
        double m = mean(), s = 0;
        for (double x : sum) {
            double d = x / perBlock - m;
            s += d * d;
        }
        return Math.sqrt(s / (n - 1) / n);
    }

    double variance() {
        double s2 = 0;
        for (double x : sumSq) {
            s2 += x;
        }
        double m = mean();
        return s2 / (perBlock * sum.length) - m * m;
    }

    double varianceError() {
        int n = sum.length;
        double total = 0, totalSq = 0;
        for (int b = 0; b < n; b++) {
            total += sum[b];
            totalSq += sumSq[b];
        }
        double[] jack = new double[n];
        double jm = 0;
        for (int b = 0; b < n; b++) {
            double m = (total - sum[b]) / (perBlock * (n - 1));
            double m2 = (totalSq - sumSq[b]) / (perBlock * (n - 1));
            jack[b] = m2 - m * m;
            jm += jack[b] / n;
        }
        double s = 0;
        for (double x : jack) {
            s += (x - jm) * (x - jm);
        }
        return Math.sqrt(s * (n - 1) / n);
    }
}
