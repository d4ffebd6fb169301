package org.molten.integrators.thermostats;

import org.molten.core.Checks;
import org.molten.core.RandomStream;

/**
 * Exact draws of Gamma and chi-squared variates from a {@link RandomStream}, for the Bussi
 * thermostat's kinetic-energy update. Gamma(a ≥ 1) by Marsaglia and Tsang, ACM Trans. Math.
 * Softw. 26, 363 (2000); Gamma(a &lt; 1) by their boost Gamma(a+1)·U^(1/a).
 */
public final class ChiSquared {
    private ChiSquared() {}

    /**
     * The sum of the squares of {@code k} independent standard Gaussians (chi-squared with k
     * degrees of freedom), as 2·Gamma(k/2) for k ≥ 2, so the cost does not grow with k.
     */
    public static double sumOfSquaredGaussians(RandomStream rng, int k) {
        if (k < 0) {
            throw new IllegalArgumentException("number of Gaussians must be zero or positive: " + k);
        }
        if (k == 0) {
            return 0.0;
        }
        if (k == 1) {
            double g = rng.nextGaussian();
            return g * g;
        }
        return 2.0 * gamma(rng, 0.5 * k);
    }

    /** A Gamma(shape, scale 1) variate; mean = variance = shape. */
    public static double gamma(RandomStream rng, double shape) {
        Checks.requirePositive(shape, "gamma shape");
        if (shape < 1) {
            double u = rng.nextDouble();
            return gamma(rng, shape + 1) * Math.pow(u, 1.0 / shape);
        }
        double d = shape - 1.0 / 3.0;
        double c = 1.0 / Math.sqrt(9 * d);
        while (true) {
            double x;
            double v;
            do {
                x = rng.nextGaussian();
                v = 1 + c * x;
            } while (v <= 0);
            v = v * v * v;
            double u = rng.nextDouble();
            double x2 = x * x;
            if (u < 1 - 0.0331 * x2 * x2) {
                return d * v;
            }
            if (Math.log(u) < 0.5 * x2 + d * (1 - v + Math.log(v))) {
                return d * v;
            }
        }
    }
}
