package org.molten.validation.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.molten.validation.ValidationSettings;
import org.molten.validation.reports.Thresholds;

/** {@link ValidationRunner#cores(int)}: the replica workers and their models' threads stay within the cores given. */
class RunnerCoresTest {
    private static ValidationRunner runner() {
        return new ValidationRunner(ValidationSettings.quickProtocol(), Thresholds.defaults(), BundledModels.bundled(
                org.molten.forcefield.student.OptimisedStudent.Precision.FLOAT64), Path.of("unused"), "test", "test");
    }

    @Test
    void oneCoreMeansOneWorkerWithOneModelThread() {
        ValidationRunner r = runner().cores(1);
        assertEquals(1, r.workers(4));
        assertEquals(1, r.threadsPerModel(r.workers(4)));
    }

    @Test
    void fourCoresOverTwoReplicasGiveTwoWorkersOfTwoThreads() {
        ValidationRunner r = runner().threads(16).cores(4);
        assertEquals(2, r.workers(2));
        assertEquals(2, r.threadsPerModel(2));
        assertEquals(4, r.workers(16), "never more workers than cores");
        assertEquals(1, r.threadsPerModel(4));
    }

    @Test
    void withoutCoresTheDefaultIsUnchanged() {
        int cpus = Runtime.getRuntime().availableProcessors();
        ValidationRunner r = runner().threads(8);
        assertEquals(8, r.workers(8), "--threads alone may exceed the cores, as before");
        assertEquals(Math.max(1, cpus / 3), r.threadsPerModel(3));
    }
}
