package org.molten.forcefield.teacher;

import org.molten.core.Atoms;
import org.molten.forcefield.bundled.TestSet;
import org.molten.structures.WaterBox;
import org.molten.structures.io.Frame;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One instance called from two threads at once gives, bit for bit, what one thread gives. */
class XtbTeacherThreadsTest {

    @Test
    void twoThreadsAtOnceGiveTheResultsOfOne() throws Exception {
        TeacherTestSupport.requireLibxtb();
        // species alternate, so that borrowed handles are reused and rebuilt while the other thread computes
        List<Atoms> work = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            for (String system : List.of("ethanol", "alanine-dipeptide", "water-clusters", "water")) {
                Frame f = TestSet.bundled(system).get(11 * k + 3);
                work.add(f.atoms());
            }
        }
        work.add(TestSet.bundled("ace-ala5-nme").get(0).atoms());
        double[] serialEnergies = new double[work.size()];
        double[][] serialForces = new double[work.size()][];
        try (XtbTeacher teacher = XtbTeacher.gfn2().build()) {
            for (int i = 0; i < work.size(); i++) {
                serialForces[i] = new double[3 * work.get(i).size()];
                serialEnergies[i] = teacher.energyAndForces(work.get(i), serialForces[i]);
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (XtbTeacher teacher = XtbTeacher.gfn2().build()) {
            CyclicBarrier start = new CyclicBarrier(2);
            List<Future<double[][]>> results = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                final boolean reversed = t == 1; // the two threads walk the list in opposite orders
                results.add(pool.submit(() -> {
                    start.await();
                    // per structure: 3N forces (eV/Å) followed by the energy (eV)
                    double[][] out = new double[work.size()][];
                    for (int j = 0; j < work.size(); j++) {
                        int i = reversed ? work.size() - 1 - j : j;
                        Atoms mine = work.get(i).copy();
                        double[] f = new double[3 * mine.size()];
                        double e = teacher.energyAndForces(mine, f);
                        out[i] = Arrays.copyOf(f, f.length + 1);
                        out[i][f.length] = e;
                    }
                    return out;
                }));
            }
            for (int t = 0; t < 2; t++) {
                double[][] out = results.get(t).get();
                for (int i = 0; i < work.size(); i++) {
                    int n3 = 3 * work.get(i).size();
                    assertEquals(serialEnergies[i], out[i][n3], 0.0, "thread " + t + ", structure " + i + ": energy (eV)");
                    assertArrayEquals(serialForces[i], Arrays.copyOf(out[i], n3), 0.0,
                            "thread " + t + ", structure " + i + ": forces (eV/Å)");
                }
            }
            assertTrue(teacher.sessions() <= 2, teacher.sessions() + " sets of xtb handles for 2 threads");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A caller on a thread with a small stack (256 KiB) is safe: xtb runs on the teacher's own large-stack thread.
     * Run on such a caller's thread, xtb overflowed its stack on this 90-atom water cluster and took the JVM down
     * (SIGSEGV in libxtb; the test run then reports a crashed fork). Three SCF iterations keep it short: the call
     * must end in a Java exception, not a crash.
     */
    @Test
    void callersWithSmallStacksAreSafe() throws Exception {
        TeacherTestSupport.requireLibxtb();
        Atoms cluster = WaterBox.build(30, 7).withCell(null);
        Throwable[] outcome = new Throwable[1];
        try (XtbTeacher teacher = XtbTeacher.gfn2().maxScfIterations(3).build()) {
            Thread small = new Thread(null, () -> {
                try {
                    teacher.energyAndForces(cluster, new double[3 * cluster.size()]);
                } catch (Throwable t) {
                    outcome[0] = t;
                }
            }, "small-stack-caller", 256 << 10);
            small.start();
            small.join();
        }
        assertTrue(outcome[0] instanceof TeacherFailureException, "expected the SCF limit to stop xtb, got " + outcome[0]);
    }
}
