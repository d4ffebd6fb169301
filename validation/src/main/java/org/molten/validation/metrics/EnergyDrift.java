package org.molten.validation.metrics;

import org.molten.core.Checks;

/**
 * Energy conservation of an NVE run, per atom so that systems of different size compare.
 *
 * <p>Definitions (E = total energy, K = kinetic energy, N = atoms, t in ps):
 * <ul>
 *   <li>{@code driftMeVPerAtomPerPs}: slope of the least-squares line through E(t), divided by N
 *       (meV/atom/ps). Signed: positive means the run heats up.</li>
 *   <li>{@code driftOverRunMeVPerAtom}: that slope times the run length (t_last - t_first), the
 *       systematic change of E/N the fit attributes to the whole run (meV/atom).</li>
 *   <li>{@code kineticSigmaMeVPerAtom}: standard deviation of K(t)/N over the run (meV/atom), the
 *       natural scale of the energy exchanged between kinetic and potential energy.</li>
 *   <li>{@code driftToKineticSigmaRatio}: |driftOverRunMeVPerAtom| / kineticSigmaMeVPerAtom, a pure
 *       number: below 1 the drift accumulated over the whole run is smaller than one thermal
 *       kinetic-energy fluctuation.</li>
 *   <li>{@code maxExcursionMeVPerAtom}: max over t of |E(t) - E(t_first)| / N (meV/atom).</li>
 *   <li>{@code residualRmsMeVPerAtom}: root-mean-square deviation of E(t)/N from the fitted line
 *       (meV/atom), the integrator's energy noise (O(dt²) for Velocity Verlet).</li>
 *   <li>{@code driftStandardErrorMeVPerAtomPerPs}: standard error of the slope for correlated
 *       residuals: the least-squares error (which assumes independent residuals) times
 *       sqrt(g), g the statistical inefficiency of the residuals from block averaging
 *       ({@link BlockAverage}). In a short run the Verlet energy oscillation and slow
 *       conformational motion make it comparable to the drift limit; it says how much a quick
 *       run's drift figure can be trusted.</li>
 * </ul>
 */
public record EnergyDrift(
        double driftMeVPerAtomPerPs,
        double driftStandardErrorMeVPerAtomPerPs,
        double driftOverRunMeVPerAtom,
        double kineticSigmaMeVPerAtom,
        double driftToKineticSigmaRatio,
        double maxExcursionMeVPerAtom,
        double residualRmsMeVPerAtom,
        double runLengthPs,
        int samples) {

    private static final double MEV_PER_EV = 1000.0;
    private static final double PS_PER_FS = 1e-3;

    /**
     * Drift metrics of a series sampled at times {@code timeFs}.
     *
     * @param timeFs           sample times in fs, increasing
     * @param totalEnergyEv    total energy in eV at each time
     * @param kineticEnergyEv  kinetic energy in eV at each time
     * @param atomCount        number of atoms N
     * @throws IllegalArgumentException for mismatched lengths, fewer than 3 samples or non-finite values
     */
    public static EnergyDrift of(double[] timeFs, double[] totalEnergyEv, double[] kineticEnergyEv, int atomCount) {
        Checks.requirePositive(atomCount, "atomCount");
        if (timeFs.length != totalEnergyEv.length || timeFs.length != kineticEnergyEv.length) {
            throw new IllegalArgumentException("series lengths differ: time " + timeFs.length + ", total energy "
                    + totalEnergyEv.length + ", kinetic energy " + kineticEnergyEv.length);
        }
        int n = timeFs.length;
        if (n < 3) {
            throw new IllegalArgumentException("energy drift needs at least 3 samples, got " + n);
        }
        double[] tPs = new double[n];
        double[] ePerAtomMeV = new double[n];
        for (int i = 0; i < n; i++) {
            tPs[i] = timeFs[i] * PS_PER_FS;
            ePerAtomMeV[i] = totalEnergyEv[i] * MEV_PER_EV / atomCount;
        }
        LinearFit fit = LinearFit.of(tPs, ePerAtomMeV);
        double length = tPs[n - 1] - tPs[0];
        double overRun = fit.slope() * length;
        double sigmaK = SeriesStatistics.standardDeviation(kineticEnergyEv) * MEV_PER_EV / atomCount;
        double excursion = 0;
        double residual2 = 0;
        double[] residuals = new double[n];
        for (int i = 0; i < n; i++) {
            excursion = Math.max(excursion, Math.abs(ePerAtomMeV[i] - ePerAtomMeV[0]));
            residuals[i] = ePerAtomMeV[i] - fit.at(tPs[i]);
            residual2 += residuals[i] * residuals[i];
        }
        double se = fit.slopeStandardError();
        if (n >= 4 && residual2 > 0) {
            se *= Math.sqrt(Math.max(1.0, BlockAverage.of(residuals).statisticalInefficiency()));
        }
        double ratio = sigmaK > 0 ? Math.abs(overRun) / sigmaK : Double.POSITIVE_INFINITY;
        return new EnergyDrift(fit.slope(), se, overRun, sigmaK, ratio, excursion,
                Math.sqrt(residual2 / n), length, n);
    }

    /**
     * The drift of several independent NVE runs of one system (replicas) taken together: the mean
     * slope with the standard error of that mean (independent runs), the mean run length and
     * kinetic-energy scale, the ratio of the mean drift over the run to that scale, the largest
     * excursion and the samples of all. Averaging independent starts beats down the slope error
     * that one short run's energy oscillation and slow motions give.
     *
     * @return null when {@code runs} holds no measured drift
     */
    public static EnergyDrift pooled(java.util.List<EnergyDrift> runs) {
        java.util.List<EnergyDrift> r = runs.stream().filter(java.util.Objects::nonNull).toList();
        if (r.isEmpty()) {
            return null;
        }
        int n = r.size();
        double drift = r.stream().mapToDouble(EnergyDrift::driftMeVPerAtomPerPs).average().orElse(Double.NaN);
        double se = Math.sqrt(r.stream().mapToDouble(e -> e.driftStandardErrorMeVPerAtomPerPs()
                * e.driftStandardErrorMeVPerAtomPerPs()).sum()) / n;
        double over = r.stream().mapToDouble(EnergyDrift::driftOverRunMeVPerAtom).average().orElse(Double.NaN);
        double sigma = r.stream().mapToDouble(EnergyDrift::kineticSigmaMeVPerAtom).average().orElse(Double.NaN);
        double excursion = r.stream().mapToDouble(EnergyDrift::maxExcursionMeVPerAtom).max().orElse(Double.NaN);
        double residual = r.stream().mapToDouble(EnergyDrift::residualRmsMeVPerAtom).average().orElse(Double.NaN);
        double length = r.stream().mapToDouble(EnergyDrift::runLengthPs).average().orElse(Double.NaN);
        int samples = r.stream().mapToInt(EnergyDrift::samples).sum();
        return new EnergyDrift(drift, se, over, sigma, sigma > 0 ? Math.abs(over) / sigma : Double.NaN, excursion, residual,
                length, samples);
    }
}
