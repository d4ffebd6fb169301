package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;

/**
 * Without a usable GPU the factory returns the CPU student, warns once, counts the fallback; the
 * CPU path then gives the reference's numbers (runs in CI, which has no GPU).
 */
class GpuFallbackTest {
    private final List<LogRecord> records = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            records.add(r);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @AfterEach
    void restore() {
        System.clearProperty("molten.cuda.disable");
        GpuAvailability.resetForTests();
        Logger.getLogger(GpuAvailability.class.getName()).removeHandler(handler);
    }

    @Test
    void disabledGpuFallsBackToTheCpuWithOneWarning() {
        System.setProperty("molten.cuda.disable", "true");
        GpuAvailability.resetForTests();
        Logger.getLogger(GpuAvailability.class.getName()).addHandler(handler);
        StudentWeights w = StudentWeights.random(3);
        long before = GpuStatus.snapshot().fallbacks();

        ForceField a = GpuAvailability.studentForceField(w);
        ForceField b = GpuAvailability.studentForceField(w);

        assertFalse(a instanceof CudaStudent);
        assertFalse(GpuAvailability.available());
        assertEquals(before + 2, GpuStatus.snapshot().fallbacks());
        assertTrue(GpuStatus.snapshot().lastFallbackReason().contains("molten.cuda.disable"));
        long warnings = records.stream().filter(r -> r.getLevel() == Level.WARNING).count();
        assertEquals(1, warnings, "exactly one warning per JVM");
        assertTrue(records.get(0).getMessage().contains("CPU"));
        assertTrue(GpuStatus.snapshot().describe().contains("fallbacks to CPU"));

        Atoms water = Atoms.of(new int[] {8, 1, 1}, new double[] {0, 0, 0, 0.96, 0, 0, -0.24, 0.93, 0}, null);
        double[] f1 = new double[9];
        double[] f2 = new double[9];
        double e1 = a.energyAndForces(water, f1);
        double e2 = new ReferenceStudent(w).energyAndForces(water, f2);
        assertEquals(e2, e1, 1e-9 * Math.abs(e2));
        for (int k = 0; k < 9; k++) {
            assertEquals(f2[k], f1[k], 1e-9 * (1 + Math.abs(f2[k])));
        }
        a.close();
        b.close();
    }

    @Test
    void noDriverIsAReasonNotACrash() {
        GpuAvailability.resetForTests();
        GpuAvailability.Probe p = GpuAvailability.probe();
        if (!p.available()) {
            assertFalse(p.reason().isBlank());
            ForceField ff = GpuAvailability.studentForceField(StudentWeights.random(4));
            assertFalse(ff instanceof CudaStudent);
            ff.close();
        } else {
            assertTrue(p.reason().isEmpty());
            assertFalse(p.device().equals("none"));
        }
    }
}
