package org.molten.validation.reports;

import java.util.List;
import org.molten.validation.metrics.ForceAgreement;

/**
 * How the optimised model compares with the baseline on one system.
 *
 * @param optimisedModel                 name of the model under test
 * @param baselineModel                  name of the baseline
 * @param forces                         energies and forces of both models evaluated on the same
 *                                       frames (sampled from the optimised runs)
 * @param framesSkipped                  frames a model refused to evaluate (0 normally)
 * @param skipReason                     the first refusal, or null
 * @param divergence                     RMSD between the optimised and the baseline NVE
 *                                       trajectories (same start) against time
 * @param finalRmsdA                     RMSD at the last common sample, Å
 * @param maxRmsdA                       largest RMSD, Å
 * @param divergenceTimeFs               first time the RMSD exceeds {@link #DIVERGENCE_RMSD_A}, fs;
 *                                       null when it never does (chaotic divergence is expected
 *                                       eventually: rounding differences grow exponentially)
 * @param optimisedDriftMeVPerAtomPerPs  NVE drift of the optimised model, meV/atom/ps
 * @param baselineDriftMeVPerAtomPerPs   NVE drift of the baseline, meV/atom/ps
 */
public record BaselineComparison(
        String optimisedModel, String baselineModel, ForceAgreement.Result forces, int framesSkipped, String skipReason,
        List<RmsdPoint> divergence,
        double finalRmsdA, double maxRmsdA, Double divergenceTimeFs,
        double optimisedDriftMeVPerAtomPerPs, double baselineDriftMeVPerAtomPerPs) {

    /** RMSD (Å) that counts as "the trajectories have visibly separated". */
    public static final double DIVERGENCE_RMSD_A = 0.1;

    /**
     * One point of the divergence curve.
     *
     * @param timeFs simulation time, fs
     * @param rmsdA  RMSD between the two trajectories at that time, Å
     */
    public record RmsdPoint(double timeFs, double rmsdA) {
    }
}
