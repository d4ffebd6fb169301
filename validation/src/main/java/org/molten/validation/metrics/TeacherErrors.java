package org.molten.validation.metrics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.molten.core.Element;

/**
 * How far a student's energies and forces are from its teacher's on frames of the student's own
 * trajectories, accumulated frame by frame (pooled over runs and replicas of one system):
 * <ul>
 *   <li>{@code forceMaeEvPerA}, {@code forceRmseEvPerA}: mean absolute and root-mean-square error
 *       over all frames, atoms and Cartesian components (eV/Å), the same definition as the model
 *       card's test-set MAE, so the two can be compared;</li>
 *   <li>{@code maxAtomErrorEvPerA}: the largest |F_student − F_teacher| of one atom (vector norm,
 *       eV/Å), with the frame (run, step, time) it occurred in;</li>
 *   <li>{@code energyErrorMeVPerAtom}: RMS over frames of (E_student − E_teacher − offset) / N,
 *       meV/atom, after the one constant offset per system that minimises it (the mean difference):
 *       a student's energy zero is arbitrary, its energy differences are not;</li>
 *   <li>{@code worstAtoms}: the atoms with the largest force MAE over the frames (element and
 *       0-based index), the places a retraining must look at.</li>
 * </ul>
 * Frames the teacher could not evaluate are counted with the first reason. Not thread-safe.
 */
public final class TeacherErrors {
    /** How many atoms {@link Result#worstAtoms()} lists. */
    public static final int WORST_ATOMS = 3;

    private final Element[] elements;
    private final double[] atomAbsSum;
    private long components;
    private double absSum;
    private double squaredSum;
    private double maxAtomError;
    private FrameRef maxAtomFrame;
    private int maxAtom = -1;
    private final List<Double> energyDifferencesEv = new ArrayList<>();
    private final List<FramePoint> series = new ArrayList<>();
    private int failed;
    private String firstFailure;

    /** An accumulator for frames of a system whose atoms have these elements (in order). */
    public TeacherErrors(Element[] elements) {
        this.elements = elements.clone();
        this.atomAbsSum = new double[elements.length];
    }

    /** Where a frame came from: run label ("replica 2 NVT"), MD step and time in fs. */
    public record FrameRef(String run, long step, double timeFs) {
    }

    /** One frame's force MAE (eV/Å) at its place in a run, for the error-against-time series. */
    public record FramePoint(String run, long step, double timeFs, double forceMaeEvPerA) {
    }

    /**
     * Adds one frame.
     *
     * @return the frame's largest per-atom force error, eV/Å
     */
    public double add(FrameRef where, double studentEnergyEv, double[] studentForces, double teacherEnergyEv,
                      double[] teacherForces) {
        int n = elements.length;
        if (studentForces.length != 3 * n || teacherForces.length != 3 * n) {
            throw new IllegalArgumentException("forces must have length 3N = " + 3 * n + ": " + studentForces.length
                    + " and " + teacherForces.length);
        }
        double frameAbs = 0;
        double frameMax = 0;
        int frameMaxAtom = 0;
        for (int i = 0; i < n; i++) {
            double norm2 = 0;
            double atomAbs = 0;
            for (int c = 0; c < 3; c++) {
                double e = studentForces[3 * i + c] - teacherForces[3 * i + c];
                norm2 += e * e;
                atomAbs += Math.abs(e);
            }
            squaredSum += norm2;
            absSum += atomAbs;
            frameAbs += atomAbs;
            atomAbsSum[i] += atomAbs / 3;
            double norm = Math.sqrt(norm2);
            if (norm > frameMax || Double.isNaN(norm)) {
                frameMax = norm;
                frameMaxAtom = i;
            }
        }
        components += 3L * n;
        if (frameMax > maxAtomError || Double.isNaN(frameMax) || maxAtomFrame == null) {
            maxAtomError = frameMax;
            maxAtom = frameMaxAtom;
            maxAtomFrame = where;
        }
        energyDifferencesEv.add(studentEnergyEv - teacherEnergyEv);
        series.add(new FramePoint(where.run(), where.step(), where.timeFs(), frameAbs / (3 * n)));
        return frameMax;
    }

    /** Counts a frame the teacher could not evaluate (SCF not converged, geometry refused). */
    public void failed(FrameRef where, String reason) {
        if (failed++ == 0) {
            firstFailure = where.run() + " step " + where.step() + ": " + reason;
        }
    }

    /** Frames evaluated so far. */
    public int frames() {
        return energyDifferencesEv.size();
    }

    /** The errors so far. */
    public Result result() {
        int frames = frames();
        int n = elements.length;
        double mae = components == 0 ? Double.NaN : absSum / components;
        double rmse = components == 0 ? Double.NaN : Math.sqrt(squaredSum / components);
        double offset = energyDifferencesEv.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        double energy = Double.NaN;
        if (frames > 1) {
            double s = 0;
            for (double d : energyDifferencesEv) {
                s += (d - offset) * (d - offset);
            }
            energy = Math.sqrt(s / frames) * 1000.0 / n;
        }
        List<AtomError> atoms = new ArrayList<>();
        for (int i = 0; i < n && frames > 0; i++) {
            atoms.add(new AtomError(i, elements[i].symbol(), atomAbsSum[i] / frames));
        }
        atoms.sort(Comparator.comparingDouble(AtomError::forceMaeEvPerA).reversed());
        List<AtomError> perAtom = new ArrayList<>(atoms);
        perAtom.sort(Comparator.comparingInt(AtomError::index));
        return new Result(frames, failed, firstFailure, mae, rmse, frames == 0 ? Double.NaN : maxAtomError,
                maxAtom, maxAtom < 0 ? null : elements[maxAtom].symbol(), maxAtomFrame, energy,
                frames == 0 ? Double.NaN : offset * 1000.0 / n, List.copyOf(atoms.subList(0, Math.min(WORST_ATOMS, atoms.size()))),
                List.copyOf(perAtom), List.copyOf(series));
    }

    /** One atom's force MAE over the frames (eV/Å), by 0-based index and element. */
    public record AtomError(int index, String element, double forceMaeEvPerA) {
    }

    /**
     * @param frames                 frames evaluated by both
     * @param framesFailed           frames the teacher could not evaluate
     * @param firstFailure           where and why the first one failed, or null
     * @param forceMaeEvPerA         component MAE, eV/Å
     * @param forceRmseEvPerA        component RMSE, eV/Å
     * @param maxAtomErrorEvPerA     largest per-atom error norm, eV/Å
     * @param maxAtomIndex           the atom of that error (0-based), or -1
     * @param maxAtomElement         its element symbol
     * @param maxAtomFrame           the frame it occurred in
     * @param energyErrorMeVPerAtom  RMS energy error after the constant offset, meV/atom
     * @param energyOffsetMeVPerAtom the offset removed (mean E_student − E_teacher), meV/atom
     * @param worstAtoms             the atoms with the largest force MAE, largest first
     * @param perAtom                every atom's force MAE, by index (for the per-atom plot)
     * @param series                 every frame's force MAE in the order added
     */
    public record Result(int frames, int framesFailed, String firstFailure, double forceMaeEvPerA, double forceRmseEvPerA,
                         double maxAtomErrorEvPerA, int maxAtomIndex, String maxAtomElement, FrameRef maxAtomFrame,
                         double energyErrorMeVPerAtom, double energyOffsetMeVPerAtom, List<AtomError> worstAtoms,
                         List<AtomError> perAtom, List<FramePoint> series) {
    }
}
