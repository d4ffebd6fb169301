package org.molten.validation.metrics;

/**
 * Agreement of two models' energies and forces over a set of frames, accumulated frame by frame.
 * Model "a" is the one under test (the optimised student), model "b" the baseline.
 * <ul>
 *   <li>{@code forceRmseEvPerA}: sqrt of the mean over all frames, atoms and Cartesian components
 *       of (F_a - F_b)² (eV/Å);</li>
 *   <li>{@code forceMaxAbsErrorEvPerA}: the largest |F_a - F_b| component (eV/Å);</li>
 *   <li>{@code forceRelativeRmse}: forceRmse divided by the RMS of the baseline force components
 *       (a pure number);</li>
 *   <li>{@code energyMaxAbsErrorMeVPerAtom}: the largest |E_a - E_b| / N (meV/atom).</li>
 * </ul>
 * Not thread-safe.
 */
public final class ForceAgreement {
    private long components;
    private double sumSquaredError;
    private double sumSquaredBaseline;
    private double maxAbs;
    private double maxEnergy;
    private int frames;

    /** Adds one frame: energies in eV, forces in eV/Å (length 3N). */
    public void add(double energyAEv, double[] forcesA, double energyBEv, double[] forcesB) {
        if (forcesA.length != forcesB.length || forcesA.length % 3 != 0 || forcesA.length == 0) {
            throw new IllegalArgumentException("force arrays must have the same length 3N > 0: "
                    + forcesA.length + " vs " + forcesB.length);
        }
        for (int k = 0; k < forcesA.length; k++) {
            double e = forcesA[k] - forcesB[k];
            sumSquaredError += e * e;
            sumSquaredBaseline += forcesB[k] * forcesB[k];
            maxAbs = Math.max(maxAbs, Math.abs(e));
            if (Double.isNaN(e)) {
                maxAbs = Double.NaN;
            }
        }
        components += forcesA.length;
        double de = Math.abs(energyAEv - energyBEv) * 1000.0 / (forcesA.length / 3);
        maxEnergy = Double.isNaN(de) || Double.isNaN(maxEnergy) ? Double.NaN : Math.max(maxEnergy, de);
        frames++;
    }

    /** The comparison so far. */
    public Result result() {
        double rmse = components == 0 ? Double.NaN : Math.sqrt(sumSquaredError / components);
        double rmsB = components == 0 ? Double.NaN : Math.sqrt(sumSquaredBaseline / components);
        return new Result(frames, rmse, components == 0 ? Double.NaN : maxAbs, rmsB > 0 ? rmse / rmsB : Double.NaN,
                frames == 0 ? Double.NaN : maxEnergy);
    }

    /**
     * @param frames                      frames compared
     * @param forceRmseEvPerA             RMSE of force components (eV/Å)
     * @param forceMaxAbsErrorEvPerA      largest component difference (eV/Å)
     * @param forceRelativeRmse           RMSE / RMS(baseline force), pure number
     * @param energyMaxAbsErrorMeVPerAtom largest energy difference per atom (meV/atom)
     */
    public record Result(int frames, double forceRmseEvPerA, double forceMaxAbsErrorEvPerA, double forceRelativeRmse,
                         double energyMaxAbsErrorMeVPerAtom) {
    }
}
