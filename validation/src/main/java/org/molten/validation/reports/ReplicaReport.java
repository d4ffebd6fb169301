package org.molten.validation.reports;

/**
 * One replica of a system at a glance.
 *
 * @param replica                     index k
 * @param seed                        its seed (seed + k)
 * @param stable                      true when its student runs all completed with the structure intact
 * @param timeToFailureFs             simulated time of the first failure within its run, fs (null when stable)
 * @param failedRun                   the run that failed first (null when stable)
 * @param failure                     what happened: explosion, hydrogen dissociated, bond stretched, atom escaped
 * @param startTemperatureK           instantaneous temperature the NVE run started from (rescaled to the target), K
 * @param nvtStartTemperatureK        instantaneous temperature the NVT run started from (as equilibrated), K
 * @param nveDriftMeVPerAtomPerPs     the student's NVE total-energy drift, meV/atom/ps (null if not measured)
 * @param nvtMeanTemperatureK         the student's NVT mean temperature, K (null if not measured)
 * @param teacherForceMaeEvPerA       force MAE against the teacher on this replica's frames, eV/Å (null without teacher)
 */
public record ReplicaReport(int replica, long seed, boolean stable, Double timeToFailureFs, String failedRun, String failure,
                            double startTemperatureK, double nvtStartTemperatureK, Double nveDriftMeVPerAtomPerPs, Double nvtMeanTemperatureK,
                            Double teacherForceMaeEvPerA) {
}
