package org.molten.validation.runs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.RandomStream;
import org.molten.integrators.MaxwellBoltzmann;
import org.molten.integrators.VelocityVerlet;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.validation.ValidationSettings;
import org.molten.validation.metrics.ForceAgreement;
import org.molten.validation.metrics.StructuralIntegrity;
import org.molten.validation.metrics.TrajectoryRmsd;
import org.molten.validation.plots.EnergyPlots;
import org.molten.validation.reports.BaselineComparison;
import org.molten.validation.reports.Criteria;
import org.molten.validation.reports.CriterionResult;
import org.molten.validation.reports.Ensemble;
import org.molten.validation.reports.ModelRole;
import org.molten.validation.reports.RunPhase;
import org.molten.validation.reports.RunReport;
import org.molten.validation.reports.SystemReport;
import org.molten.validation.reports.Thresholds;

/**
 * The protocol for one system:
 * <ol>
 *   <li>the built-in structure; Maxwell–Boltzmann velocities at T from {@code RandomStream(seed)},
 *       centre-of-mass motion removed (dof = 3N − 3);</li>
 *   <li>Langevin equilibration (BAOAB, friction {@value #EQUILIBRATION_FRICTION_PER_FS}/fs) with
 *       the optimised model, continuing the same random stream;</li>
 *   <li>from that one equilibrated state: NVE (Velocity Verlet) and NVT (the chosen thermostat,
 *       random stream {@code seed + 1}) with the optimised model, then the same two runs with the
 *       baseline model — identical starting positions, velocities and thermostat noise;</li>
 *   <li>metrics and criteria per run, the baseline comparison, the plots.</li>
 * </ol>
 * The seed does not depend on the system's position in the list, so
 * {@code --systems ethanol --seed S} repeats the ethanol part of a larger run exactly.
 */
final class SystemValidation {
    /** Langevin friction of the equilibration, 1/fs (relaxation time 50 fs). */
    static final double EQUILIBRATION_FRICTION_PER_FS = 0.02;
    /** Most frames per production run on which both models' forces are compared. */
    static final int MAX_COMPARISON_FRAMES_PER_RUN = 100;
    /** Constraints removed from the velocities: the centre-of-mass momentum. */
    private static final int REMOVED_CONSTRAINTS = 3;

    private SystemValidation() {}

    static SystemReport run(String name, ValidationSettings s, Thresholds t, ModelProvider.Model optimised,
                            ModelProvider.Model baseline, Path outDir, Progress progress, List<String> warnings) throws IOException {
        Atoms start = SystemCatalog.load(name, s.seed());
        int n = start.size();
        double targetK = s.temperatureK();
        double dt = s.timestepFs();
        RandomStream rng = new RandomStream(s.seed());
        int removed = MaxwellBoltzmann.at(targetK).assign(start, rng);
        if (removed != REMOVED_CONSTRAINTS) {
            throw new IllegalStateException("Maxwell-Boltzmann velocities removed " + removed + " constraints, expected 3");
        }
        List<RunOutcome> outcomes = new ArrayList<>();
        Atoms state0 = start;
        if (s.equilibrationSteps() > 0) {
            progress.phase(name + ": equilibration");
            VelocityVerlet eq = new VelocityVerlet(dt, LangevinThermostat.of(targetK, EQUILIBRATION_FRICTION_PER_FS));
            // The equilibration continues the velocities' stream: one seed reproduces both.
            RunSpec spec = new RunSpec("optimised equilibration", RunPhase.EQUILIBRATION, ModelRole.OPTIMISED, Ensemble.NVT,
                    optimised.forceField(), optimised.info().precision(), eq, REMOVED_CONSTRAINTS, s.seed(), rng,
                    s.equilibrationSteps(), s.sampleIntervalSteps(), integrity(start, t), false,
                    outDir.resolve(name + "-equilibration.csv"));
            RunOutcome o = ProductionRun.run(spec, start, progress);
            outcomes.add(o);
            state0 = o.finalState();
        }
        RunOutcome optNve = null;
        RunOutcome optNvt = null;
        RunOutcome baseNve = null;
        RunOutcome baseNvt = null;
        boolean equilibrated = outcomes.isEmpty() || outcomes.get(0).blowUp() == null;
        if (equilibrated) {
            for (ModelRole role : ModelRole.values()) {
                ModelProvider.Model m = role == ModelRole.OPTIMISED ? optimised : baseline;
                String who = role == ModelRole.OPTIMISED ? "optimised" : "baseline";
                progress.phase(name + ": " + who + " NVE");
                RunOutcome nve = ProductionRun.run(new RunSpec(who + " NVE", RunPhase.PRODUCTION, role, Ensemble.NVE,
                        m.forceField(), m.info().precision(), new VelocityVerlet(dt), REMOVED_CONSTRAINTS, null, null, s.nveSteps(),
                        s.sampleIntervalSteps(), integrity(start, t), true, outDir.resolve(name + "-" + who + "-nve.csv")),
                        state0, progress);
                progress.phase(name + ": " + who + " NVT");
                RunOutcome nvt = ProductionRun.run(new RunSpec(who + " NVT", RunPhase.PRODUCTION, role, Ensemble.NVT,
                        m.forceField(), m.info().precision(),
                        new VelocityVerlet(dt, Thermostats.create(s.thermostat(), targetK, s.thermostatTimeConstantFs())),
                        REMOVED_CONSTRAINTS, s.seed() + 1, null, s.nvtSteps(), s.sampleIntervalSteps(), integrity(start, t),
                        role == ModelRole.OPTIMISED, outDir.resolve(name + "-" + who + "-nvt.csv")), state0, progress);
                outcomes.add(nve);
                outcomes.add(nvt);
                if (role == ModelRole.OPTIMISED) {
                    optNve = nve;
                    optNvt = nvt;
                } else {
                    baseNve = nve;
                    baseNvt = nvt;
                }
            }
        } else {
            warnings.add(name + ": equilibration blew up; no production runs were done");
            progress.advance(2 * (s.nveSteps() + s.nvtSteps()));
        }

        List<RunReport> runs = new ArrayList<>();
        List<CriterionResult> criteria = new ArrayList<>();
        for (RunOutcome o : outcomes) {
            RunReport r = RunAnalysis.analyse(o, targetK, n);
            runs.add(r);
            criteria.addAll(Criteria.forRun(name, r, t, s.thermostat().canonical()));
        }
        BaselineComparison comparison = null;
        if (optNve != null && baseNve != null) {
            comparison = compare(state0, optimised, baseline, optNve, optNvt, baseNve, runs, dt);
            criteria.add(Criteria.forComparison(name, comparison, t));
        }
        List<String> plots = new ArrayList<>();
        if (optNve != null) {
            plot(plots, outDir, name, "nve", optNve, baseNve, n, Double.NaN, t.maxDriftFor(optimised.info().precision()), warnings);
            plot(plots, outDir, name, "nvt", optNvt, baseNvt, n, targetK, Double.NaN, warnings);
            if (comparison != null) {
                String file = name + "-divergence.png";
                try {
                    EnergyPlots.writeDivergence(outDir.resolve(file), name, comparison.divergence());
                    plots.add(file);
                } catch (IOException | RuntimeException | Error e) {
                    rethrowFatal(e);
                    plotWarning(warnings, file, e);
                }
            }
        }
        boolean passed = criteria.stream().allMatch(CriterionResult::passed);
        return new SystemReport(name, start.formula(), n, start.cell().isPresent(), runs, comparison, criteria, plots, passed);
    }

    private static StructuralIntegrity integrity(Atoms start, Thresholds t) {
        return StructuralIntegrity.of(start, t.maxBondStretchRatio(), t.escapeMarginA(), t.overlapLimitA());
    }

    private static BaselineComparison compare(Atoms state0, ModelProvider.Model optimised, ModelProvider.Model baseline,
                                              RunOutcome optNve, RunOutcome optNvt, RunOutcome baseNve, List<RunReport> runs,
                                              double dt) {
        ForceAgreement agreement = new ForceAgreement();
        int skipped = 0;
        String skipReason = null;
        Atoms probe = state0.copy();
        double[] fa = new double[3 * probe.size()];
        double[] fb = new double[3 * probe.size()];
        for (RunOutcome o : new RunOutcome[] {optNve, optNvt}) {
            List<double[]> frames = o.frames();
            int stride = Math.max(1, (frames.size() + MAX_COMPARISON_FRAMES_PER_RUN - 1) / MAX_COMPARISON_FRAMES_PER_RUN);
            for (int i = 0; i < frames.size(); i += stride) {
                System.arraycopy(frames.get(i), 0, probe.positions(), 0, fa.length);
                try {
                    double ea = optimised.forceField().energyAndForces(probe, fa);
                    double eb = baseline.forceField().energyAndForces(probe, fb);
                    agreement.add(ea, fa, eb, fb);
                } catch (IllegalArgumentException | IllegalStateException e) {
                    // A frame one model refuses (a broken structure late in a failing run) is
                    // counted and named, not fatal: the run's own criteria already fail.
                    skipped++;
                    if (skipReason == null) {
                        skipReason = o.spec().label() + " step " + o.frameSteps().get(i) + ": " + e.getMessage();
                    }
                }
            }
        }
        List<BaselineComparison.RmsdPoint> divergence = new ArrayList<>();
        int common = Math.min(optNve.frames().size(), baseNve.frames().size());
        double maxRmsd = 0;
        Double divergedAt = null;
        for (int i = 0; i < common; i++) {
            double r = TrajectoryRmsd.rmsdA(optNve.frames().get(i), baseNve.frames().get(i), state0.cellOrNull());
            double time = optNve.frameSteps().get(i) * dt;
            divergence.add(new BaselineComparison.RmsdPoint(time, r));
            maxRmsd = Math.max(maxRmsd, r);
            if (divergedAt == null && r > BaselineComparison.DIVERGENCE_RMSD_A) {
                divergedAt = time;
            }
        }
        double finalRmsd = divergence.isEmpty() ? Double.NaN : divergence.get(divergence.size() - 1).rmsdA();
        double optDrift = driftOf(runs, optNve);
        double baseDrift = driftOf(runs, baseNve);
        return new BaselineComparison(optimised.forceField().name(), baseline.forceField().name(), agreement.result(),
                skipped, skipReason, thin(divergence), finalRmsd, maxRmsd, divergedAt, optDrift, baseDrift);
    }

    private static double driftOf(List<RunReport> runs, RunOutcome o) {
        return runs.stream().filter(r -> r.label().equals(o.spec().label()) && r.energy() != null)
                .mapToDouble(r -> r.energy().driftMeVPerAtomPerPs()).findFirst().orElse(Double.NaN);
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

    /** One warning for a machine that cannot draw (the same for every plot), one per other failed plot. */
    private static void plotWarning(List<String> warnings, String file, Throwable e) {
        String w = e instanceof org.molten.validation.plots.PlotsUnavailableException ? e.getMessage()
                : "plot " + file + " could not be drawn: " + e;
        if (!warnings.contains(w)) {
            warnings.add(w);
        }
    }

    private static void plot(List<String> plots, Path outDir, String name, String ensemble, RunOutcome optimised,
                             RunOutcome baseline, int atoms, double targetK, double maxDriftMeVPerAtomPerPs,
                             List<String> warnings) {
        if (optimised == null) {
            return;
        }
        String file = name + "-" + ensemble + ".png";
        List<EnergyPlots.Curve> curves = new ArrayList<>();
        curves.add(new EnergyPlots.Curve("optimised", optimised.series()));
        if (baseline != null) {
            curves.add(new EnergyPlots.Curve("baseline", baseline.series()));
        }
        try {
            EnergyPlots.writeEnergies(outDir.resolve(file), name + " " + ensemble.toUpperCase(Locale.ROOT), curves, atoms, targetK,
                    maxDriftMeVPerAtomPerPs);
            plots.add(file);
        } catch (IOException | RuntimeException | Error e) {
            // A missing font, display library or java.desktop module must not cost the validation its numbers.
            rethrowFatal(e);
            plotWarning(warnings, file, e);
        }
    }

    /** Out of memory and the like are not plotting problems. */
    private static void rethrowFatal(Throwable e) {
        if (e instanceof VirtualMachineError v) {
            throw v;
        }
    }
}
