package org.molten.forcefield.bundled;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.Element;
import org.molten.core.Units;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.io.ExtendedXyzFormat;
import org.molten.structures.io.Frame;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The labelled data: the shipped test set and the training/validation files parse, hold the
 * systems they claim, and their units are eV and eV/Å (checked against the teacher itself when
 * {@code xtb} is installed).
 */
class TestSetTest {
    /** Training data, relative to the forcefield module (surefire's working directory). */
    static final Path TRAINING_DATA = Path.of("training", "data");

    @Test
    void everyShippedSystemParsesWithEnergiesAndForcesInEvUnits() throws IOException {
        Map<String, List<Frame>> all = TestSet.bundled();
        assertEquals(TestSet.SYSTEMS, new ArrayList<>(all.keySet()));
        for (Map.Entry<String, List<Frame>> e : all.entrySet()) {
            List<Frame> frames = e.getValue();
            assertTrue(frames.size() >= 30, e.getKey() + ": only " + frames.size() + " frames");
            double sq = 0;
            long comps = 0;
            for (Frame f : frames) {
                // GFN2-xTB total energies of H/C/N/O molecules are -30 to -50 eV per atom
                // (Hartree would give about -1.5, kcal/mol about -900).
                double perAtom = f.energyEv().getAsDouble() / f.atoms().size();
                assertTrue(perAtom < -30 && perAtom > -50, e.getKey() + ": " + perAtom + " eV/atom");
                for (double v : f.forcesEvPerA().orElseThrow()) {
                    sq += v * v;
                    comps++;
                }
            }
            // 300 K forces: RMS of order 1 eV/Å (Hartree/Bohr would be ~50x smaller)
            double rms = Math.sqrt(sq / comps);
            assertTrue(rms > 0.2 && rms < 5, e.getKey() + ": force RMS " + rms + " eV/Å");
        }
    }

    @Test
    void moleculesAreTheShippedGeometriesChemistry() throws IOException {
        for (String name : List.of("water", "ethanol", "benzene", "alanine-dipeptide", "ace-ala5-nme")) {
            Atoms shipped = BuiltInMolecules.load(name);
            for (Frame f : TestSet.bundled(name)) {
                assertArrayEquals(shipped.atomicNumbers(), f.atoms().atomicNumbers(), name + ": atom order or species differ");
            }
        }
        for (Frame f : TestSet.bundled("water-clusters")) {
            int[] z = f.atoms().atomicNumbers();
            int n = z.length / 3;
            assertTrue(n >= 2 && n <= 8 && z.length == 3 * n, "cluster of " + z.length + " atoms");
            for (int m = 0; m < n; m++) {
                assertArrayEquals(new int[]{8, 1, 1}, Arrays.copyOfRange(z, 3 * m, 3 * m + 3));
            }
        }
    }

    @Test
    void trainingAndValidationFilesParseAndMatchTheirManifest() throws IOException {
        JsonNode manifest = new ObjectMapper().readTree(TRAINING_DATA.resolve("dataset.json").toFile());
        JsonNode systems = manifest.get("systems");
        assertEquals(TestSet.SYSTEMS.size(), systems.size());
        for (String name : TestSet.SYSTEMS) {
            JsonNode s = systems.get(name);
            assertNotNull(s, "dataset.json lacks " + name);
            for (String split : List.of("train", "val")) {
                List<Frame> frames = ExtendedXyzFormat.readAll(TRAINING_DATA.resolve(name + "." + split + ".xyz.gz"));
                assertEquals(s.get(split).asInt(), frames.size(), name + "." + split);
                for (Frame f : frames) {
                    assertTrue(f.energyEv().isPresent() && f.hasForces(), name + "." + split + ": unlabelled frame");
                }
            }
            assertEquals(s.get("test").asInt(), TestSet.bundled(name).size(), name + " test");
        }
    }

    /** One frame per system family recomputed with the teacher: the stored labels are xtb's, in eV and eV/Å. */
    @Test
    void teacherRecomputesStoredLabels(@TempDir Path dir) throws Exception {
        PeerTool.require(xtbAvailable(), "xtb on the PATH (the GFN2-xTB teacher)", "apt-get install xtb");
        for (String system : List.of("ethanol", "water-clusters")) {
            Frame f = TestSet.bundled(system).get(5);
            double[] ref = f.forcesEvPerA().orElseThrow();
            double[] teacher = new double[ref.length];
            double e = runXtb(f.atoms(), dir.resolve(system), teacher);
            assertEquals(f.energyEv().getAsDouble(), e, 1e-6, system + ": energy (eV)");
            for (int k = 0; k < ref.length; k++) {
                assertEquals(ref[k], teacher[k], 1e-5, system + ": force component " + k + " (eV/Å)");
            }
        }
    }

    static boolean xtbAvailable() {
        try {
            Process p = new ProcessBuilder("xtb", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** GFN2-xTB single point with gradient: returns the energy in eV and writes forces in eV/Å. */
    static double runXtb(Atoms atoms, Path dir, double[] forces) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        StringBuilder xyz = new StringBuilder(atoms.size() + "\n\n");
        double[] p = atoms.positions();
        for (int i = 0; i < atoms.size(); i++) {
            xyz.append(String.format(Locale.ROOT, "%s %.10f %.10f %.10f%n", Element.ofAtomicNumber(atoms.atomicNumber(i)).symbol(),
                    p[3 * i], p[3 * i + 1], p[3 * i + 2]));
        }
        Files.writeString(dir.resolve("x.xyz"), xyz);
        ProcessBuilder pb = new ProcessBuilder("xtb", "x.xyz", "--gfn", "2", "--grad", "--chrg", "0", "--uhf", "0",
                "--norestart").directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("xtb.log").toFile());
        pb.environment().put("OMP_NUM_THREADS", "1");
        Process proc = pb.start();
        assertTrue(proc.waitFor(300, TimeUnit.SECONDS), "xtb did not finish");
        assertEquals(0, proc.exitValue(), "xtb failed, see " + dir.resolve("xtb.log"));
        // x.engrad (ORCA style): '#' comment lines, atom count, energy (Hartree), gradient (Hartree/Bohr)
        List<String> values = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("x.engrad"))) {
            if (!line.isBlank() && !line.strip().startsWith("#")) {
                values.add(line.strip());
            }
        }
        assertEquals(atoms.size(), Integer.parseInt(values.get(0)));
        for (int k = 0; k < forces.length; k++) {
            forces[k] = -Double.parseDouble(values.get(2 + k)) * Units.HARTREE_IN_EV / Units.BOHR_IN_A;
        }
        return Double.parseDouble(values.get(1)) * Units.HARTREE_IN_EV;
    }
}
