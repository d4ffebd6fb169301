package org.molten.validation.runs;

import java.util.ArrayList;
import java.util.List;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.validation.metrics.TeacherErrors;

/**
 * The teacher on frames of a student's own trajectory: {@code k} frames spread evenly over the
 * run's samples (first and last included), the teacher's energy and forces next to those the
 * student had there. A frame the teacher cannot evaluate (the SCF does not converge, the geometry
 * is refused) is kept with the reason, so that it is counted and named in the report and never
 * becomes a silently wrong force.
 */
final class TeacherCheck {
    private TeacherCheck() {}

    static List<FrameEval> evaluate(ForceField teacher, RunOutcome run, int k, Atoms start) {
        List<FrameEval> out = new ArrayList<>();
        List<double[]> frames = run.frames();
        if (frames.isEmpty() || k <= 0) {
            return out;
        }
        Atoms probe = start.copy();
        int n = frames.size();
        int count = Math.min(k, n);
        double dt = run.spec().integrator().timestepFs();
        int last = -1;
        for (int j = 0; j < count; j++) {
            int i = count == 1 ? n - 1 : (int) Math.round((double) j * (n - 1) / (count - 1));
            if (i == last) {
                continue;
            }
            last = i;
            long step = run.frameSteps().get(i);
            TeacherErrors.FrameRef where = new TeacherErrors.FrameRef(run.spec().label(), step, step * dt);
            System.arraycopy(frames.get(i), 0, probe.positions(), 0, probe.positions().length);
            double[] f = new double[3 * probe.size()];
            double[] fs = run.frameForces().get(i);
            try {
                double e = teacher.energyAndForces(probe, f);
                double worst = 0;
                for (int a = 0; a < probe.size(); a++) {
                    double dx = fs[3 * a] - f[3 * a], dy = fs[3 * a + 1] - f[3 * a + 1], dz = fs[3 * a + 2] - f[3 * a + 2];
                    worst = Math.max(worst, Math.sqrt(dx * dx + dy * dy + dz * dz));
                }
                out.add(new FrameEval(where, frames.get(i), run.frameEnergies().get(i), fs, e, f, worst, null));
            } catch (IllegalArgumentException | IllegalStateException e) {
                out.add(new FrameEval(where, frames.get(i), run.frameEnergies().get(i), fs, Double.NaN, null, Double.NaN,
                        e.getMessage()));
            }
        }
        return out;
    }
}
