package org.molten.cli;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.ForceField;
import org.molten.structures.BuiltInMolecules;
import org.molten.validation.BaselineKind;
import org.molten.validation.DeviceChoice;
import org.molten.validation.reports.JsonReportWriter;
import org.molten.validation.reports.ModelInfo;
import org.molten.validation.reports.Precision;
import org.molten.validation.runs.ModelProvider;
import picocli.CommandLine;

/**
 * End-to-end runs of {@code molten validate} on water with fast test models (an elastic
 * network, {@link ElasticNetwork}), so that the pipeline, the report and the failure paths are
 * exercised in seconds. The student models are exercised by ValidationWithStudentTest.
 */
class ValidateCommandTest {

    /**
     * All three models: elastic networks on water with spring constants k (eV/Å²); the "teacher"
     * is one too (a stand-in for GFN2-xTB: the pipeline does not care which force field teaches).
     */
    static final class SpringModels implements ModelProvider {
        final double optimisedK;
        final double baselineK;
        final Double teacherK;

        SpringModels(double optimisedK, double baselineK) {
            this(optimisedK, baselineK, optimisedK);
        }

        /** With {@code teacherK} null the teacher is unavailable ("libxtb.so.6 not found" stand-in). */
        SpringModels(double optimisedK, double baselineK, Double teacherK) {
            this.optimisedK = optimisedK;
            this.baselineK = baselineK;
            this.teacherK = teacherK;
        }

        @Override
        public Teacher teacher(boolean periodic, List<String> warnings) {
            if (teacherK == null) {
                return Teacher.unavailable("libxtb.so.6 not found: install libxtb6 (test stand-in)");
            }
            return Teacher.of(new Model(new ModelInfo("teacher/test", "test double", Precision.FLOAT64, "cpu", "-", Map.of()),
                    water(teacherK)));
        }

        static ForceField water(double k) {
            return new ElasticNetwork(BuiltInMolecules.load("water"), k);
        }

        @Override
        public Model optimised(DeviceChoice device, List<String> warnings) {
            return new Model(new ModelInfo("classical/test", "test double", Precision.FLOAT64, "cpu", "inferred from water",
                    Map.of("teacher", "none")), water(optimisedK));
        }

        @Override
        public Model baseline(BaselineKind kind, boolean periodic, List<String> warnings) {
            warnings.add("test baseline instead of " + kind.id());
            return new Model(new ModelInfo("classical/test-baseline", "test double", Precision.FLOAT64, "cpu",
                    "inferred from water", Map.of()), water(baselineK));
        }
    }

    record Result(int exit, String out, String err, JsonNode json, String markdown) {
    }

    static Result run(ModelProvider models, Path dir, String... args) throws Exception {
        CommandLine cl = new CommandLine(new MoltenCli());
        ValidateCommand cmd = (ValidateCommand) cl.getSubcommands().get("validate").getCommand();
        cmd.modelProvider = models;
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        String[] all = new String[args.length + 3];
        all[0] = "validate";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--out";
        all[args.length + 2] = dir.toString();
        int exit = cl.execute(all);
        Path json = dir.resolve("report.json");
        return new Result(exit, out.toString(), err.toString(),
                Files.exists(json) ? JsonReportWriter.mapper().readTree(json.toFile()) : null,
                Files.exists(dir.resolve("report.md")) ? Files.readString(dir.resolve("report.md")) : null);
    }

    static void assertKeys(JsonNode node, String where, String... keys) {
        for (String k : keys) {
            assertTrue(node.has(k), where + " lacks '" + k + "': " + node);
        }
    }

    @Test
    void aShortValidationOfWaterPassesAndItsJsonHasEveryField(@TempDir Path dir) throws Exception {
        Result r = run(new SpringModels(20, 20), dir, "--systems", "H2O", "--steps", "2000", "--equilibration-steps", "400",
                "--thermostat-time", "20", "--seed", "7", "--replicas", "2", "--teacher-frames", "10");
        assertEquals(0, r.exit(), r.out() + r.err() + r.markdown());
        JsonNode j = r.json();
        assertKeys(j, "report", "tool", "created_utc", "command", "environment", "settings", "thresholds", "optimised",
                "baseline", "systems", "summary", "warnings");
        assertKeys(j.path("environment"), "environment", "molten_version", "java_version", "java_vendor", "os_name",
                "os_version", "os_arch", "cpu_cores");
        assertEquals("molten 0.1.0", j.path("environment").path("molten_version").asText());
        assertKeys(j.path("settings"), "settings", "systems", "temperature_K", "timestep_fs", "equilibration_steps", "nve_steps",
                "nvt_steps", "sample_interval_steps", "thermostat", "thermostat_time_constant_fs", "device", "baseline", "seed", "full");
        assertEquals(7, j.path("settings").path("seed").asLong());
        assertTrue(j.path("command").asText().startsWith("validate --systems H2O --steps 2000"), j.path("command").asText());
        assertEquals("water", j.path("settings").path("systems").get(0).asText());
        assertEquals("cpu", j.path("settings").path("device").asText());
        assertKeys(j.path("thresholds"), "thresholds", "max_drift_meV_per_atom_per_ps", "max_drift_float32_meV_per_atom_per_ps",
                "max_drift_to_kinetic_sigma_ratio", "max_temperature_deviation_sigmas", "max_fluctuation_deviation_sigmas",
                "max_bond_stretch_ratio", "escape_margin_A", "overlap_limit_A", "max_force_rmse_eV_per_A");
        assertKeys(j.path("optimised"), "model", "name", "kind", "precision", "device", "source", "provenance");
        assertEquals("none", j.path("optimised").path("provenance").path("teacher").asText());
        assertTrue(j.path("warnings").get(0).asText().contains("test baseline instead of torchscript"));

        JsonNode sys = j.path("systems").get(0);
        assertKeys(sys, "system", "name", "formula", "atoms", "periodic", "runs", "comparison", "criteria", "plots", "passed",
                "verdict", "replicas", "stable_fraction", "nve_drift", "nvt_temperature", "teacher", "teacher_skipped",
                "observables");
        assertEquals("H2O", sys.path("formula").asText());
        assertEquals(6, sys.path("runs").size(), "2 replicas x (equilibration, NVE, NVT)");
        assertEquals(1.0, sys.path("stable_fraction").asDouble());
        assertEquals(2, sys.path("replicas").size());
        assertKeys(sys.path("replicas").get(1), "replica", "replica", "seed", "stable", "time_to_failure_fs", "failed_run",
                "failure", "start_temperature_K", "nvt_start_temperature_K", "nve_drift_meV_per_atom_per_ps", "nvt_mean_temperature_K",
                "teacher_force_mae_eV_per_A");
        assertEquals(8, sys.path("replicas").get(1).path("seed").asLong());
        // NVE starts at exactly the target temperature, NVT from the equilibrated velocities (not rescaled).
        assertEquals(300.0, sys.path("replicas").get(1).path("start_temperature_K").asDouble(), 1e-9);
        assertNotEquals(300.0, sys.path("replicas").get(1).path("nvt_start_temperature_K").asDouble(), 1e-6);
        assertKeys(sys.path("teacher"), "teacher", "frames", "frames_failed", "force_mae_eV_per_A", "force_rmse_eV_per_A",
                "max_atom_error_eV_per_A", "max_atom_index", "max_atom_element", "max_atom_frame", "energy_error_meV_per_atom",
                "worst_atoms", "per_atom", "series");
        assertEquals(40, sys.path("teacher").path("frames").asInt(), "10 frames x 2 runs x 2 replicas");
        assertEquals(0.0, sys.path("teacher").path("force_mae_eV_per_A").asDouble(), "the teacher is the student here");
        assertKeys(sys.path("verdict"), "verdict", "stable", "faithful", "observables", "drift", "temperature", "baseline",
                "teacher_md", "teacher_md_detail");
        assertEquals("pass", sys.path("verdict").path("faithful").asText());
        assertEquals("n/a", sys.path("verdict").path("observables").asText());
        for (JsonNode run : sys.path("runs")) {
            assertKeys(run, run.path("label").asText(), "label", "phase", "role", "ensemble", "model", "precision", "integrator",
                    "timestep_fs", "steps_requested", "steps_completed", "sample_interval_steps", "simulated_ps",
                    "degrees_of_freedom", "energy", "conserved_energy", "temperature", "integrity", "performance", "blow_up",
                    "series_file");
            assertEquals(6, run.path("degrees_of_freedom").asInt(), "3N - 3 for water");
            assertKeys(run.path("temperature"), "temperature", "mean_K", "mean_standard_error_K", "target_K",
                    "mean_deviation_sigmas", "sigma_K", "sigma_standard_error_K", "canonical_sigma_K", "sigma_ratio",
                    "sigma_deviation_sigmas", "degrees_of_freedom", "mean_blocks", "error_reliable");
            assertKeys(run.path("integrity"), "integrity", "intact", "frames_checked", "bonds", "max_bond_stretch_ratio",
                    "max_bond_stretch_allowed", "worst_bond", "hydrogens_checked", "max_distance_from_com_A", "escape_limit_A",
                    "min_distance_A", "overlap_limit_A", "first_violation");
            assertKeys(run.path("performance"), "performance", "wall_seconds", "steps_per_second", "ns_per_day");
            assertTrue(Files.exists(dir.resolve(run.path("series_file").asText())));
            assertTrue(run.path("blow_up").isNull());
        }
        JsonNode nve = sys.path("runs").get(1);
        assertEquals("replica 0 optimised NVE", nve.path("label").asText());
        assertKeys(nve.path("energy"), "energy", "drift_meV_per_atom_per_ps", "drift_standard_error_meV_per_atom_per_ps",
                "drift_over_run_meV_per_atom", "kinetic_sigma_meV_per_atom", "drift_to_kinetic_sigma_ratio",
                "max_excursion_meV_per_atom", "residual_rms_meV_per_atom", "run_length_ps", "samples");
        assertEquals(1.0, nve.path("energy").path("run_length_ps").asDouble(), 1e-12);
        assertEquals(401, nve.path("energy").path("samples").asInt());
        JsonNode nvt = sys.path("runs").get(2);
        assertKeys(nvt.path("conserved_energy"), "conserved energy", "drift_meV_per_atom_per_ps");
        assertTrue(nvt.path("energy").isNull());

        JsonNode cmp = sys.path("comparison");
        assertKeys(cmp, "comparison", "optimised_model", "baseline_model", "forces", "frames_skipped", "skip_reason", "divergence", "final_rmsd_A", "max_rmsd_A",
                "divergence_time_fs", "optimised_drift_meV_per_atom_per_ps", "baseline_drift_meV_per_atom_per_ps");
        assertKeys(cmp.path("forces"), "forces", "frames", "force_rmse_eV_per_A", "force_max_abs_error_eV_per_A",
                "force_relative_rmse", "energy_max_abs_error_meV_per_atom");
        // Identical models on the same frames: the same forces.
        assertEquals(0.0, cmp.path("forces").path("force_rmse_eV_per_A").asDouble());
        assertTrue(cmp.path("forces").path("frames").asInt() >= 80, "up to 50 frames of each of replica 0's runs");

        List<String> ids = sys.path("criteria").findValuesAsText("criterion");
        for (String c : List.of("run-completed", "energy-drift", "drift-to-kinetic-sigma", "mean-temperature",
                "temperature-fluctuation", "structural-integrity", "baseline-force-rmse", "stable-fraction",
                "teacher-force-mae")) {
            assertTrue(ids.contains(c), "criterion " + c + " missing: " + ids);
        }
        for (JsonNode c : sys.path("criteria")) {
            assertKeys(c, "criterion", "system", "run", "criterion", "value", "comparison", "threshold", "unit", "passed", "detail");
        }
        assertKeys(j.path("summary"), "summary", "passed", "criteria", "failed", "failures", "wall_seconds");
        assertTrue(j.path("summary").path("passed").asBoolean());
        for (String png : List.of("water-nve.png", "water-nvt.png", "water-teacher-errors.png")) {
            assertTrue(Files.size(dir.resolve(png)) > 1000, png);
            assertTrue(r.markdown().contains("](" + png + ")"), png);
        }
        assertTrue(r.markdown().startsWith("# Molten validation report\n\n**Verdict: PASS**"));
        assertTrue(r.out().contains("PASS"), r.out());
    }

    @Test
    void theSameSeedRepeatsTheRunExactly(@TempDir Path a, @TempDir Path b) throws Exception {
        String[] args = {"--systems", "water", "--steps", "200", "--equilibration-steps", "100", "--seed", "11"};
        JsonNode x = run(new SpringModels(20, 20), a, args).json();
        JsonNode y = run(new SpringModels(20, 20), b, args).json();
        for (int i = 0; i < 3; i++) {
            JsonNode rx = x.path("systems").get(0).path("runs").get(i);
            JsonNode ry = y.path("systems").get(0).path("runs").get(i);
            assertEquals(rx.path("temperature").path("mean_K").asDouble(), ry.path("temperature").path("mean_K").asDouble(), 0.0);
        }
        assertEquals(Files.readString(a.resolve("water-r0-optimised-nvt.csv")), Files.readString(b.resolve("water-r0-optimised-nvt.csv")));
    }

    @Test
    void replicaKEqualsASingleRunWithSeedPlusKWhateverTheThreads(@TempDir Path a, @TempDir Path b, @TempDir Path c)
            throws Exception {
        String[] common = {"--systems", "water", "--steps", "200", "--equilibration-steps", "100", "--thermostat", "bussi"};
        run(new SpringModels(20, 20), a, concat(common, "--seed", "11", "--replicas", "3", "--threads", "2"));
        run(new SpringModels(20, 20), b, concat(common, "--seed", "13", "--replicas", "1"));
        run(new SpringModels(20, 20), c, concat(common, "--seed", "11", "--replicas", "3", "--threads", "1"));
        for (String f : List.of("equilibration.csv", "optimised-nve.csv", "optimised-nvt.csv")) {
            assertEquals(Files.readString(b.resolve("water-r0-" + f)), Files.readString(a.resolve("water-r2-" + f)), f);
            for (int k = 0; k < 3; k++) {
                assertEquals(Files.readString(c.resolve("water-r" + k + "-" + f)), Files.readString(a.resolve("water-r" + k + "-" + f)),
                        "replica " + k + " " + f + " with 1 and 2 threads");
            }
        }
        // Different replicas are different starts.
        assertNotEquals(Files.readString(a.resolve("water-r0-optimised-nvt.csv")), Files.readString(a.resolve("water-r1-optimised-nvt.csv")));
    }

    static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void aStudentFarFromItsTeacherFailsTheTeacherCriterionNamedInTheReport(@TempDir Path dir) throws Exception {
        // The student's springs are 40 % softer than the teacher's: forces differ by ~0.4 x on every frame.
        Result r = run(new SpringModels(12, 12, 20.0), dir, "--systems", "water", "--steps", "400", "--equilibration-steps",
                "100", "--replicas", "2", "--teacher-frames", "20");
        assertEquals(ValidateCommand.EXIT_FAILED, r.exit(), r.out() + r.err());
        JsonNode sys = r.json().path("systems").get(0);
        assertTrue(sys.path("teacher").path("force_mae_eV_per_A").asDouble() > 0.03, sys.path("teacher").toString());
        assertEquals("FAIL", sys.path("verdict").path("faithful").asText());
        assertTrue(r.json().path("summary").path("failures").toString().contains("teacher-force-mae"));
        assertTrue(r.markdown().contains("| water | 3 | 2 | pass (2/2) | **FAIL**"), r.markdown());
        assertTrue(r.out().contains("teacher-force-mae"), r.out());
        // The same student against a teacher it matches passes that criterion (the test can fail both ways).
        Result ok = run(new SpringModels(12, 12, 12.0), dir.resolve("ok"), "--systems", "water", "--steps", "400",
                "--equilibration-steps", "100", "--replicas", "2", "--teacher-frames", "20");
        assertEquals("pass", ok.json().path("systems").get(0).path("verdict").path("faithful").asText());
    }

    @Test
    void theTeachersOwnMdGivesDistributionsThatFlagASofterStudentAndPassAMatchingOne(@TempDir Path dir) throws Exception {
        String[] args = {"--systems", "water", "--steps", "1000", "--equilibration-steps", "200", "--replicas", "2",
            "--teacher-frames", "5", "--baseline", "teacher"};
        Result soft = run(new SpringModels(2, 2, 30.0), dir.resolve("soft"), args);
        assertEquals(ValidateCommand.EXIT_FAILED, soft.exit(), soft.out());
        JsonNode sys = soft.json().path("systems").get(0);
        assertEquals("FAIL", sys.path("verdict").path("observables").asText(), sys.path("observables").toString());
        assertEquals("n/a", sys.path("verdict").path("baseline").asText(), "no implementation baseline with the teacher's MD");
        assertTrue(sys.path("observables").size() >= 2, "bond O-H, angle H-O-H: " + sys.path("observables"));
        assertTrue(soft.json().path("summary").path("failures").toString().contains("observable-divergence"));
        assertTrue(soft.markdown().contains("Structural distributions"), soft.markdown());
        assertTrue(Files.size(dir.resolve("soft").resolve("water-distributions.png")) > 1000);
        // the teacher's runs are in the report, from the same states
        assertTrue(sys.path("runs").toString().contains("replica 1 teacher NVT"));

        Result same = run(new SpringModels(20, 20, 20.0), dir.resolve("same"), args);
        JsonNode s2 = same.json().path("systems").get(0);
        assertEquals("pass", s2.path("verdict").path("observables").asText(), s2.path("observables").toString());
        for (JsonNode o : s2.path("observables")) {
            assertEquals(0.0, o.path("jensen_shannon").asDouble(), "identical models from identical states: " + o.path("name"));
        }
    }

    @Test
    void withoutTheTeacherLibraryTheTeacherChecksAreSkippedWithTheReasonAndTheRunIsNotAPass(@TempDir Path dir)
            throws Exception {
        Result r = run(new SpringModels(20, 20, null), dir, "--systems", "water", "--steps", "2000", "--equilibration-steps",
                "400", "--thermostat-time", "20", "--seed", "7", "--replicas", "2");
        assertEquals(ValidateCommand.EXIT_INCOMPLETE, r.exit(), r.out() + r.err());
        JsonNode sys = r.json().path("systems").get(0);
        assertTrue(sys.path("teacher").isNull());
        assertTrue(sys.path("teacher_skipped").asText().contains("install libxtb6"), sys.toString());
        assertEquals("skipped", sys.path("verdict").path("faithful").asText());
        assertFalse(r.json().path("summary").path("passed").asBoolean());
        assertEquals(1, r.json().path("summary").path("skipped").asInt());
        assertTrue(r.markdown().contains("**Verdict: INCOMPLETE**"), r.markdown());
        assertTrue(r.markdown().contains("skipped: libxtb.so.6 not found"), r.markdown());
    }

    @Test
    void hardFramesAreTheWorstFramesLabelledByTheTeacher(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("hard.extxyz");
        Result r = run(new SpringModels(12, 12, 20.0), dir, "--systems", "water", "--steps", "400", "--equilibration-steps",
                "100", "--replicas", "2", "--teacher-frames", "20", "--export-hard-frames", file.toString(), "--hard-frames", "5");
        assertEquals(ValidateCommand.EXIT_FAILED, r.exit());
        List<org.molten.structures.io.Frame> frames = org.molten.structures.io.StructureFiles.readAll(file);
        assertEquals(5, frames.size());
        double previous = Double.POSITIVE_INFINITY;
        ForceField teacher = SpringModels.water(20);
        for (org.molten.structures.io.Frame f : frames) {
            double err = Double.parseDouble(f.info().get("student_max_atom_force_error_eV_per_A"));
            assertTrue(err <= previous, "worst first");
            previous = err;
            assertEquals("water", f.info().get("system"));
            // Labels are the teacher's energy and forces at those positions.
            double[] fe = new double[9];
            double e = teacher.energyAndForces(f.atoms(), fe);
            assertEquals(e, f.energyEv().getAsDouble(), 1e-6 * Math.max(1, Math.abs(e)));
            assertArrayEquals(fe, f.forcesEvPerA().orElseThrow(), 1e-6);
        }
    }

    @Test
    void aTimestepFarTooLargeIsAFailedCriterionWithStepAtomAndCauseNotACrash(@TempDir Path dir) throws Exception {
        Result r = run(new SpringModels(20, 20), dir, "--systems", "water", "--steps", "400", "--equilibration-steps", "100",
                "--timestep", "12", "--replicas", "1");
        assertEquals(ValidateCommand.EXIT_FAILED, r.exit(), r.out() + r.err());
        JsonNode failed = null;
        for (JsonNode c : r.json().path("systems").get(0).path("criteria")) {
            if (!c.path("passed").asBoolean() && c.path("criterion").asText().equals("run-completed")) {
                failed = c;
                break;
            }
        }
        assertNotNull(failed, r.markdown());
        String detail = failed.path("detail").asText();
        assertTrue(detail.contains("blew up at step") && detail.contains("atom"), detail);
        JsonNode run = r.json().path("systems").get(0).path("runs").get(0);
        assertKeys(run.path("blow_up"), "blow-up", "step", "time_fs", "atom", "cause");
        assertTrue(run.path("blow_up").path("step").asLong() > 0);
        assertFalse(r.json().path("summary").path("passed").asBoolean());
        assertTrue(r.markdown().contains("**Verdict: FAIL**"));
        assertTrue(r.markdown().contains("run-completed"));
        assertTrue(r.out().contains("run-completed"), r.out());
    }

    /** A model that refuses the geometry at its 300th evaluation, as a force field does for overlapping atoms. */
    static final class RefusingModels implements ModelProvider {
        @Override
        public Model optimised(DeviceChoice device, List<String> warnings) {
            ForceField inner = SpringModels.water(20);
            ForceField refusing = new ForceField() {
                int calls;

                @Override
                public String name() {
                    return "refusing";
                }

                @Override
                public double energyAndForces(org.molten.core.Atoms atoms, double[] forces) {
                    if (++calls == 300) {
                        throw new IllegalArgumentException("atoms 0 (O) and 1 (H) overlap: 0.2 Å apart");
                    }
                    return inner.energyAndForces(atoms, forces);
                }
            };
            return new Model(new ModelInfo("refusing", "test double", Precision.FLOAT64, "cpu", "-", Map.of()), refusing);
        }

        @Override
        public Model baseline(BaselineKind kind, boolean periodic, List<String> warnings) {
            return new SpringModels(20, 20).baseline(kind, periodic, warnings);
        }
    }

    @Test
    void aForceFieldThatRefusesTheGeometryMidRunIsAFailedRunNotACrash(@TempDir Path dir) throws Exception {
        Result r = run(new RefusingModels(), dir, "--systems", "water", "--steps", "400", "--equilibration-steps", "100",
                "--replicas", "1");
        assertEquals(ValidateCommand.EXIT_FAILED, r.exit(), r.out() + r.err());
        JsonNode runs = r.json().path("systems").get(0).path("runs");
        // 1 initial + 100 equilibration + 1 initial evaluation of the NVE run: call 300 is NVE step 198.
        JsonNode nve = runs.get(1);
        assertEquals("replica 0 optimised NVE", nve.path("label").asText());
        assertEquals(198, nve.path("blow_up").path("step").asLong(), nve.toString());
        assertEquals(197, nve.path("steps_completed").asLong());
        assertTrue(nve.path("blow_up").path("cause").asText().contains("overlap"));
        assertTrue(nve.path("energy").path("drift_meV_per_atom_per_ps").isNumber(), "metrics over the steps before the stop");
        assertEquals(3, runs.size(), "the other runs still ran");
        assertTrue(runs.get(2).path("blow_up").isNull());
    }

    @Test
    void aBaselineWithOtherForcesFailsTheForceComparison(@TempDir Path dir) throws Exception {
        Result r = run(new SpringModels(20, 16), dir, "--systems", "water", "--steps", "200", "--equilibration-steps", "100");
        assertEquals(ValidateCommand.EXIT_FAILED, r.exit());
        JsonNode cmp = r.json().path("systems").get(0).path("comparison");
        assertTrue(cmp.path("forces").path("force_rmse_eV_per_A").asDouble() > 1e-3);
        assertTrue(r.json().path("summary").path("failures").toString().contains("baseline-force-rmse"));
    }

    @Test
    void aStructureWithAnElementTheStudentLacksIsRefusedNamingTheAtomAndElement(@TempDir Path dir) throws Exception {
        Path xyz = dir.resolve("h2s.xyz");
        Files.writeString(xyz, "3\nhydrogen sulfide\nS 0.0 0.0 0.1\nH 0.0 0.96 -0.8\nH 0.0 -0.96 -0.8\n");
        CliRun r = CliRun.of("validate", "--structure", xyz.toString(), "--steps", "200", "--replicas", "1", "--out",
                dir.resolve("out").toString());
        assertEquals(1, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("structure " + xyz) && r.err().contains("atom 0") && r.err().contains("element S"),
                r.err());
        assertTrue(r.err().contains("supports H, C, N, O"), r.err());
    }

    @Test
    void aUsersStructureIsValidatedUnderItsFileName(@TempDir Path dir) throws Exception {
        Path xyz = dir.resolve("my-water.xyz");
        org.molten.structures.io.StructureFiles.write(xyz, BuiltInMolecules.load("water"));
        Result r = run(new SpringModels(20, 20), dir.resolve("out"), "--structure", xyz.toString(), "--steps", "400",
                "--equilibration-steps", "100", "--replicas", "1");
        JsonNode sys = r.json().path("systems").get(0);
        assertEquals("my-water", sys.path("name").asText());
        assertEquals(xyz.toString(), sys.path("source").asText());
        assertEquals(1, r.json().path("systems").size(), "with --structure and no --systems only the file");
    }

    @Test
    void badOptionsAreRefusedWithTheValueNamed() {
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new MoltenCli());
        cl.setErr(new PrintWriter(err));
        // Unknown enum values: one clear line (exit 1 from MoltenCli's handler).
        assertEquals(1, CliRun.of("validate", "--thermostat", "andersen", "--out", "/nonexistent/x").status());
        assertEquals(1, CliRun.of("validate", "--systems", "water,caffeine", "--out", "/nonexistent/x").status());
        assertEquals(1, CliRun.of("validate", "--timestep", "-1", "--out", "/nonexistent/x").status());
        assertEquals(1, CliRun.of("validate", "--max-bond-stretch", "0.8", "--out", "/nonexistent/x").status());
        assertEquals(1, CliRun.of("validate", "--systems", "water,h2o", "--out", "/nonexistent/x").status());
        assertEquals(2, CliRun.of("validate", "--steps", "many").status());
    }

    @Test
    void helpNamesTheUnits() {
        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(new MoltenCli());
        cl.setOut(new PrintWriter(out));
        assertEquals(0, cl.execute("validate", "--help"));
        String help = out.toString();
        for (String s : List.of("--timestep=<fs>", "in fs", "--temperature=<K>", "in K", "meV/atom/ps", "eV/Å", "(default: 0.5)",
                "(default: 300.0)", "(default: langevin)", "(default: torchscript)", "(default: auto:", "(default: 0.05)")) {
            assertTrue(help.contains(s), "help lacks '" + s + "':\n" + help);
        }
    }
}
