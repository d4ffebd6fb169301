package org.molten.validation;

import java.util.List;
import org.molten.core.Checks;
import org.molten.integrators.constraints.Constraints;

/**
 * What a validation run does: which systems, at which temperature and timestep, for how many
 * steps, with which thermostat, device and baseline, from which seed. Every default is defined
 * here once; {@link #quickProtocol()} is what {@code molten validate} runs without options and
 * {@link #fullProtocol()} what {@code --full} runs.
 *
 * @param systems                  built-in system names, in order
 * @param temperatureK             target temperature (K) of the velocities, the equilibration and NVT
 * @param timestepFs               MD timestep (fs) of every run
 * @param equilibrationSteps       Langevin equilibration steps before production (optimised model)
 * @param nveSteps                 NVE production steps per model
 * @param nvtSteps                 NVT production steps per model
 * @param sampleIntervalSteps      steps between recorded samples (energies, temperature, frames)
 * @param thermostat               NVT thermostat
 * @param thermostatTimeConstantFs coupling time (fs): 1/friction for Langevin, τ for Bussi,
 *                                 Berendsen and the Nosé-Hoover chain
 * @param device                   where the optimised student runs
 * @param baseline                 the model it is compared with
 * @param seed                     seed of replica 0; replica k uses {@code seed + k} for its
 *                                 velocities, equilibration and thermostat noise, so replica k of
 *                                 a run equals replica 0 of a run with seed + k
 * @param full                     true for the long protocol ({@code --full})
 * @param replicas                 independent starts per system (replica k: seed + k)
 * @param teacherFramesPerRun      frames of every production run evaluated by the teacher (0: no
 *                                 teacher checks)
 * @param structures               the user's structure files (XYZ, extended XYZ, PDB), validated
 *                                 after the built-in systems, each named by its file name
 * @param constraints              bond constraints of every run, the teacher's own MD included: none,
 *                                 h-bonds or all-bonds (rigid water with either), lengths from each run's start
 * @param hydrogenMassAmu          hydrogen mass repartitioning (amu) of every run, or NaN for standard masses
 */
public record ValidationSettings(
        List<String> systems, double temperatureK, double timestepFs, long equilibrationSteps, long nveSteps,
        long nvtSteps, int sampleIntervalSteps, ThermostatKind thermostat, double thermostatTimeConstantFs,
        DeviceChoice device, BaselineKind baseline, long seed, boolean full, int replicas, int teacherFramesPerRun,
        List<java.nio.file.Path> structures, String constraints, double hydrogenMassAmu) {

    /** The four systems of the default validation. */
    public static final List<String> DEFAULT_SYSTEMS = List.of("water", "ethanol", "benzene", "alanine-dipeptide");
    /** Every system a validation can run. */
    public static final List<String> ALL_SYSTEMS =
            List.of("water", "ethanol", "benzene", "alanine-dipeptide", "ace-ala5-nme", "water-box");
    /** Default target temperature, K. */
    public static final double DEFAULT_TEMPERATURE_K = 300.0;
    /** Default timestep, fs. */
    public static final double DEFAULT_TIMESTEP_FS = 0.5;
    /** Default seed. */
    public static final long DEFAULT_SEED = 20261121L;
    /** Default thermostat. */
    public static final ThermostatKind DEFAULT_THERMOSTAT = ThermostatKind.LANGEVIN;
    /**
     * Default thermostat coupling time, fs (Langevin friction 0.02 1/fs). Short enough that the
     * temperature decorrelates ~100 times within the quick NVT run, which the block-averaged
     * error bars of the temperature criteria need (at 100 fs, 2 ps of NVT hold ~10 independent
     * temperatures and the error bars are themselves unreliable).
     */
    public static final double DEFAULT_THERMOSTAT_TIME_CONSTANT_FS = 50.0;
    /** Default device: the CPU, so the default report is the same on every machine. */
    public static final DeviceChoice DEFAULT_DEVICE = DeviceChoice.CPU;
    /** Default baseline. */
    public static final BaselineKind DEFAULT_BASELINE = BaselineKind.TORCHSCRIPT;
    /** Default steps between samples. */
    public static final int DEFAULT_SAMPLE_INTERVAL_STEPS = 5;
    /**
     * Quick protocol: equilibration steps per replica (0.5 ps at 0.5 fs: ten relaxation times of the
     * equilibration's Langevin friction; NVE then starts rescaled to the target, NVT as equilibrated).
     * With 0.15 ps, ethanol started at its minimum had a pooled NVT σ_T of 0.84 of the canonical value at
     * seeds 1-3 (which share replicas), 0.90 after 0.5 ps and 0.98 after 1 ps: suggestive only (such sets
     * scatter by ~9 %); the main fault was the error bar ({@code TemperatureStatistics.ofRuns}).
     */
    public static final long QUICK_EQUILIBRATION_STEPS = 1000;
    /**
     * Quick protocol: NVE steps per replica (1.7 ps at 0.5 fs). The drift criterion takes the mean
     * of the four replicas' slopes, whose scatter from the energy oscillation and slow motions falls
     * as (run length)^-1.5 per run and as 1/sqrt(4) over the replicas: 0.64 times that of the single
     * 2 ps run of the quick protocol before replicas. Much shorter runs measure the drift too poorly
     * even in the mean (over 1 ps two water replicas gave +0.081 meV/atom/ps against the 0.05 limit).
     */
    public static final long QUICK_NVE_STEPS = 3400;
    /**
     * Quick protocol: NVT steps per replica (0.75 ps at 0.5 fs); the temperature criteria pool the
     * replicas' series, about 60 temperature correlation times at the default coupling. Each
     * replica's NVT starts from the equilibrated velocities as they are (a start at exactly the
     * target temperature held the first ~0.1 ps of the series near it and pulled ethanol's pooled
     * σ_T to 0.89–0.92 of the canonical value).
     */
    public static final long QUICK_NVT_STEPS = 1500;
    /** Full protocol: equilibration steps (2 ps at 0.5 fs). */
    public static final long FULL_EQUILIBRATION_STEPS = 4000;
    /** Full protocol: NVE and NVT steps per model (10 ps each at 0.5 fs). */
    public static final long FULL_PRODUCTION_STEPS = 20000;

    /** Default independent starts per system in the quick and the full protocol. */
    public static final int DEFAULT_REPLICAS = 4;
    /** Default frames of every production run that the teacher evaluates. */
    public static final int DEFAULT_TEACHER_FRAMES_PER_RUN = 50;

    /** Checks every field. */
    public ValidationSettings {
        systems = systems == null ? List.of() : systems;
        structures = structures == null ? List.of() : List.copyOf(structures);
        if (systems.isEmpty() && structures.isEmpty()) {
            throw new IllegalArgumentException("no systems to validate: give --systems or --structure");
        }
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas must be at least 1: " + replicas);
        }
        if (teacherFramesPerRun < 0) {
            throw new IllegalArgumentException("teacher frames per run must be zero or positive: " + teacherFramesPerRun);
        }
        for (String s : systems) {
            if (!ALL_SYSTEMS.contains(s)) {
                throw new IllegalArgumentException("unknown system '" + s + "'; choose from " + String.join(", ", ALL_SYSTEMS));
            }
        }
        if (new java.util.HashSet<>(systems).size() != systems.size()) {
            throw new IllegalArgumentException("a system is listed twice: " + String.join(", ", systems));
        }
        systems = List.copyOf(systems);
        Checks.requirePositive(temperatureK, "temperature (K)");
        Checks.requirePositive(timestepFs, "timestep (fs)");
        Checks.requireNonNegative(equilibrationSteps, "equilibration steps");
        Checks.requirePositive(nveSteps, "NVE steps");
        Checks.requirePositive(nvtSteps, "NVT steps");
        Checks.requirePositive(sampleIntervalSteps, "sample interval (steps)");
        Checks.requirePositive(thermostatTimeConstantFs, "thermostat time constant (fs)");
        long minSamples = 16;
        if (Math.min(nveSteps, nvtSteps) / sampleIntervalSteps < minSamples) {
            throw new IllegalArgumentException("too few samples: " + Math.min(nveSteps, nvtSteps) + " steps at one sample every "
                    + sampleIntervalSteps + " steps gives fewer than " + minSamples + " samples; raise --steps or lower --sample-interval");
        }
        if (thermostat == null || device == null || baseline == null) {
            throw new IllegalArgumentException("thermostat, device and baseline must be given");
        }
        constraints = constraints == null ? "none" : Constraints.named(constraints).rule().id();
        if (!Double.isNaN(hydrogenMassAmu)) {
            Checks.requirePositive(hydrogenMassAmu, "hydrogen mass (amu)");
        }
    }

    /** The settings before constraints: none, standard masses. */
    public ValidationSettings(List<String> systems, double temperatureK, double timestepFs, long equilibrationSteps,
                              long nveSteps, long nvtSteps, int sampleIntervalSteps, ThermostatKind thermostat,
                              double thermostatTimeConstantFs, DeviceChoice device, BaselineKind baseline, long seed,
                              boolean full, int replicas, int teacherFramesPerRun, List<java.nio.file.Path> structures) {
        this(systems, temperatureK, timestepFs, equilibrationSteps, nveSteps, nvtSteps, sampleIntervalSteps, thermostat,
                thermostatTimeConstantFs, device, baseline, seed, full, replicas, teacherFramesPerRun, structures, "none",
                Double.NaN);
    }

    /** The constraint rule of every run (see {@link Constraints}). */
    public Constraints constraintRule() {
        return Constraints.named(constraints);
    }

    /** True when hydrogens are repartitioned. */
    public boolean repartitionsHydrogenMass() {
        return !Double.isNaN(hydrogenMassAmu);
    }

    /** The same settings with bond constraints ({@code none}, {@code h-bonds}, {@code all-bonds}) and a hydrogen mass (amu, NaN: standard). */
    public ValidationSettings withConstraints(String rule, double hydrogenMass) {
        return new ValidationSettings(systems, temperatureK, timestepFs, equilibrationSteps, nveSteps, nvtSteps,
                sampleIntervalSteps, thermostat, thermostatTimeConstantFs, device, baseline, seed, full, replicas,
                teacherFramesPerRun, structures, rule, hydrogenMass);
    }

    /** A single-start protocol without user structures (the settings before replicas existed). */
    public ValidationSettings(List<String> systems, double temperatureK, double timestepFs, long equilibrationSteps,
                              long nveSteps, long nvtSteps, int sampleIntervalSteps, ThermostatKind thermostat,
                              double thermostatTimeConstantFs, DeviceChoice device, BaselineKind baseline, long seed,
                              boolean full) {
        this(systems, temperatureK, timestepFs, equilibrationSteps, nveSteps, nvtSteps, sampleIntervalSteps, thermostat,
                thermostatTimeConstantFs, device, baseline, seed, full, 1, DEFAULT_TEACHER_FRAMES_PER_RUN, List.of());
    }

    private static ValidationSettings protocol(long equilibration, long nve, long nvt, boolean full) {
        return new ValidationSettings(DEFAULT_SYSTEMS, DEFAULT_TEMPERATURE_K, DEFAULT_TIMESTEP_FS, equilibration, nve,
                nvt, DEFAULT_SAMPLE_INTERVAL_STEPS, DEFAULT_THERMOSTAT, DEFAULT_THERMOSTAT_TIME_CONSTANT_FS,
                DEFAULT_DEVICE, DEFAULT_BASELINE, DEFAULT_SEED, full, DEFAULT_REPLICAS, DEFAULT_TEACHER_FRAMES_PER_RUN,
                List.of());
    }

    /** The same settings with {@code n} replicas per system. */
    public ValidationSettings withReplicas(int n) {
        return new ValidationSettings(systems, temperatureK, timestepFs, equilibrationSteps, nveSteps, nvtSteps,
                sampleIntervalSteps, thermostat, thermostatTimeConstantFs, device, baseline, seed, full, n,
                teacherFramesPerRun, structures, constraints, hydrogenMassAmu);
    }

    /** The same settings with another seed of replica 0. */
    public ValidationSettings withSeed(long newSeed) {
        return new ValidationSettings(systems, temperatureK, timestepFs, equilibrationSteps, nveSteps, nvtSteps,
                sampleIntervalSteps, thermostat, thermostatTimeConstantFs, device, baseline, newSeed, full, replicas,
                teacherFramesPerRun, structures, constraints, hydrogenMassAmu);
    }

    /** The same settings with {@code frames} teacher frames per production run (0: none). */
    public ValidationSettings withTeacherFrames(int frames) {
        return new ValidationSettings(systems, temperatureK, timestepFs, equilibrationSteps, nveSteps, nvtSteps,
                sampleIntervalSteps, thermostat, thermostatTimeConstantFs, device, baseline, seed, full, replicas, frames,
                structures, constraints, hydrogenMassAmu);
    }

    /** The same settings with another baseline. */
    public ValidationSettings withBaseline(BaselineKind kind) {
        return new ValidationSettings(systems, temperatureK, timestepFs, equilibrationSteps, nveSteps, nvtSteps,
                sampleIntervalSteps, thermostat, thermostatTimeConstantFs, device, kind, seed, full, replicas,
                teacherFramesPerRun, structures, constraints, hydrogenMassAmu);
    }

    /** The seed of replica {@code k}: velocities, equilibration and (derived) thermostat noise. */
    public long replicaSeed(int k) {
        return seed + k;
    }

    /** Number of systems: built-in ones and structure files. */
    public int systemCount() {
        return systems.size() + structures.size();
    }

    /** The default, quick protocol. */
    public static ValidationSettings quickProtocol() {
        return protocol(QUICK_EQUILIBRATION_STEPS, QUICK_NVE_STEPS, QUICK_NVT_STEPS, false);
    }

    /** The long protocol: at least 10 ps of NVE and 10 ps of NVT per system at the default timestep. */
    public static ValidationSettings fullProtocol() {
        return protocol(FULL_EQUILIBRATION_STEPS, FULL_PRODUCTION_STEPS, FULL_PRODUCTION_STEPS, true);
    }

    /** NVE production length, ps. */
    public double nvePs() {
        return nveSteps * timestepFs / 1000.0;
    }

    /** NVT production length, ps. */
    public double nvtPs() {
        return nvtSteps * timestepFs / 1000.0;
    }
}
