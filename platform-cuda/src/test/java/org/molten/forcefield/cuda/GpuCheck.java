package org.molten.forcefield.cuda;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.molten.core.Atoms;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.Observables;
import org.molten.core.RandomStream;
import org.molten.core.Units;
import org.molten.forcefield.safetensors.Dtype;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.WaterBox;

/**
 * The GPU check and benchmark run on the device machine (scripts/gpu-check.sh; a test-source tool, not part of
 * the jar: scripts/gpu-bundle.sh packs the test classes for the device): correctness of
 * every execution mode against the reference student on freshly perturbed structures, 1,000-step
 * NVE trajectories against a CPU velocity Verlet, the energy drift with float64 versus float32
 * positions and velocities, and the time per MD step of each mode with and without graphs. It also
 * writes the weights and structures (and the GPU forces) for the PyTorch comparison script.
 *
 * <pre>GpuCheck OUT_DIR [quick] [only=ethanol,water-201] [sections=correctness,nve,drift,thermostats,timing,profile,groups]</pre>
 * ({@code only=water-30000} adds a 30,000-atom water box, which is never in the default set.)
 * Prints a summary table last; the full log goes to OUT_DIR/gpu-check.log. The system property
 * {@code molten.gpucheck.modes} (e.g. {@code molecule}) restricts the timing section to those variants.
 */
public final class GpuCheck {
    private final Path out;
    private final boolean quick;
    private java.util.Set<String> only;
    private java.util.Set<String> sections;
    private final PrintStream log;
    private final List<String> table = new ArrayList<>();
    private final long seed = System.nanoTime();
    private final StudentWeights weights = StudentWeights.random(20261121L);
    private int failures;

    private GpuCheck(Path out, boolean quick) throws IOException {
        this.out = out;
        this.quick = quick;
        Files.createDirectories(out);
        PrintStream file = new PrintStream(Files.newOutputStream(out.resolve("gpu-check.log")), true,
                StandardCharsets.UTF_8);
        this.log = new PrintStream(new TeeStream(System.out, file), true, StandardCharsets.UTF_8);
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("cpuref")) {
            writeCpuReference(Path.of(args[1]));
            return;
        }
        Path out = Path.of(args.length > 0 ? args[0] : "gpu-check-out");
        boolean quick = false;
        java.util.Set<String> only = null;
        java.util.Set<String> sections = null;
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("quick")) {
                quick = true;
            } else if (args[i].startsWith("only=")) {
                only = java.util.Set.of(args[i].substring(5).split(","));
            } else if (args[i].startsWith("sections=")) {
                sections = java.util.Set.of(args[i].substring(9).split(","));
            } else {
                throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        GpuCheck c = new GpuCheck(out, quick);
        c.only = only;
        c.sections = sections;
        int status = c.run();
        System.exit(status);
    }

    private int run() throws Exception {
        log.printf(Locale.ROOT, "molten GPU check, seed %d, java %s%n", seed, System.getProperty("java.version"));
        long t0 = System.nanoTime();
        GpuAvailability.Probe p = GpuAvailability.probe();
        log.printf(Locale.ROOT, "probe: available=%s device=%s reason=%s (%.1f s incl. PTX load)%n", p.available(),
                p.device(), p.reason(), (System.nanoTime() - t0) * 1e-9);
        log.printf("kernels sources-sha256 %s; %s%n", KernelImage.recordedSourceHash(), KernelImage.describe());
        if (!p.available()) {
            log.println("no GPU: nothing to check");
            return 2;
        }
        Map<String, Atoms> systems = systems();
        writeTorchInputs(systems);
        section("correctness", () -> correctness(systems));
        section("nve", () -> nveAgainstCpu(systems));
        section("drift", () -> drift(systems));
        section("thermostats", () -> thermostats(systems));
        section("timing", () -> timing(systems));
        section("profile", () -> profile(systems));
        section("groups", this::groups);
        log.println();
        log.println(GpuStatus.snapshot().describe());
        log.println("==== summary ====");
        for (String line : table) {
            log.println(line);
        }
        log.printf(Locale.ROOT, "failures: %d%n", failures);
        return failures == 0 ? 0 : 1;
    }

    /**
     * The replica force paths of issue 29 section 3 (GroupCheck): the group kernel with SIMT and with tensor-core dense
     * products, and the stage kernels, each on 64 ethanols and 16 alanine dipeptides against the reference student.
     */
    private void groups() {
        int f = GroupCheck.run(weights, quick ? 8 : 64, quick ? 4 : 16, log);
        failures += f;
        table.add("groups (group-simt, group-tc, stages vs reference): " + (f == 0 ? "ok" : f + " FAILED"));
    }

    interface Section {
        void run() throws Exception;
    }

    private void section(String name, Section s) {
        if (sections != null && !sections.contains(name)) {
            return;
        }
        log.printf("%n==== %s ====%n", name);
        long t = System.nanoTime();
        try {
            s.run();
        } catch (Throwable e) {
            failures++;
            log.println("SECTION " + name + " FAILED: " + e);
            e.printStackTrace(log);
            table.add(name + ": FAILED " + e);
        }
        log.printf(Locale.ROOT, "(%s took %.1f s)%n", name, (System.nanoTime() - t) * 1e-9);
    }

    /** The benchmark systems, with Maxwell-Boltzmann velocities at 300 K (seeded). */
    private Map<String, Atoms> systems() {
        Map<String, Atoms> m = new LinkedHashMap<>();
        m.put("ethanol", thermalise(BuiltInMolecules.load("ethanol"), 1));
        m.put("alanine-dipeptide", thermalise(BuiltInMolecules.load("alanine-dipeptide"), 2));
        m.put("water-201", thermalise(WaterBox.forAtomCount(200, 3), 3));
        if (!quick) {
            m.put("water-3000", thermalise(WaterBox.forAtomCount(3000, 4), 4));
        }
        if (only != null && only.contains("water-30000")) {   // only when named: its CPU checks take minutes
            m.put("water-30000", thermalise(WaterBox.forAtomCount(30000, 5), 5));
        }
        if (only != null) {
            m.keySet().retainAll(only);
        }
        return m;
    }

    static Atoms thermalise(Atoms a, long s) {
        RandomStream rng = new RandomStream(s);
        double kT = Units.BOLTZMANN_EV_PER_K * 300;
        double[] v = a.velocities();
        double[] p = new double[3];
        for (int i = 0; i < a.size(); i++) {
            double sig = Math.sqrt(kT * Units.ACCEL_A_PER_FS2 / a.massAmu(i));
            for (int k = 0; k < 3; k++) {
                v[3 * i + k] = sig * rng.nextGaussian();
                p[k] += a.massAmu(i) * v[3 * i + k];
            }
        }
        for (int i = 0; i < a.size(); i++) {
            for (int k = 0; k < 3; k++) {
                v[3 * i + k] -= p[k] / a.totalMassAmu();
            }
        }
        return a;
    }

    /** A copy displaced by Gaussian noise (0.05 Å): fresh random inputs for every run. */
    private Atoms perturbed(Atoms a, long s) {
        Atoms b = a.copy();
        RandomStream rng = new RandomStream(seed ^ s);
        double[] r = b.positions();
        for (int i = 0; i < r.length; i++) {
            r[i] += 0.05 * rng.nextGaussian();
        }
        return b;
    }

    // ------------------------------------------------------------------ correctness

    /**
     * Every variant against the reference student; above 1,000 atoms (where the reference needs
     * minutes) against the optimised CPU student in float64 (equal to the reference to ~1e-12,
     * tested in its own module), and independently against the PyTorch float64 oracle.
     */
    private void correctness(Map<String, Atoms> systems) {
        ReferenceStudent ref = new ReferenceStudent(weights);
        OptimisedStudent fast = new OptimisedStudent(weights, OptimisedStudent.Options.defaults()
                .withDense(OptimisedStudent.DenseBackend.LOOPS).withThreads(8));
        int idx = 0;
        for (Map.Entry<String, Atoms> e : systems.entrySet()) {
            Atoms a = perturbed(e.getValue(), ++idx);
            int n = a.size();
            double[] fr = new double[3 * n];
            double[] ei = new double[n];
            String against = n <= 1000 ? "reference" : "optimised";
            long t0 = System.nanoTime();
            double er = (n <= 1000 ? ref : fast).energyAndForces(a, fr, ei);
            double escale = 0;  // float32 rounding of a sum scales with the summed magnitudes
            for (double x : ei) {
                escale += Math.abs(x);
            }
            log.printf(Locale.ROOT, "%s: %s CPU student E = %.6f eV (%.1f s)%n", e.getKey(), against, er,
                    (System.nanoTime() - t0) * 1e-9);
            for (Variant v : variants(n)) {
                try (CudaStudent gpu = new CudaStudent(weights, v.options)) {
                    double[] fg = new double[3 * n];
                    long t = System.nanoTime();
                    double eg = gpu.energyAndForcesInMode(a, fg, v.mode);
                    double first = (System.nanoTime() - t) * 1e-9;
                    if (v.name.equals("auto")) {
                        writeForces(e.getKey(), a, fg, eg);
                    }
                    double ferr = relErr(fg, fr);
                    double eerr = Math.abs(eg - er) / escale;
                    boolean ok = ferr <= 1e-5 && eerr <= 1e-6;
                    failures += ok ? 0 : 1;
                    String line = String.format(Locale.ROOT,
                            "check %-18s %-22s vs %-9s F rel err %.2e  E rel err %.2e  %s  (first call %.2f s)",
                            e.getKey(), v.name + " [" + gpu.mode() + "]", against, ferr, eerr, ok ? "ok" : "FAIL", first);
                    log.println(line);
                    table.add(line);
                } catch (RuntimeException ex) {
                    failures++;
                    String line = String.format("check %-18s %-22s ERROR %s", e.getKey(), v.name, ex);
                    log.println(line);
                    ex.printStackTrace(log);
                    table.add(line);
                }
            }
        }
        fast.close();
    }

    record Variant(String name, CudaOptions.Mode mode, CudaOptions options) {
    }

    private List<Variant> variants(int n) {
        CudaOptions d = CudaOptions.defaults();
        List<Variant> v = new ArrayList<>();
        v.add(new Variant("auto", null, d));
        if (n <= CudaOptions.MOLECULE_ATOMS) {
            v.add(new Variant("molecule", CudaOptions.Mode.MOLECULE, d));
        }
        if (n <= 1000) {
            v.add(new Variant("stages-warp", CudaOptions.Mode.STAGES, d.withLargeSystemAtoms(1 << 30)));
        }
        v.add(new Variant("stages-tiled", CudaOptions.Mode.STAGES, d.withLargeSystemAtoms(1)));
        if (n >= 1000) {
            v.add(new Variant("stages-tiled-allpairs", CudaOptions.Mode.STAGES,
                    d.withLargeSystemAtoms(1).withCellListAtoms(1 << 30)));
        }
        return v;
    }

    static double relErr(double[] a, double[] b) {
        double num = 0, den = 0;
        for (int i = 0; i < a.length; i++) {
            num += (a[i] - b[i]) * (a[i] - b[i]);
            den += b[i] * b[i];
        }
        return Math.sqrt(num / den);
    }

    // ------------------------------------------------------------------ NVE vs CPU

    static final int NVE_STEPS = 1000;
    static final double NVE_DT = 0.5;
    static final String[] NVE_SYSTEMS = {"ethanol", "alanine-dipeptide"};

    /**
     * The CPU velocity-Verlet trajectories (reference student, float64) of the NVE check, written
     * ahead of the device run because the reference student needs ~0.1 s per force evaluation:
     * one line per step, "step epot_eV ekin_eV x0 y0 z0 ...".
     */
    static void writeCpuReference(Path dir) throws IOException {
        Files.createDirectories(dir);
        StudentWeights w = StudentWeights.random(20261121L);
        Map<String, Atoms> sys = new LinkedHashMap<>();
        sys.put("ethanol", thermalise(BuiltInMolecules.load("ethanol"), 1));
        sys.put("alanine-dipeptide", thermalise(BuiltInMolecules.load("alanine-dipeptide"), 2));
        for (String name : NVE_SYSTEMS) {
            Atoms a = sys.get(name).copy();
            ReferenceStudent ref = new ReferenceStudent(w);
            double[] f = new double[3 * a.size()];
            double epot = ref.energyAndForces(a, f);
            StringBuilder sb = new StringBuilder();
            for (int s = 0; s <= NVE_STEPS; s++) {
                if (s > 0) {
                    epot = verletStep(ref, a, f, NVE_DT);
                }
                sb.append(s).append(' ').append(epot).append(' ').append(Observables.kineticEnergyEv(a));
                for (double x : a.positions()) {
                    sb.append(' ').append(x);
                }
                sb.append('\n');
            }
            Files.writeString(dir.resolve(name + ".nve.txt"), sb.toString());
            System.out.println("wrote " + dir.resolve(name + ".nve.txt"));
        }
    }

    private void nveAgainstCpu(Map<String, Atoms> systems) throws IOException {
        Path refDir = Path.of(System.getProperty("molten.gpucheck.ref", "ref"));
        for (String name : NVE_SYSTEMS) {
            Atoms start = systems.get(name);
            Path refFile = refDir.resolve(name + ".nve.txt");
            if (start == null || !Files.exists(refFile)) {
                log.println("nve " + name + ": no CPU reference trajectory at " + refFile + " (GpuCheck cpuref DIR)");
                continue;
            }
            int steps = NVE_STEPS;
            double dt = NVE_DT;
            List<String> lines = Files.readAllLines(refFile);
            String[] first = lines.get(0).trim().split(" ");
            String[] last = lines.get(steps).trim().split(" ");
            double etot0 = Double.parseDouble(first[1]) + Double.parseDouble(first[2]);
            for (int k = 0; k < start.positions().length; k++) {
                if (Double.parseDouble(first[3 + k]) != start.positions()[k]) {
                    throw new IllegalStateException("CPU reference trajectory " + refFile + " starts elsewhere");
                }
            }
            double maxCpuDev = 0;
            for (String l : lines) {
                String[] p = l.trim().split(" ");
                maxCpuDev = Math.max(maxCpuDev, Math.abs(Double.parseDouble(p[1]) + Double.parseDouble(p[2]) - etot0));
            }
            double epot = Double.parseDouble(last[1]);
            Atoms cpu = start.copy();
            for (int k = 0; k < cpu.positions().length; k++) {
                cpu.positions()[k] = Double.parseDouble(last[3 + k]);
            }
            Atoms gpu = start.copy();
            double maxGpuDev = 0;
            double egpu;
            int[] marks = {100, 200, 500, 1000};
            double[] devGpu = new double[marks.length];
            try (CudaMdEngine md = CudaMdEngine.single(weights, start, new DynamicsSpec.VelocityVerlet(dt), 0,
                    CudaOptions.defaults())) {
                double g0 = md.fetchState(gpu) + Observables.kineticEnergyEv(gpu);
                for (int s = 0; s < steps; s += 10) {
                    md.runSteps(10);
                    double et = md.fetchState(gpu) + Observables.kineticEnergyEv(gpu);
                    maxGpuDev = Math.max(maxGpuDev, Math.abs(et - g0));
                    for (int i = 0; i < marks.length; i++) {
                        if (s + 10 == marks[i]) {
                            devGpu[i] = maxDeviation(gpu.positions(), lines.get(marks[i]));
                        }
                    }
                }
                egpu = md.fetchState(gpu);
                log.printf("%s NVE on the GPU in mode %s%n", name, md.mode());
            }
            // the same trajectory with the CPU student in float32: how fast rounding differences grow
            double[] devF32 = new double[marks.length];
            try (OptimisedStudent f32 = new OptimisedStudent(weights, OptimisedStudent.Options.defaults()
                    .withPrecision(OptimisedStudent.Precision.FLOAT32).withDense(OptimisedStudent.DenseBackend.LOOPS))) {
                Atoms c = start.copy();
                double[] f = new double[3 * c.size()];
                f32.energyAndForces(c, f);
                for (int s = 1; s <= steps; s++) {
                    verletStep(f32, c, f, dt);
                    for (int i = 0; i < marks.length; i++) {
                        if (s == marks[i]) {
                            devF32[i] = maxDeviation(c.positions(), lines.get(s));
                        }
                    }
                }
            }
            StringBuilder growth = new StringBuilder();
            for (int i = 0; i < marks.length; i++) {
                growth.append(String.format(Locale.ROOT, " %d:%.1e/%.1e", marks[i], devGpu[i], devF32[i]));
            }
            boolean ok = devGpu[0] < 1e-4 && maxGpuDev <= 2 * maxCpuDev + 1e-3;
            failures += ok ? 0 : 1;
            String line = String.format(Locale.ROOT,
                    "nve   %-18s %d steps dt %.1f fs: max|r - r_cpu64| Å at step (gpu/cpu-float32):%s; "
                            + "Epot gpu-cpu %.1e eV; max|Etot-Etot0| gpu %.2e cpu %.2e eV  %s",
                    name, steps, dt, growth, egpu - epot, maxGpuDev, maxCpuDev, ok ? "ok" : "FAIL");
            log.println(line);
            table.add(line);
        }
    }

    private static double maxDeviation(double[] r, String refLine) {
        String[] p = refLine.trim().split(" ");
        double m = 0;
        for (int k = 0; k < r.length; k++) {
            m = Math.max(m, Math.abs(r[k] - Double.parseDouble(p[3 + k])));
        }
        return m;
    }

    static double verletStep(org.molten.core.ForceField ref, Atoms a, double[] f, double dt) {
        double[] r = a.positions();
        double[] v = a.velocities();
        for (int i = 0; i < r.length; i++) {
            v[i] += 0.5 * dt * f[i] / a.massAmu(i / 3) * Units.ACCEL_A_PER_FS2;
            r[i] += dt * v[i];
        }
        double e = ref.energyAndForces(a, f);
        for (int i = 0; i < r.length; i++) {
            v[i] += 0.5 * dt * f[i] / a.massAmu(i / 3) * Units.ACCEL_A_PER_FS2;
        }
        return e;
    }

    // ------------------------------------------------------------------ thermostats in the cluster kernel

    /**
     * Every thermostat in the small-molecule cluster kernel on the card (issue 29), for the molecules it holds:
     * (1) 20 steps against the stage kernels from the same start (the same definitions and random streams: they differ
     * by the float32 force rounding only; ok below 1e-4 Å/fs, Å and eV of bath energy), (2) canonical sampling in the
     * cluster kernel: 2,000 steps to equilibrate, then 20,000 steps (10 ps) sampled every 20: the mean kinetic energy
     * against (3N - 3)/2 kT (ok within 4 %) and per element the mean atomic kinetic energy against
     * (3/2) kT (1 - m/M) (ok within 10 %; Langevin only: Bussi, Berendsen and the chain rescale all atoms alike).
     */
    private void thermostats(Map<String, Atoms> systems) {
        DynamicsSpec[] kinds = {new DynamicsSpec.Langevin(0.5, 300, 0.05, true), new DynamicsSpec.Bussi(0.5, 300, 20),
            new DynamicsSpec.NoseHooverChain(0.5, 300, 20, 3, 1, 3), new DynamicsSpec.Berendsen(0.5, 300, 20)};
        double kT = Units.BOLTZMANN_EV_PER_K * 300;
        for (String name : new String[] {"ethanol", "alanine-dipeptide"}) {
            Atoms start = systems.get(name);
            if (start == null) {
                continue;
            }
            int dof = 3 * start.size() - 3;
            for (DynamicsSpec d : kinds) {
                org.molten.core.dynamics.ReplicaStart rs = new org.molten.core.dynamics.ReplicaStart(start, d, 77, dof);
                Atoms mol = start.copy();
                Atoms stg = start.copy();
                double bm;
                double bs;
                String mode;
                try (CudaMdEngine m = new CudaMdEngine(weights, List.of(rs), CudaOptions.defaults()
                        .withMode(CudaOptions.Mode.MOLECULE).withStepsPerLaunch(10));
                     CudaMdEngine s = new CudaMdEngine(weights, List.of(rs), CudaOptions.defaults()
                             .withMode(CudaOptions.Mode.STAGES).withStepsPerLaunch(10))) {
                    m.advance(20);
                    s.advance(20);
                    m.read(0, mol, null);
                    s.read(0, stg, null);
                    bm = m.bathEnergyEv(0);
                    bs = s.bathEnergyEv(0);
                    mode = m.mode();
                }
                double dv = 0;
                double dx = 0;
                for (int i = 0; i < mol.positions().length; i++) {
                    dv = Math.max(dv, Math.abs(mol.velocities()[i] - stg.velocities()[i]));
                    dx = Math.max(dx, Math.abs(mol.positions()[i] - stg.positions()[i]));
                }
                boolean ok = mode.equals("molecule") && dv < 1e-4 && dx < 1e-4 && Math.abs(bm - bs) < 1e-4;
                failures += ok ? 0 : 1;
                String line = String.format(Locale.ROOT, "thermostat %-18s %-26s [%s] vs stages, 20 steps: |dv| %.1e A/fs"
                        + " |dx| %.1e A, bath %.6f vs %.6f eV  %s", name, d.name(), mode, dv, dx, bm, bs, ok ? "ok" : "FAIL");
                log.println(line);
                table.add(line);
                // canonical sampling in the cluster kernel
                double sum = 0;
                double sumSq = 0;
                int samples = 0;
                double[] elementSum = new double[9];
                int[] elementCount = new int[9];
                Atoms a = start.copy();
                long t = System.nanoTime();
                try (CudaMdEngine m = new CudaMdEngine(weights, List.of(rs), CudaOptions.defaults().withStepsPerLaunch(20))) {
                    m.advance(2000);
                    for (int b = 0; b < 1000; b++) {
                        m.advance(20);
                        m.read(0, a, null);
                        double k = Observables.kineticEnergyEv(a);
                        sum += k;
                        sumSq += k * k;
                        samples++;
                        for (int i = 0; i < a.size(); i++) {
                            double[] v = a.velocities();
                            elementSum[a.atomicNumber(i)] += 0.5 * a.massAmu(i) * (v[3 * i] * v[3 * i] + v[3 * i + 1]
                                    * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]) * Units.MV2_TO_EV;
                            elementCount[a.atomicNumber(i)]++;
                        }
                    }
                }
                double mean = sum / samples;
                double var = sumSq / samples - mean * mean;
                boolean canon = Math.abs(mean - 0.5 * dof * kT) < 0.04 * 0.5 * dof * kT;
                StringBuilder el = new StringBuilder();
                for (int z : new int[] {1, 6, 7, 8}) {
                    if (elementCount[z] == 0) {
                        continue;
                    }
                    double m = org.molten.core.Element.ofAtomicNumber(z).massAmu;
                    double expect = 1.5 * kT * (1 - m / start.totalMassAmu());
                    double got = elementSum[z] / elementCount[z];
                    el.append(String.format(Locale.ROOT, " Z=%d %.5f (%.5f)", z, got, expect));
                    if (d instanceof DynamicsSpec.Langevin) {
                        canon &= Math.abs(got - expect) < 0.10 * expect;
                    }
                }
                failures += canon ? 0 : 1;
                String c = String.format(Locale.ROOT, "canonical %-18s %-26s <K> %.5f eV (%.5f), var K %.2e (%.2e), per"
                        + " atom%s  %s (%.1f s)", name, d.name(), mean, 0.5 * dof * kT, var, 0.5 * dof * kT * kT, el,
                        canon ? "ok" : "FAIL", (System.nanoTime() - t) * 1e-9);
                log.println(c);
                table.add(c);
            }
        }
    }

    // ------------------------------------------------------------------ drift fp64 vs fp32 state

    /**
     * Energy conservation of velocity Verlet with float64 vs float32 positions and velocities:
     * Langevin BAOAB at 300 K first (the random-weight model releases potential energy and would
     * otherwise heat itself), then NVE from that state; linear fit of Etot(t).
     */
    private void drift(Map<String, Atoms> systems) {
        String[] names = quick ? new String[] {"ethanol"} : new String[] {"ethanol", "water-201"};
        for (String name : names) {
            Atoms start = systems.get(name);
            if (start == null) {
                continue;
            }
            Atoms eq = start.copy();
            try (CudaMdEngine md = CudaMdEngine.single(weights, start, new DynamicsSpec.Langevin(0.5, 300, 0.02, false), 7,
                    CudaOptions.defaults().withStepsPerLaunch(50))) {
                md.runSteps(4000);
                md.fetchState(eq);
            }
            for (boolean fp32 : new boolean[] {false, true}) {
                int blocks = 200;
                int per = name.equals("ethanol") ? 500 : 100;  // 100k resp. 20k steps
                double dt = 0.5;
                Atoms a = eq.copy();
                double[] time = new double[blocks + 1];
                double[] etot = new double[blocks + 1];
                long t = System.nanoTime();
                String mode;
                double tk = 0;
                try (CudaMdEngine md = CudaMdEngine.single(weights, eq, new DynamicsSpec.VelocityVerlet(dt), 0,
                        CudaOptions.defaults().withFp32State(fp32).withStepsPerLaunch(50))) {
                    etot[0] = md.fetchState(a) + Observables.kineticEnergyEv(a);
                    for (int b = 1; b <= blocks; b++) {
                        md.runSteps(per);
                        etot[b] = md.fetchState(a) + Observables.kineticEnergyEv(a);
                        time[b] = b * per * dt / 1000.0;  // ps
                        tk += Observables.temperatureK(a, 3 * a.size() - 3) / blocks;
                    }
                    mode = md.mode();
                }
                double slope = slope(time, etot);
                double sd = residualSd(time, etot, slope);
                double lo = Double.MAX_VALUE, hi = -Double.MAX_VALUE;
                for (double e : etot) {
                    lo = Math.min(lo, e);
                    hi = Math.max(hi, e);
                }
                String line = String.format(Locale.ROOT,
                        "drift %-18s %s state, %d steps dt %.1f fs at %.0f K (%s): Etot slope %+.2e eV/ps "
                                + "= %+.2e eV/ns/atom, residual sd %.1e eV, range %.1e eV (%.1f s)",
                        name, fp32 ? "float32" : "float64", blocks * per, dt, tk, mode, slope, slope * 1000 / a.size(),
                        sd, hi - lo, (System.nanoTime() - t) * 1e-9);
                log.println(line);
                table.add(line);
            }
        }
    }

    static double slope(double[] x, double[] y) {
        double mx = 0, my = 0;
        for (int i = 0; i < x.length; i++) {
            mx += x[i];
            my += y[i];
        }
        mx /= x.length;
        my /= y.length;
        double sxy = 0, sxx = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
        }
        return sxy / sxx;
    }

    static double residualSd(double[] x, double[] y, double slope) {
        double mx = 0, my = 0;
        for (int i = 0; i < x.length; i++) {
            mx += x[i];
            my += y[i];
        }
        mx /= x.length;
        my /= y.length;
        double ss = 0;
        for (int i = 0; i < x.length; i++) {
            double r = y[i] - my - slope * (x[i] - mx);
            ss += r * r;
        }
        return Math.sqrt(ss / (x.length - 2));
    }

    // ------------------------------------------------------------------ timing

    private void timing(Map<String, Atoms> systems) throws IOException {
        StringBuilder tsv = new StringBuilder();
        for (Map.Entry<String, Atoms> e : systems.entrySet()) {
            int n = e.getValue().size();
            List<Variant> vs = new ArrayList<>();
            CudaOptions d = CudaOptions.defaults();
            if (n <= CudaOptions.MOLECULE_ATOMS) {
                vs.add(new Variant("molecule", CudaOptions.Mode.MOLECULE, d));
            }
            if (n <= 1000) {
                vs.add(new Variant("stages-warp", CudaOptions.Mode.STAGES, d.withLargeSystemAtoms(1 << 30)));
            }
            if (n > 64) {
                vs.add(new Variant("stages-tiled", CudaOptions.Mode.STAGES, d.withLargeSystemAtoms(1)));
            }
            if (n >= 1000) {
                vs.add(new Variant("stages-tiled-allpairs", CudaOptions.Mode.STAGES,
                        d.withLargeSystemAtoms(1).withCellListAtoms(1 << 30)));
            }
            String modes = System.getProperty("molten.gpucheck.modes");  // e.g. "molecule": time only those
            if (modes != null) {
                java.util.Set<String> keep = java.util.Set.of(modes.split(","));
                vs.removeIf(v -> !keep.contains(v.name));
            }
            for (Variant v : vs) {
                double graph = time(e.getValue(), v.options.withMode(v.mode).withGraphs(true));
                double eager = time(e.getValue(), v.options.withMode(v.mode).withGraphs(false));
                String line = String.format(Locale.ROOT,
                        "time  %-18s %5d atoms %-22s graphs %9.2f us/step   eager %9.2f us/step   (eager/graph %.2f)",
                        e.getKey(), n, v.name, graph, eager, eager / graph);
                log.println(line);
                table.add(line);
                tsv.append(String.format(Locale.ROOT, "%s\t%d\t%s\t%.3f\t%.3f%n", e.getKey(), n, v.name, graph, eager));
                Files.writeString(out.resolve("timings.tsv"), tsv.toString());
            }
        }
    }

    /** GPU time per stage kernel of a force evaluation (STAGES mode), per system. */
    private void profile(Map<String, Atoms> systems) throws IOException {
        StringBuilder all = new StringBuilder();
        for (Map.Entry<String, Atoms> e : systems.entrySet()) {
            CudaOptions opt = CudaOptions.defaults().withCellListAtoms(1 << 30);
            try (CudaStudent gpu = new CudaStudent(weights, opt)) {
                List<String> rows = gpu.profileStages(e.getValue(), 5);
                double total = 0;
                Map<String, Double> byKernel = new LinkedHashMap<>();
                for (String r : rows) {
                    String[] p = r.split("\t");
                    double us = Double.parseDouble(p[1]);
                    total += us;
                    byKernel.merge(p[0].replaceAll(" t=\\d+", ""), us, Double::sum);
                    all.append(e.getKey()).append('\t').append(r).append('\n');
                }
                StringBuilder sb = new StringBuilder();
                byKernel.entrySet().stream().sorted((x, y) -> Double.compare(y.getValue(), x.getValue()))
                        .forEach(x -> sb.append(String.format(Locale.ROOT, " %s %.1f", x.getKey(), x.getValue())));
                String line = String.format(Locale.ROOT, "prof  %-18s %s: %d kernels %.1f us:%s", e.getKey(), gpu.mode(),
                        rows.size(), total, sb);
                log.println(line);
                table.add(line);
            }
        }
        Files.writeString(out.resolve("profile.tsv"), all.toString());
    }

    /** Median microseconds per MD step (velocity Verlet, 0.5 fs). */
    private double time(Atoms a, CudaOptions opt) {
        try (CudaMdEngine md = CudaMdEngine.single(weights, a, new DynamicsSpec.VelocityVerlet(0.5), 0, opt)) {
            double[] probe = md.timeSteps(1, 1);
            int k = opt.stepsPerLaunch();
            int launches = (int) Math.max(1, Math.ceil(3000.0 / (probe[0] * k)));  // about 3 ms per sample
            double[] us = md.timeSteps(quick ? 5 : 15, launches);
            log.printf(Locale.ROOT, "  %s %s graphs=%s: min %.2f median %.2f max %.2f us/step (%d x %d steps)%n",
                    md.mode(), a.formula(), opt.graphs(), us[0], us[us.length / 2], us[us.length - 1], launches, k);
            return us[us.length / 2];
        }
    }

    // ------------------------------------------------------------------ inputs for the PyTorch script

    private void writeTorchInputs(Map<String, Atoms> systems) throws IOException {
        Path dir = Path.of(System.getProperty("molten.torch.dir", "/tmp/molten-torch"));
        Files.createDirectories(dir);
        weights.save(dir.resolve("weights.safetensors"), Dtype.F32);
        for (Map.Entry<String, Atoms> e : systems.entrySet()) {
            Files.writeString(dir.resolve(e.getKey() + ".json"), json(e.getValue(), null, Double.NaN));
        }
        log.println("wrote PyTorch inputs to " + dir);
    }

    private void writeForces(String name, Atoms a, double[] f, double e) throws RuntimeException {
        try {
            Path dir = Path.of(System.getProperty("molten.torch.dir", "/tmp/molten-torch"));
            Files.writeString(dir.resolve(name + ".gpu.json"), json(a, f, e));
        } catch (IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private String json(Atoms a, double[] forces, double energy) {
        StringBuilder sb = new StringBuilder("{\"species\":[");
        int[] sp = weights.speciesIndices(a);
        for (int i = 0; i < sp.length; i++) {
            sb.append(i > 0 ? "," : "").append(sp[i]);
        }
        sb.append("],\"masses\":").append(arr(a.massesAmu()));
        sb.append(",\"positions\":").append(arr(a.positions()));
        sb.append(",\"velocities\":").append(arr(a.velocities()));
        if (a.cellOrNull() != null) {
            double[][] h = a.cellOrNull().matrix();
            sb.append(",\"cell\":[").append(h[0][0]).append(',').append(h[1][1]).append(',').append(h[2][2]).append(']');
        }
        if (forces != null) {
            sb.append(",\"forces\":").append(arr(forces)).append(",\"energy\":").append(energy);
        }
        return sb.append("}").toString();
    }

    private static String arr(double[] x) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < x.length; i++) {
            sb.append(i > 0 ? "," : "").append(x[i]);
        }
        return sb.append(']').toString();
    }

    /** Writes to two streams. */
    static final class TeeStream extends java.io.OutputStream {
        private final java.io.OutputStream a;
        private final java.io.OutputStream b;

        TeeStream(java.io.OutputStream a, java.io.OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int x) throws IOException {
            a.write(x);
            b.write(x);
        }

        @Override
        public void write(byte[] buf, int off, int len) throws IOException {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }

        @Override
        public void flush() throws IOException {
            a.flush();
            b.flush();
        }
    }
}
