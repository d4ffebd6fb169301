package org.molten.validation.runs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.validation.BaselineKind;
import org.molten.validation.DeviceChoice;
import org.molten.validation.ThermostatKind;
import org.molten.validation.ValidationSettings;
import org.molten.validation.reports.Thresholds;

/**
 * Mixed batches of a validation (issue 29): the replicas of all its systems that share a cell run as one batch per
 * phase, here on the host's "cpu" platform (which runs a ReplicaSet as the device does, each replica advanced on its
 * own, so the comparison is bit for bit: on the device it holds to the batch's float32 rounding, forcefield's
 * MixedBatchTest). Each system's replicas give the energy logs and outcomes of that system's own batch.
 */
class DeviceReplicasTest {
    private static final ModelProvider MODELS = BundledModels.bundled(OptimisedStudent.Precision.FLOAT64);

    /** Water and ethanol, 2 replicas, 6 equilibration + 16 NVE + 16 NVT steps, no teacher frames. */
    private static ValidationSettings settings(List<String> systems) {
        return new ValidationSettings(systems, 300.0, 0.5, 6, 16, 16, 1, ThermostatKind.BUSSI, 50.0, DeviceChoice.CPU,
                BaselineKind.REFERENCE, 21, false, 2, 0, List.of());
    }

    @Test
    void aMixedBatchGivesEachSystemWhatItsOwnBatchGives(@TempDir Path dir) throws Exception {
        List<String> names = List.of("water", "ethanol");
        ValidationSettings s = settings(names);
        List<SystemSource> systems = names.stream().map(SystemSource::builtIn).toList();
        assertEquals(List.of(List.of(0, 1)), DeviceReplicas.batches(systems, s), "isolated molecules share one batch");
        List<String> phases = new ArrayList<>();
        Progress seen = new Progress() {
            @Override
            public void phase(String text) {
                phases.add(text);
            }

            @Override
            public void advance(long steps) {
            }
        };
        List<ReplicaOutcome> mixed;
        try (WorkerModels models = new WorkerModels(MODELS, s, 1, new ArrayList<>())) {
            mixed = DeviceReplicas.run(systems, "cpu", s, Thresholds.defaults(), models, dir.resolve("mixed"), seen,
                    w -> { });
        }
        assertTrue(phases.contains("water, ethanol: optimised NVT (cpu, 4 replicas of 2 systems in one batch)"),
                phases.toString());
        assertEquals(4, mixed.size());
        for (int i = 0; i < systems.size(); i++) {
            List<ReplicaOutcome> alone;
            Path own = dir.resolve("alone-" + names.get(i));
            try (WorkerModels models = new WorkerModels(MODELS, s, 1, new ArrayList<>())) {
                alone = DeviceReplicas.run(systems.get(i), "cpu", s, Thresholds.defaults(), models, own, Progress.NONE,
                        w -> { });
            }
            for (int k = 0; k < s.replicas(); k++) {
                ReplicaOutcome m = mixed.get(i * s.replicas() + k);
                ReplicaOutcome a = alone.get(k);
                String what = names.get(i) + " replica " + k;
                assertEquals(a.replica(), m.replica(), what);
                assertEquals(a.seed(), m.seed(), what);
                assertEquals(a.start().size(), m.start().size(), what + ": the outcome of another system");
                assertArrayEquals(a.nve().finalState().positions(), m.nve().finalState().positions(), what + ": NVE end");
                assertArrayEquals(a.nvt().finalState().velocities(), m.nvt().finalState().velocities(), what + ": NVT end");
                for (String phase : List.of("equilibration", "optimised-nve", "optimised-nvt")) {
                    String log = names.get(i) + "-r" + k + "-" + phase + ".csv";
                    assertEquals(data(own.resolve(log)), data(dir.resolve("mixed").resolve(log)), what + ": " + log);
                }
            }
        }
    }

    @Test
    void periodicSystemsBatchWithTheSystemsOfTheirCell() {
        List<SystemSource> systems = List.of(SystemSource.builtIn("water"), SystemSource.builtIn("water-box"),
                SystemSource.builtIn("ethanol"));
        assertEquals(List.of(List.of(0, 2), List.of(1)), DeviceReplicas.batches(systems,
                settings(List.of("water", "water-box", "ethanol"))));
    }

    /** The numeric rows of an energy log (comment and header lines dropped). */
    private static List<String> data(Path csv) throws Exception {
        return Files.readAllLines(csv).stream().filter(l -> !l.isBlank() && (Character.isDigit(l.strip().charAt(0))
                || l.strip().charAt(0) == '-')).toList();
    }
}
