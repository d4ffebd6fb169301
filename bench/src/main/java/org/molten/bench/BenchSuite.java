package org.molten.bench;

import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;
import org.molten.core.Units;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.forcefield.cuda.CudaMdEngine;
import org.molten.forcefield.cuda.GpuAvailability;
import org.molten.forcefield.student.Nd4jSupport;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;
import org.molten.integrators.Simulation;
import org.molten.integrators.VelocityVerlet;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * The benchmark suite behind {@code molten bench}: for every system size and configuration
 * (CPU paths, the TorchScript baseline, the CUDA paths), latency per energy+forces call and per
 * velocity-Verlet MD step after warm-up, throughput, peak memory, and the force and energy
 * difference from the float64 reference on the same positions, so that no speed is reported for
 * a wrong answer. Every timed call computes from new positions (a perturbed geometry, or the
 * next MD step) and {@link FreshInputGuard} proves it did. A configuration that cannot run here
 * (no GPU, no native library, a periodic box for a non-periodic model) is reported as skipped;
 * one that throws, returns cached answers or blows up is reported as failed, with the reason.
 */
public final class BenchSuite {
    /** Time step of the timed MD steps and of the ns/day figures, fs. */
    public static final double MD_DT_FS = 0.5;
    /** Fewest timed calls per measurement, whatever the time budget. */
    public static final int MIN_SAMPLES = 3;
    /** Above this many atoms the accuracy reference is the optimised float64 path (Java loops), not the all-pairs reference. */
    public static final int DEFAULT_REFERENCE_MAX_ATOMS = 200;

    /**
     * What to run.
     *
     * @param sizes             size tokens (see {@link BenchSystems#forToken})
     * @param cpu               run the CPU configurations
     * @param cuda              run the CUDA configurations (skipped with a reason when no GPU)
     * @param repeats           timed calls (MD steps; CUDA device samples) per measurement
     * @param timeBudgetS       timed seconds per measurement after which it stops (at least {@value #MIN_SAMPLES} calls)
     * @param warmupS           warm-up seconds per measurement (at least one call)
     * @param seed              seed of systems, velocities and perturbations
     * @param perturbationA     RMS displacement per coordinate of each energy+forces call, Å
     * @param temperatureK      initial Maxwell-Boltzmann temperature of the MD runs, K
     * @param referenceMaxAtoms largest size timed and used as the oracle with the all-pairs reference
     */
    public record Settings(List<String> sizes, boolean cpu, boolean cuda, int repeats, double timeBudgetS, double warmupS,
                           long seed, double perturbationA, double temperatureK, int referenceMaxAtoms) {
    }

    private final StudentWeights weights;
    private final Settings s;
    private final PrintStream log;
    private final IntFunction<List<SuiteConfig>> cpuConfigs;
    private final IntFunction<List<SuiteConfig>> cudaConfigs;

    /** The suite with the default configurations. */
    public BenchSuite(StudentWeights weights, Settings settings, PrintStream log) {
        this(weights, settings, log, n -> SuiteConfig.cpuConfigs(n, settings.referenceMaxAtoms()), n -> SuiteConfig.cudaConfigs());
    }

    /** The suite with given configurations per size (tests inject fakes here). */
    public BenchSuite(StudentWeights weights, Settings settings, PrintStream log,
                      IntFunction<List<SuiteConfig>> cpuConfigs, IntFunction<List<SuiteConfig>> cudaConfigs) {
        if (settings.repeats() < 1) {
            throw new IllegalArgumentException("repeats must be at least 1: " + settings.repeats());
        }
        this.weights = weights;
        this.s = settings;
        this.log = log;
        this.cpuConfigs = cpuConfigs;
        this.cudaConfigs = cudaConfigs;
    }

    /** Runs every size and configuration. */
    public List<ConfigResult> run() {
        return run(done -> { });
    }

    /**
     * Runs every size and configuration; {@code afterEachSize} sees the results so far after each
     * size (the command line rewrites its JSON then, so an interrupted run keeps what it measured).
     */
    public List<ConfigResult> run(java.util.function.Consumer<List<ConfigResult>> afterEachSize) {
        String gpuMissing = null;
        if (s.cuda()) {
            GpuAvailability.Probe p = GpuAvailability.probe();
            if (!p.available()) {
                gpuMissing = "no usable GPU: " + p.reason();
                log.println("warning: --device cuda asked for, but " + gpuMissing + "; the CUDA configurations are reported as skipped");
            }
        }
        List<ConfigResult> out = new ArrayList<>();
        for (String token : s.sizes()) {
            BenchSystems.Named sys = BenchSystems.forToken(token, s.seed());
            int n = sys.atoms().size();
            boolean periodic = sys.atoms().cellOrNull() != null && sys.atoms().cellOrNull().anyPeriodic();
            log.printf(Locale.ROOT, "%d atoms (%s), load average %s%n", n, sys.description(), MachineInfo.loadAverage());
            ReferenceOracle oracle = new ReferenceOracle(weights, n <= s.referenceMaxAtoms());
            try {
                List<SuiteConfig> configs = new ArrayList<>();
                if (s.cpu()) {
                    configs.addAll(cpuConfigs.apply(n));
                }
                if (s.cuda()) {
                    configs.addAll(cudaConfigs.apply(n));
                }
                for (SuiteConfig c : configs) {
                    ConfigResult r;
                    if (c.device().equals("cuda") && gpuMissing != null) {
                        r = ConfigResult.notRun(c.device(), c.id(), c.precision(), n, sys.description(), periodic,
                                ConfigResult.Status.skipped, gpuMissing);
                    } else if (periodic && !c.periodicOk()) {
                        r = ConfigResult.notRun(c.device(), c.id(), c.precision(), n, sys.description(), periodic,
                                ConfigResult.Status.skipped, "no periodic support (non-periodic systems only)");
                    } else {
                        r = runOne(c, sys, periodic, oracle);
                    }
                    out.add(r);
                    log.println("  " + SuiteReport.oneLine(r));
                }
            } finally {
                oracle.close();
            }
            String ratios = SuiteReport.ratioLine(out.subList(out.size() - sizeCount(out, n), out.size()));
            if (!ratios.isEmpty()) {
                log.println("  " + ratios);
            }
            afterEachSize.accept(List.copyOf(out));
        }
        return out;
    }

    /** How many results at the end of {@code out} belong to the size of {@code n} atoms. */
    private static int sizeCount(List<ConfigResult> out, int n) {
        int k = 0;
        for (int i = out.size() - 1; i >= 0 && out.get(i).atoms() == n; i--) {
            k++;
        }
        return k;
    }

    private ConfigResult runOne(SuiteConfig c, BenchSystems.Named sys, boolean periodic, ReferenceOracle oracle) {
        int n = sys.atoms().size();
        HostMemory.resetPeaks();
        try {
            Measurement m = c.kind() == SuiteConfig.Kind.DEVICE_MD ? deviceMd(c, sys.atoms()) : hostDriven(c, sys.atoms());
            double peakHeap = HostMemory.peakHeapMiB();   // before the accuracy check, whose oracle allocates too
            ReferenceOracle.Comparison acc = oracle.compare(m.state, m.energyEv, m.forces, c.precision());
            Double sps = null, asps = null, nsd = null;
            if (m.md != null) {
                sps = 1e6 / m.md.medianUs();
                asps = sps * n;
                nsd = Units.nsPerDay(MD_DT_FS, sps);
            }
            ConfigResult.Status st = ConfigResult.Status.ok;
            String reason = "";
            if (!(acc.forceRmseEvPerA() <= acc.boundEvPerA())) {
                st = ConfigResult.Status.failed;
                reason = String.format(Locale.ROOT, "force RMSE %.3e eV/Å vs %s exceeds the %s bound %.3e eV/Å",
                        acc.forceRmseEvPerA(), acc.reference(), c.precision(), acc.boundEvPerA());
            }
            return new ConfigResult(c.device(), c.id(), c.precision(), n, sys.description(), periodic, st, reason,
                    m.ef, m.md, sps, asps, nsd, peakHeap, m.heapKbPerAtom, m.deviceMemMiB, acc.reference(),
                    acc.energyDiffEv(), acc.forceRmseEvPerA(), acc.referenceRmsEvPerA(), acc.boundEvPerA(), m.freshCalls);
        } catch (StaleResultException e) {
            return ConfigResult.notRun(c.device(), c.id(), c.precision(), n, sys.description(), periodic,
                    ConfigResult.Status.failed, "no-cache check failed: " + e.getMessage());
        } catch (Throwable e) {
            String missing = MissingNative.describe(e);
            if (missing != null) {
                return ConfigResult.notRun(c.device(), c.id(), c.precision(), n, sys.description(), periodic,
                        ConfigResult.Status.skipped, missing);
            }
            if (e instanceof Error err && !(err instanceof StackOverflowError)) {
                throw err;
            }
            return ConfigResult.notRun(c.device(), c.id(), c.precision(), n, sys.description(), periodic,
                    ConfigResult.Status.failed, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /** What one configuration measured; positions/energy/forces are one state for the accuracy check. */
    private static final class Measurement {
        SampleStats ef;
        SampleStats md;
        Atoms state;
        double energyEv;
        double[] forces;
        Double deviceMemMiB;
        Double heapKbPerAtom;
        long freshCalls;
    }

    private Measurement hostDriven(SuiteConfig c, Atoms system) throws Exception {
        int n = system.size();
        Measurement m = new Measurement();
        long heapBefore = HostMemory.usedAfterGcBytes();
        try (ForceField ff = c.factory().create(weights)) {
            Atoms atoms = system.copy();
            double[] base = atoms.positions().clone();
            double[] f = new double[3 * n];
            RandomStream rng = new RandomStream(s.seed() ^ (0x9E3779B97F4A7C15L * n));
            // energy + forces on freshly perturbed positions
            long end = System.nanoTime() + (long) (s.warmupS() * 1e9);
            do {
                perturb(atoms, base, rng, s.perturbationA());
                ff.energyAndForces(atoms, f);
            } while (System.nanoTime() < end);
            if (c.id().endsWith("-nd4j") && !(ff instanceof OptimisedStudent o && o.lastCallUsedNd4j())) {
                // the optimised path falls back to loops when ND4J cannot load: timing that as "nd4j" would mislead
                throw new MissingNative.Skip("ND4J not in use here: " + Nd4jSupport.status());
            }
            FreshInputGuard guard = new FreshInputGuard(c.id() + ", " + n + " atoms, energy+forces");
            double[] us = new double[s.repeats()];
            int k = 0;
            long budget = (long) (s.timeBudgetS() * 1e9), spent = 0;
            double e = 0;
            while (k < s.repeats() && (k < MIN_SAMPLES || spent < budget)) {
                perturb(atoms, base, rng, s.perturbationA());
                long t0 = System.nanoTime();
                e = ff.energyAndForces(atoms, f);
                long dt = System.nanoTime() - t0;
                guard.record(atoms.positions(), e, f);
                us[k++] = dt / 1e3;
                spent += dt;
            }
            m.ef = SampleStats.of(us, k);
            m.state = atoms.copy();
            m.energyEv = e;
            m.forces = f.clone();
            // MD steps as users run them: Simulation.step on the host platform with velocity Verlet (no
            // thermostat, no reporters; the blow-up guard, which has no off switch, checks every step), from
            // the base positions and Maxwell-Boltzmann velocities.
            Atoms md = system.copy();
            maxwellBoltzmann(md, s.temperatureK(), new RandomStream(s.seed() + n));
            FreshInputGuard mdGuard = new FreshInputGuard(c.id() + ", " + n + " atoms, MD step");
            k = 0;
            spent = 0;
            try (Simulation sim = Simulation.builder(md, ff, new VelocityVerlet(MD_DT_FS)).platform("cpu").build()) {
                end = System.nanoTime() + (long) (s.warmupS() * 1e9);
                do {
                    sim.step(1);
                } while (System.nanoTime() < end);
                while (k < s.repeats() && (k < MIN_SAMPLES || spent < budget)) {
                    long t0 = System.nanoTime();
                    sim.step(1);
                    long dt = System.nanoTime() - t0;
                    mdGuard.record(md.positions(), sim.potentialEnergyEv(), sim.forces());
                    us[k++] = dt / 1e3;
                    spent += dt;
                }
            }
            m.md = SampleStats.of(us, k);
            m.deviceMemMiB = c.device().equals("cuda") ? DeviceMemory.usedMiB() : null;
            m.freshCalls = guard.calls() + mdGuard.calls();
            // the model is alive and has evaluated this system: what it keeps (plus the few arrays of this loop)
            m.heapKbPerAtom = (HostMemory.usedAfterGcBytes() - heapBefore) / 1024.0 / n;
        }
        return m;
    }

    private Measurement deviceMd(SuiteConfig c, Atoms system) {
        int n = system.size();
        Measurement m = new Measurement();
        Atoms start = system.copy();
        maxwellBoltzmann(start, s.temperatureK(), new RandomStream(s.seed() + n));
        try (CudaMdEngine md = CudaMdEngine.single(weights, start.copy(), new DynamicsSpec.VelocityVerlet(MD_DT_FS), 0, c.cuda())) {
            long end = System.nanoTime() + (long) (s.warmupS() * 1e9);
            do {
                md.runSteps(c.cuda().stepsPerLaunch());
            } while (System.nanoTime() < end);
            Atoms before = start.copy();
            double e0 = md.fetchState(before);
            FreshInputGuard guard = new FreshInputGuard(c.id() + ", " + n + " atoms, device MD samples");
            guard.record(before.positions(), e0, null);
            long steps0 = md.stepsDone();
            int samples = Math.max(MIN_SAMPLES, s.repeats());
            double[] us = md.timeSteps(samples, 1);
            Atoms after = start.copy();
            double e1 = md.fetchState(after);
            guard.record(after.positions(), e1, null);
            if (md.stepsDone() - steps0 < (long) samples * c.cuda().stepsPerLaunch()) {
                throw new StaleResultException(c.id() + ": the engine reports " + (md.stepsDone() - steps0)
                        + " steps for " + samples + " timed samples");
            }
            m.md = SampleStats.of(us, us.length);
            m.state = after;
            m.energyEv = e1;
            m.forces = md.forces();
            m.deviceMemMiB = DeviceMemory.usedMiB();
            m.freshCalls = md.stepsDone() - steps0;
        }
        return m;
    }

    /** positions = base + N(0, amplitude²) per coordinate (fresh noise each call). */
    static void perturb(Atoms atoms, double[] base, RandomStream rng, double amplitudeA) {
        double[] r = atoms.positions();
        for (int k = 0; k < r.length; k++) {
            r[k] = base[k] + amplitudeA * rng.nextGaussian();
        }
    }

    /** Maxwell-Boltzmann velocities (Å/fs) at {@code temperatureK}, centre-of-mass motion removed. */
    static void maxwellBoltzmann(Atoms atoms, double temperatureK, RandomStream rng) {
        double[] v = atoms.velocities();
        double[] p = new double[3];
        double mt = 0;
        for (int i = 0; i < atoms.size(); i++) {
            double m = atoms.massAmu(i);
            double sigma = Math.sqrt(Units.BOLTZMANN_EV_PER_K * temperatureK / m * Units.ACCEL_A_PER_FS2);
            for (int d = 0; d < 3; d++) {
                v[3 * i + d] = sigma * rng.nextGaussian();
                p[d] += m * v[3 * i + d];
            }
            mt += m;
        }
        for (int i = 0; i < atoms.size(); i++) {
            for (int d = 0; d < 3; d++) {
                v[3 * i + d] -= p[d] / mt;
            }
        }
    }

    /** The accuracy oracle of one size: the all-pairs float64 reference, or the optimised float64 path (loops) for large systems. */
    static final class ReferenceOracle implements AutoCloseable {
        private final ForceField ff;
        private final String name;

        record Comparison(String reference, double energyDiffEv, double forceRmseEvPerA, double referenceRmsEvPerA,
                          double boundEvPerA) {
        }

        ReferenceOracle(StudentWeights w, boolean allPairs) {
            if (allPairs) {
                ff = new ReferenceStudent(w);
                name = "reference (float64, all pairs)";
            } else {
                ff = new OptimisedStudent(w, OptimisedStudent.Options.defaults()
                        .withDense(OptimisedStudent.DenseBackend.LOOPS));
                name = "optimised float64 (loops; reference too slow at this size)";
            }
        }

        /** Energy difference and force RMSE of (energyEv, forces) against the oracle at {@code state}'s positions. */
        Comparison compare(Atoms state, double energyEv, double[] forces, Precision p) {
            double[] ref = new double[forces.length];
            double eRef = ff.energyAndForces(state.copy(), ref);
            double se = 0, sr = 0;
            for (int k = 0; k < ref.length; k++) {
                double d = forces[k] - ref[k];
                se += d * d;
                sr += ref[k] * ref[k];
            }
            double rmse = Math.sqrt(se / ref.length);
            double rms = Math.sqrt(sr / ref.length);
            // a relative bound, with a floor for near-equilibrium geometries whose forces are tiny
            double bound = p.relativeForceBound * Math.max(rms, 1.0);
            return new Comparison(name, Math.abs(energyEv - eRef), rmse, rms, bound);
        }

        @Override
        public void close() {
            ff.close();
        }
    }
}
