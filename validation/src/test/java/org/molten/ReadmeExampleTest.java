package org.molten;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.core.RandomStream;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.integrators.Integrator;
import org.molten.integrators.MaxwellBoltzmann;
import org.molten.integrators.Simulation;
import org.molten.integrators.VelocityVerlet;
import org.molten.integrators.reporters.EnergyLogReporter;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.structures.BuiltInMolecules;

/** The README's Java example, verbatim (but for the output folder), so the README cannot rot. */
class ReadmeExampleTest {

    @Test
    void readmeExampleRunsAndLogs(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("energy.csv");
        Atoms atoms = BuiltInMolecules.load("ethanol");                       // Å, standard masses in amu
        try (ForceField student = BundledModel.forceField()) {                // eV, eV/Å
            RandomStream rng = new RandomStream(42);
            int removed = MaxwellBoltzmann.at(300.0).assign(atoms, rng);       // K; removes centre-of-mass motion
            Integrator langevin = new VelocityVerlet(0.5, LangevinThermostat.of(300.0, 0.01)); // fs, K, 1/fs
            try (Simulation sim = Simulation.builder(atoms, student, langevin).random(rng, 42)
                    .removedConstraints(removed).build()) {
                sim.addReporter(EnergyLogReporter.create(log, 100)); // Time[ps],Etot[eV],...
                sim.step(2000);
            }
        }
        List<String> rows = Files.readAllLines(log).stream().filter(l -> !l.startsWith("#")).toList(); // the T[K] convention
        assertEquals(EnergyLogReporter.HEADER, rows.get(0));
        assertEquals(22, rows.size(), "header + steps 0, 100, ..., 2000");
        double t = Double.parseDouble(rows.get(rows.size() - 1).split(",")[4]);
        assertTrue(t > 100 && t < 600, "a 300 K Langevin run of ethanol ends at a sane temperature: " + t + " K");
    }
}
