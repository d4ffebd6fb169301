package org.molten.validation.runs;

import java.util.List;
import org.molten.core.Atoms;
import org.molten.validation.metrics.ForceAgreement;

/**
 * What one replica produced ({@link ReplicaRun}); a run that was not done is null.
 *
 * @param replica        index k
 * @param seed           its seed (seed + k)
 * @param start          the starting structure
 * @param state0         the state the NVE runs started from (after equilibration, rescaled to the
 *                       target temperature)
 * @param nvtState0      the state the NVT runs started from (the equilibrated velocities as they are)
 * @param equilibration  the student's Langevin equilibration, or null if none
 * @param nve            the student's NVE run
 * @param nvt            the student's NVT run
 * @param teacherNve     the teacher's NVE run ({@code --baseline teacher})
 * @param teacherNvt     the teacher's NVT run ({@code --baseline teacher})
 * @param baselineNve    the implementation baseline's NVE run (replica 0, full protocol)
 * @param baselineNvt    the implementation baseline's NVT run (replica 0, full protocol)
 * @param teacherFrames  the teacher's evaluations of student frames
 * @param teacherSkipped why the teacher did not run, or null
 * @param agreement      replica 0: the optimised model against the implementation baseline on the
 *                       same frames, or null
 * @param notes          things the report must say about this replica
 */
record ReplicaOutcome(int replica, long seed, Atoms start, Atoms state0, Atoms nvtState0, RunOutcome equilibration, RunOutcome nve,
                      RunOutcome nvt, RunOutcome teacherNve, RunOutcome teacherNvt, RunOutcome baselineNve,
                      RunOutcome baselineNvt, List<FrameEval> teacherFrames, String teacherSkipped, Agreement agreement,
                      List<String> notes) {

    /** Force agreement with the implementation baseline, and the frames it could not evaluate (count, first reason). */
    record Agreement(String baselineModel, ForceAgreement.Result forces, int skipped, String skipReason) {
    }

    /** Every run that was done, in protocol order. */
    List<RunOutcome> runs() {
        return java.util.stream.Stream.of(equilibration, nve, nvt, teacherNve, teacherNvt, baselineNve, baselineNvt)
                .filter(java.util.Objects::nonNull).toList();
    }

    /** The student's runs (equilibration, NVE, NVT) that were done. */
    List<RunOutcome> studentRuns() {
        return java.util.stream.Stream.of(equilibration, nve, nvt).filter(java.util.Objects::nonNull).toList();
    }
}
