package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.validation.BaselineKind;
import org.molten.validation.reports.ModelInfo;
import org.molten.validation.reports.Precision;
import org.molten.validation.DeviceChoice;
import org.molten.validation.runs.ModelProvider;

/**
 * With {@code --baseline teacher} the teacher's own MD is judged as the student's runs are: a
 * teacher whose MD stops (here a stand-in that refuses every geometry from its 150th evaluation on,
 * as a failing SCF would) is reported on its own row of the verdict table, and its runs are left out
 * of the structural comparison instead of being compared as if they were the teacher's ensemble,
 * with the difference blamed on the student.
 */
class ValidateTeacherMdTest {

    /** Student and teacher the same elastic water; the teacher's evaluations fail from the 150th on. */
    static final class StoppingTeacher implements ModelProvider {
        private final ModelProvider springs = new ValidateCommandTest.SpringModels(20, 20, 20.0);

        @Override
        public Teacher teacher(boolean periodic, List<String> warnings) {
            ForceField inner = ValidateCommandTest.SpringModels.water(20);
            ForceField stopping = new ForceField() {
                int calls;

                @Override
                public String name() {
                    return "stopping-teacher";
                }

                @Override
                public double energyAndForces(Atoms atoms, double[] forces) {
                    if (++calls >= 150) {
                        throw new IllegalStateException("SCF did not converge (test stand-in)");
                    }
                    return inner.energyAndForces(atoms, forces);
                }
            };
            return Teacher.of(new Model(new ModelInfo("teacher/stopping", "test double", Precision.FLOAT64, "cpu", "-",
                    Map.of()), stopping));
        }

        @Override
        public Model optimised(DeviceChoice device, List<String> warnings) {
            return springs.optimised(device, warnings);
        }

        @Override
        public Model baseline(BaselineKind kind, boolean periodic, List<String> warnings) {
            return springs.baseline(kind, periodic, warnings);
        }
    }

    @Test
    void aTeacherWhoseMdStopsIsReportedAsTheTeachersNotTheStudents(@TempDir Path dir) throws Exception {
        ValidateCommandTest.Result r = ValidateCommandTest.run(new StoppingTeacher(), dir, "--systems", "water", "--steps", "400",
                "--equilibration-steps", "100", "--replicas", "1", "--teacher-frames", "0", "--baseline", "teacher");
        assertTrue(r.json() != null, "no report: " + r.out() + r.err());
        JsonNode sys = r.json().path("systems").get(0);
        JsonNode verdict = sys.path("verdict");
        String ctx = verdict + "\n" + r.json().path("summary");
        assertEquals(ValidateCommand.EXIT_FAILED, r.exit(), ctx);
        assertEquals("FAIL", verdict.path("teacher_md").asText(), ctx);
        assertTrue(verdict.path("teacher_md_detail").asText().contains("0/2 runs intact"), ctx);
        assertTrue(verdict.path("teacher_md_detail").asText().contains("SCF did not converge"), ctx);
        // the student is not blamed: its runs are stable, and there is no teacher ensemble to compare with
        assertEquals("pass", verdict.path("stable").asText(), ctx);
        assertEquals("skipped", verdict.path("observables").asText(), ctx);
        assertTrue(r.json().path("summary").path("failures").toString().contains("replica 0 teacher NVE"), ctx);
        assertTrue(r.markdown().contains("| water: teacher's own MD | 3 | 1 | **FAIL** (0/2 runs intact"), r.markdown());
    }

    @Test
    void aTeacherWhoseMdCompletesPassesItsRow(@TempDir Path dir) throws Exception {
        ValidateCommandTest.Result r = ValidateCommandTest.run(new ValidateCommandTest.SpringModels(20, 20, 20.0), dir,
                "--systems", "water", "--steps", "400", "--equilibration-steps", "100", "--replicas", "1", "--teacher-frames",
                "0", "--baseline", "teacher");
        JsonNode verdict = r.json().path("systems").get(0).path("verdict");
        assertEquals("pass", verdict.path("teacher_md").asText(), verdict.toString());
        assertEquals("2/2 runs intact", verdict.path("teacher_md_detail").asText(), verdict.toString());
        assertEquals("pass", verdict.path("observables").asText(), verdict.toString());
        assertTrue(r.markdown().contains("| water: teacher's own MD | 3 | 1 | pass (2/2 runs intact) |"), r.markdown());
    }
}
