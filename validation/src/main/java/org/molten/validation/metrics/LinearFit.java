package org.molten.validation.metrics;

import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Ordinary least-squares line {@code y = intercept + slope * x} through a series (Commons Math
 * {@link SimpleRegression}). {@code slopeStandardError} is the textbook estimate for independent
 * residuals; MD residuals are correlated, so it understates the true uncertainty and is reported
 * for information only.
 *
 * @param slope              in units of y per unit of x
 * @param intercept          in units of y
 * @param slopeStandardError standard error of the slope (NaN for fewer than 3 points)
 * @param rSquared           coefficient of determination (NaN when y is constant)
 * @param points             number of points fitted
 */
public record LinearFit(double slope, double intercept, double slopeStandardError, double rSquared, int points) {

    /**
     * Fits {@code y} against {@code x}.
     *
     * @throws IllegalArgumentException for arrays of different length, fewer than 2 points, a
     *                                  constant x or a non-finite value (naming its index)
     */
    public static LinearFit of(double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("x and y differ in length: " + x.length + " vs " + y.length);
        }
        if (x.length < 2) {
            throw new IllegalArgumentException("a linear fit needs at least 2 points, got " + x.length);
        }
        SimpleRegression r = new SimpleRegression(true);
        for (int i = 0; i < x.length; i++) {
            if (!Double.isFinite(x[i]) || !Double.isFinite(y[i])) {
                throw new IllegalArgumentException("non-finite point " + i + " in linear fit: (" + x[i] + ", " + y[i] + ")");
            }
            r.addData(x[i], y[i]);
        }
        if (!(r.getXSumSquares() > 0)) {
            throw new IllegalArgumentException("x is constant (" + x[0] + "): no slope can be fitted");
        }
        double se = x.length > 2 ? r.getSlopeStdErr() : Double.NaN;
        return new LinearFit(r.getSlope(), r.getIntercept(), se, r.getRSquare(), x.length);
    }

    /** The fitted value at {@code x}. */
    public double at(double x) {
        return intercept + slope * x;
    }
}
