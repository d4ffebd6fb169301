package org.molten.validation.runs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.Element;
import org.molten.validation.BaselineKind;
import org.molten.validation.ValidationSettings;
import org.molten.validation.metrics.EnergyDrift;
import org.molten.validation.metrics.IntegrityViolation;
import org.molten.validation.metrics.TeacherErrors;
import org.molten.validation.metrics.TemperatureStatistics;
import org.molten.validation.metrics.TrajectoryRmsd;
import org.molten.validation.reports.BaselineComparison;
import org.molten.validation.reports.Criteria;
import org.molten.validation.reports.Criterion;
import org.molten.validation.reports.CriterionResult;
import org.molten.validation.observables.ObservableComparison;
import org.molten.validation.reports.ReplicaReport;
import org.molten.validation.reports.RunReport;
import org.molten.validation.reports.Spread;
import org.molten.validation.reports.SystemReport;
import org.molten.validation.reports.SystemVerdict;
import org.molten.validation.reports.Thresholds;

/**
 * Turns the replicas of one system ({@link ReplicaRun}) into its report: the runs' metrics, the
 * criteria and the verdict.
 * <ul>
 *   <li>per replica and student run: completed, structure intact;</li>
 *   <li>stability: the fraction of replicas whose student runs all completed intact, with each
 *       replica's time to first failure;</li>
 *   <li>NVE drift: the mean over the replicas' student NVE runs ({@link EnergyDrift#pooled});
 *       NVT temperature and its fluctuation: the replicas' student NVT series one after the other
 *       (independent starts only make the blocks more independent);</li>
 *   <li>the teacher on frames of the student's own runs, pooled over replicas;</li>
 *   <li>the implementation baseline (TorchScript or reference) on replica 0's frames, or, with
 *       the teacher baseline, the structural distributions of both MDs.</li>
 * </ul>
 */
final class SystemValidation {
    private SystemValidation() {}

    static SystemReport aggregate(SystemSource system, List<ReplicaOutcome> replicas, ValidationSettings s, Thresholds t,
                                  Path outDir, List<String> warnings) {
        String name = system.name();
        ReplicaOutcome first = replicas.get(0);
        Atoms start = first.start();
        int n = start.size();
        double targetK = s.temperatureK();
        boolean canonical = s.thermostat().canonical();
        List<RunReport> runs = new ArrayList<>();
        List<CriterionResult> criteria = new ArrayList<>();
        List<ReplicaReport> replicaReports = new ArrayList<>();
        List<EnergyDrift> drifts = new ArrayList<>();
        List<double[]> nvtTemperatures = new ArrayList<>();
        List<Double> driftValues = new ArrayList<>();
        List<Double> nvtMeans = new ArrayList<>();
        int stable = 0;
        int nvtDof = 0;
        List<CriterionResult> teacherMd = new ArrayList<>();   // the teacher's own runs (--baseline teacher)
        int teacherRuns = 0;
        int teacherRunsIntact = 0;
        for (ReplicaOutcome r : replicas) {
            RunReport nveReport = null;
            RunReport nvtReport = null;
            for (RunOutcome o : r.runs()) {
                RunReport report = RunAnalysis.analyse(o, targetK, n);
                runs.add(report);
                if (o.spec().role() == org.molten.validation.reports.ModelRole.OPTIMISED) {
                    criteria.add(Criteria.completion(name, report));
                    criteria.add(Criteria.integrity(name, report));
                }
                if (o == r.teacherNve() || o == r.teacherNvt()) {
                    teacherMd.add(Criteria.completion(name, report));
                    teacherMd.add(Criteria.integrity(name, report));
                    teacherRuns++;
                    teacherRunsIntact += ObservableCheck.intact(o) ? 1 : 0;
                }
                if (o == r.nve()) {
                    nveReport = report;
                } else if (o == r.nvt()) {
                    nvtReport = report;
                }
            }
            Failure f = firstFailure(r);
            if (f == null && r.nve() != null && r.nvt() != null) {
                stable++;
            }
            if (nveReport != null) {
                drifts.add(nveReport.energy());
                driftValues.add(nveReport.energy() == null ? null : nveReport.energy().driftMeVPerAtomPerPs());
            }
            if (nvtReport != null && r.nvt().series().size() > 0) {
                nvtTemperatures.add(r.nvt().series().temperatureK());
                nvtDof = r.nvt().degreesOfFreedom();
                nvtMeans.add(nvtReport.temperature() == null ? null : nvtReport.temperature().meanK());
            }
            Double teacherMae = null;
            if (!r.teacherFrames().isEmpty()) {
                double mae = ReplicaRun.pool(elementsOf(start), r.teacherFrames()).result().forceMaeEvPerA();
                teacherMae = Double.isFinite(mae) ? mae : null;
            }
            int dof = r.nvt() != null ? r.nvt().degreesOfFreedom()   // 3N - 3 less the constraints
                    : org.molten.core.Observables.degreesOfFreedom(n, ReplicaRun.REMOVED_CONSTRAINTS);
            replicaReports.add(new ReplicaReport(r.replica(), r.seed(), f == null && r.nve() != null, f == null ? null : f.timeFs,
                    f == null ? null : f.run, f == null ? null : f.what, org.molten.core.Observables.temperatureK(r.state0(), dof),
                    org.molten.core.Observables.temperatureK(r.nvtState0(), dof),
                    nveReport == null || nveReport.energy() == null ? null : nveReport.energy().driftMeVPerAtomPerPs(),
                    nvtReport == null || nvtReport.temperature() == null ? null : nvtReport.temperature().meanK(), teacherMae));
        }
        double stableFraction = (double) stable / replicas.size();
        criteria.add(stability(name, replicaReports, stableFraction, t));

        String label = "student, " + replicas.size() + (replicas.size() == 1 ? " replica" : " replicas");
        EnergyDrift pooledDrift = EnergyDrift.pooled(drifts);
        List<CriterionResult> drift = Criteria.drift(name, label + " NVE", pooledDrift, first.nve() == null
                ? org.molten.validation.reports.Precision.FLOAT64 : first.nve().spec().precision(), t,
                replicas.size() > 1 ? " (mean of " + drifts.size() + " replicas)" : "");
        criteria.addAll(drift);
        TemperatureStatistics pooledT = nvtTemperatures.isEmpty() ? null
                : TemperatureStatistics.ofRuns(nvtTemperatures, targetK, nvtDof);
        List<CriterionResult> temperature = Criteria.temperature(name, label + " NVT", pooledT, t, canonical,
                replicas.size() > 1 ? " (" + nvtTemperatures.size() + " replicas' series pooled)" : "");
        criteria.addAll(temperature);

        TeacherErrors.Result teacher = null;
        String teacherSkipped = replicas.stream().map(ReplicaOutcome::teacherSkipped).filter(java.util.Objects::nonNull)
                .findFirst().orElse(null);
        List<FrameEval> evaluations = replicas.stream().flatMap(r -> r.teacherFrames().stream()).toList();
        CriterionResult teacherCriterion;
        if (s.teacherFramesPerRun() == 0) {
            teacherCriterion = CriterionResult.skipped(name, "teacher checks", Criterion.TEACHER_FORCE_MAE, "<=",
                    t.maxTeacherForceMaeEvPerA(), "eV/A", "teacher checks switched off (--teacher-frames 0)");
        } else if (teacherSkipped != null) {
            teacherCriterion = CriterionResult.skipped(name, "teacher checks", Criterion.TEACHER_FORCE_MAE, "<=",
                    t.maxTeacherForceMaeEvPerA(), "eV/A", teacherSkipped);
        } else {
            teacher = ReplicaRun.pool(elementsOf(start), evaluations).result();
            teacherCriterion = teacherCriterion(name, teacher, t);
        }
        criteria.add(teacherCriterion);

        BaselineComparison comparison = null;
        CriterionResult baselineCriterion = null;
        if (s.baseline() != BaselineKind.TEACHER && first.agreement() != null) {
            comparison = comparison(first);
            baselineCriterion = Criteria.forComparison(name, comparison, t);
            criteria.add(baselineCriterion);
        }
        List<ObservableComparison> observables = new ArrayList<>();
        List<CriterionResult> observableCriteria = new ArrayList<>();
        if (s.baseline() == BaselineKind.TEACHER) {
            criteria.addAll(teacherMd);
            if (teacherSkipped != null) {
                observableCriteria.add(CriterionResult.skipped(name, "teacher MD", Criterion.OBSERVABLE_DIVERGENCE, "<=",
                        t.maxObservableDivergence(), "bits", teacherSkipped));
            } else if (teacherRunsIntact == 0) {
                // Nothing of the teacher's to compare with: its own failure is its row's, not the student's.
                observableCriteria.add(CriterionResult.skipped(name, "teacher MD", Criterion.OBSERVABLE_DIVERGENCE, "<=",
                        t.maxObservableDivergence(), "bits", "none of the teacher's " + teacherRuns
                                + " runs completed with its structure intact (see the teacher MD criteria)"));
            } else {
                observables.addAll(ObservableCheck.compare(start, replicas, t));
                for (ObservableComparison o : observables) {
                    observableCriteria.add(new CriterionResult(name, "teacher MD: " + o.name(), Criterion.OBSERVABLE_DIVERGENCE,
                            Double.isFinite(o.jensenShannon()) ? o.jensenShannon() : null, "<=", o.maxJensenShannon(), "bits",
                            o.passed(), String.format(Locale.ROOT, "%s: Jensen-Shannon %.3g bits (limit %.3g), 1-Wasserstein "
                                    + "%.3g %s (limit %.3g); %d student vs %d teacher values%s", o.name(), o.jensenShannon(),
                            o.maxJensenShannon(), o.wasserstein1(), o.unit(), o.maxWasserstein1(), o.studentSamples(),
                            o.teacherSamples(), o.passed() ? "" : ": " + o.reason())));
                }
            }
            criteria.addAll(observableCriteria);
        }
        List<String> plots = SystemPlots.draw(system, replicas, teacher, comparison, observables, s, t, outDir, warnings);
        boolean passed = criteria.stream().allMatch(CriterionResult::passed);
        SystemVerdict verdict = new SystemVerdict(
                verdictOf(criteria.stream().filter(c -> !teacherMd.contains(c) && (c.criterion() == Criterion.STABLE_FRACTION
                        || c.criterion() == Criterion.RUN_COMPLETED || c.criterion() == Criterion.STRUCTURAL_INTEGRITY)).toList()),
                verdictOf(List.of(teacherCriterion)),
                s.baseline() == BaselineKind.TEACHER ? verdictOf(observableCriteria) : "n/a",
                verdictOf(drift), verdictOf(temperature),
                baselineCriterion == null ? "n/a" : verdictOf(List.of(baselineCriterion)),
                s.baseline() != BaselineKind.TEACHER ? "n/a" : teacherSkipped != null ? "skipped" : verdictOf(teacherMd),
                s.baseline() != BaselineKind.TEACHER ? "" : teacherSkipped != null ? teacherSkipped
                        : teacherMdDetail(teacherMd, teacherRuns, teacherRunsIntact));
        return new SystemReport(name, start.formula(), n, start.cell().isPresent(), runs, comparison, criteria, plots, passed,
                verdict, replicaReports, stableFraction, Spread.of(driftValues), Spread.of(nvtMeans), teacher, teacherSkipped,
                observables, system.file() == null ? null : system.file().toString());
    }

    /** "k/n runs intact", and the first failure of the teacher's own MD if there is one. */
    private static String teacherMdDetail(List<CriterionResult> teacherMd, int runs, int intact) {
        String first = teacherMd.stream().filter(c -> !c.passed() && !c.skipped()).findFirst()
                .map(c -> "; " + c.run() + ": " + c.detail()).orElse("");
        return intact + "/" + runs + " runs intact" + first;
    }

    /** "pass" when all passed, "FAIL" when one failed, "skipped" when none failed and one was skipped. */
    static String verdictOf(List<CriterionResult> cs) {
        if (cs.isEmpty()) {
            return "n/a";
        }
        if (cs.stream().anyMatch(c -> !c.passed() && !c.skipped())) {
            return "FAIL";
        }
        return cs.stream().anyMatch(CriterionResult::skipped) ? "skipped" : "pass";
    }

    private static CriterionResult stability(String name, List<ReplicaReport> replicas, double fraction, Thresholds t) {
        StringBuilder detail = new StringBuilder(String.format(Locale.ROOT, "%d of %d replicas stable",
                Math.round(fraction * replicas.size()), replicas.size()));
        for (ReplicaReport r : replicas) {
            if (!r.stable()) {
                detail.append(String.format(Locale.ROOT, "; replica %d failed %s after %s fs: %s", r.replica(),
                        r.failedRun() == null ? "" : "in " + r.failedRun(),
                        r.timeToFailureFs() == null ? "?" : String.format(Locale.ROOT, "%.1f", r.timeToFailureFs()), r.failure()));
            }
        }
        return new CriterionResult(name, "replicas", Criterion.STABLE_FRACTION, fraction, ">=", t.minStableFraction(), "1",
                fraction >= t.minStableFraction(), detail.toString());
    }

    private static CriterionResult teacherCriterion(String name, TeacherErrors.Result r, Thresholds t) {
        double limit = t.maxTeacherForceMaeEvPerA();
        if (r.frames() == 0) {
            return new CriterionResult(name, "teacher checks", Criterion.TEACHER_FORCE_MAE, null, "<=", limit, "eV/A", false,
                    "no frame could be evaluated by the teacher" + (r.firstFailure() == null ? "" : " (first: "
                            + r.firstFailure() + ")"));
        }
        boolean ok = r.forceMaeEvPerA() <= limit && r.framesFailed() == 0;
        StringBuilder worst = new StringBuilder();
        for (TeacherErrors.AtomError a : r.worstAtoms()) {
            worst.append(worst.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s%d %.3g", a.element(), a.index(),
                    a.forceMaeEvPerA()));
        }
        String detail = String.format(Locale.ROOT, "force MAE %.4g eV/A (RMSE %.4g) on %d frames of the student's runs; largest "
                        + "per-atom error %.3g eV/A on %s%d in %s at %.1f fs; energy %.3g meV/atom after a %.4g meV/atom offset; "
                        + "worst atoms (MAE eV/A): %s", r.forceMaeEvPerA(), r.forceRmseEvPerA(), r.frames(), r.maxAtomErrorEvPerA(),
                r.maxAtomElement(), r.maxAtomIndex(), r.maxAtomFrame().run(), r.maxAtomFrame().timeFs(), r.energyErrorMeVPerAtom(),
                r.energyOffsetMeVPerAtom(), worst);
        if (r.framesFailed() > 0) {
            detail += "; " + r.framesFailed() + " frames the teacher could not evaluate (first: " + r.firstFailure() + ")";
        }
        return new CriterionResult(name, "teacher checks", Criterion.TEACHER_FORCE_MAE, r.forceMaeEvPerA(), "<=", limit, "eV/A",
                ok, detail);
    }

    /** Replica 0's force agreement with the implementation baseline, and the RMSD between their NVE runs if both ran. */
    private static BaselineComparison comparison(ReplicaOutcome r) {
        ReplicaOutcome.Agreement a = r.agreement();
        List<BaselineComparison.RmsdPoint> divergence = new ArrayList<>();
        double maxRmsd = 0;
        Double divergedAt = null;
        double optDrift = Double.NaN;
        double baseDrift = Double.NaN;
        if (r.baselineNve() != null && r.nve() != null) {
            double dt = r.nve().spec().integrator().timestepFs();
            int common = Math.min(r.nve().frames().size(), r.baselineNve().frames().size());
            for (int i = 0; i < common; i++) {
                double rmsd = TrajectoryRmsd.rmsdA(r.nve().frames().get(i), r.baselineNve().frames().get(i),
                        r.state0().cellOrNull());
                double time = r.nve().frameSteps().get(i) * dt;
                divergence.add(new BaselineComparison.RmsdPoint(time, rmsd));
                maxRmsd = Math.max(maxRmsd, rmsd);
                if (divergedAt == null && rmsd > BaselineComparison.DIVERGENCE_RMSD_A) {
                    divergedAt = time;
                }
            }
            optDrift = driftOf(r.nve(), r.start().size());
            baseDrift = driftOf(r.baselineNve(), r.start().size());
        }
        double finalRmsd = divergence.isEmpty() ? Double.NaN : divergence.get(divergence.size() - 1).rmsdA();
        return new BaselineComparison(r.nve() == null ? "" : r.nve().spec().forceField().name(), a.baselineModel(),
                a.forces(), a.skipped(), a.skipReason(), thin(divergence), finalRmsd, maxRmsd, divergedAt, optDrift, baseDrift);
    }

    private static double driftOf(RunOutcome o, int atoms) {
        EnergyDrift e = RunAnalysis.analyse(o, 0, atoms).energy();
        return e == null ? Double.NaN : e.driftMeVPerAtomPerPs();
    }

    /** At most 200 points of the divergence curve go into the report (the plot uses them too). */
    private static List<BaselineComparison.RmsdPoint> thin(List<BaselineComparison.RmsdPoint> all) {
        int stride = Math.max(1, (all.size() + 199) / 200);
        List<BaselineComparison.RmsdPoint> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i += stride) {
            out.add(all.get(i));
        }
        if (!all.isEmpty() && out.get(out.size() - 1) != all.get(all.size() - 1)) {
            out.add(all.get(all.size() - 1));
        }
        return out;
    }

    private record Failure(String run, double timeFs, String what) {
    }

    /** The earliest failure among a replica's student runs (blow-up or broken structure), or null. */
    private static Failure firstFailure(ReplicaOutcome r) {
        Failure best = null;
        for (RunOutcome o : r.studentRuns()) {
            Failure f = null;
            if (o.blowUp() != null) {
                f = new Failure(o.spec().label(), o.blowUp().timeFs(), "explosion: " + o.blowUp().cause());
            }
            IntegrityViolation v = o.integrity() == null ? null : o.integrity().firstViolation();
            if (v != null && (f == null || v.timeFs() < f.timeFs)) {
                f = new Failure(o.spec().label(), v.timeFs(), describe(v));
            }
            if (f != null && (best == null || f.timeFs < best.timeFs)) {
                best = f;
            }
        }
        return best;
    }

    private static String describe(IntegrityViolation v) {
        String kind = switch (v.kind()) {
            case NON_FINITE -> "explosion";
            case BOND_STRETCHED -> "bond stretched";
            case HYDROGEN_DETACHED -> "hydrogen moved to another atom";
            case HYDROGEN_FAR -> "hydrogen dissociated";
            case ATOM_ESCAPED -> "atom escaped";
            case ATOMS_OVERLAP -> "atoms overlap";
        };
        return kind + ": " + v.description();
    }

    /** The element of every atom, in order. */
    static Element[] elementsOf(Atoms a) {
        Element[] e = new Element[a.size()];
        for (int i = 0; i < e.length; i++) {
            e[i] = a.element(i);
        }
        return e;
    }
}
