package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.structures.io.Frame;
import org.molten.structures.io.PdbFormat;
import org.molten.structures.io.StructureFiles;

/**
 * {@code molten run --trajectory FILE.dcd} read by the real readers, MDAnalysis and mdtraj (Debian's
 * python3-mdanalysis and python3-mdtraj), with the PDB written beside it as the topology: a molecule
 * in a periodic box: its positions and cell equal the extended XYZ of the same seeded run within float32 precision, and a run
 * continued twice from checkpoints (once from an earlier one, so the DCD is cut back first) has the frame count
 * and frame times of the run done in one go. Skipped where the readers are missing, failing under CI=true.
 */
class RunDcdPeerTest {
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    /** One line per frame and reader: reader, frame, time (ps), a b c alpha beta gamma (Å, degrees), x y z ... (Å). */
    private static final String READERS = """
            import sys, warnings
            warnings.filterwarnings('ignore')
            import MDAnalysis as mda, mdtraj
            pdb, dcd = sys.argv[1:3]
            def line(*values):
                print(' '.join(str(v) if isinstance(v, str) else repr(float(v)) for v in values))
            u = mda.Universe(pdb, dcd)
            for ts in u.trajectory:
                line('mdanalysis', ts.frame, ts.time, *ts.dimensions, *ts.positions.ravel())
            t = mdtraj.load_dcd(dcd, top=pdb)
            for k in range(t.n_frames):
                line('mdtraj', k, t.time[k], *(t.unitcell_lengths[k] * 10), *t.unitcell_angles[k], *(t.xyz[k].ravel() * 10))
            """;

    @TempDir
    Path dir;

    @BeforeAll
    static void requireReaders() throws Exception {
        boolean present = Files.isExecutable(PYTHON);
        if (present) {
            Process p = new ProcessBuilder(PYTHON.toString(), "-c", "import MDAnalysis, mdtraj").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            present = p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0;
        }
        PeerTool.require(present, "MDAnalysis and mdtraj for " + PYTHON, "apt-get install python3-mdanalysis python3-mdtraj");
    }

    /** Ethanol in a periodic box of 10.5 Å (the student's 5 Å cutoff needs 10): seconds per run, a cell to check. */
    private Path box;

    private String[] run(String... extra) {
        List<String> a = new ArrayList<>(List.of("run", "--structure", box.toString(), "--integrator", "langevin", "--seed", "11",
                "--report-interval", "10", "--device", "cpu"));
        a.addAll(List.of(extra));
        return a.toArray(String[]::new);
    }

    private List<String> read(Path pdb, Path dcd) throws Exception {
        Path script = dir.resolve("readers.py");
        Files.writeString(script, READERS);
        Process p = new ProcessBuilder(PYTHON.toString(), script.toString(), pdb.toString(), dcd.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the readers did not finish");
        assertEquals(0, p.exitValue(), "the readers failed:\n" + out);
        return List.of(out.split("\n"));
    }

    @Test
    void mdanalysisAndMdtrajReadTheRunsPositionsCellAndTimesAcrossRestarts() throws Exception {
        box = dir.resolve("box.extxyz");
        StructureFiles.write(box, org.molten.structures.BuiltInMolecules.load("ethanol")
                .withCell(org.molten.core.Cell.orthorhombic(10.5, 10.5, 10.5)));
        Path xyz = dir.resolve("ref.extxyz");
        CliRun r = CliRun.of(run("--steps", "40", "--trajectory", xyz.toString()));
        assertEquals(0, r.status(), r.err());
        List<Frame> reference = StructureFiles.readAll(xyz);
        assertEquals(5, reference.size());

        // the same run in three pieces: to 20, on to 40, then again from the checkpoint at 20 (the DCD is cut back)
        Path dcd = dir.resolve("traj.dcd"), chk = dir.resolve("c.chk"), chk20 = dir.resolve("c20.chk");
        r = CliRun.of(run("--steps", "20", "--trajectory", dcd.toString(), "--checkpoint", chk.toString()));
        assertEquals(0, r.status(), r.err());
        Files.copy(chk, chk20, StandardCopyOption.REPLACE_EXISTING);
        r = CliRun.of(run("--steps", "40", "--trajectory", dcd.toString(), "--checkpoint", chk.toString(),
                "--restart", chk.toString()));
        assertEquals(0, r.status(), r.err());
        long fullLength = Files.size(dcd);
        r = CliRun.of(run("--steps", "40", "--trajectory", dcd.toString(), "--checkpoint", chk.toString(),
                "--restart", chk20.toString()));
        assertEquals(0, r.status(), r.err());
        assertEquals(fullLength, Files.size(dcd), "cut back to step 20's frames and continued, not appended to");

        Path pdb = dir.resolve("traj.pdb");
        assertTrue(Files.exists(pdb), "the topology beside the DCD");
        assertEquals(reference.get(0).atoms().size(), PdbFormat.readAll(pdb).get(0).atoms().size());
        List<String> lines = read(pdb, dcd);
        for (String reader : List.of("mdanalysis", "mdtraj")) {
            List<String[]> rows = lines.stream().filter(l -> l.startsWith(reader + " ")).map(l -> l.trim().split(" ")).toList();
            assertEquals(5, rows.size(), reader + ": frames at steps 0, 10, 20, 30, 40");
            for (int k = 0; k < 5; k++) {
                String[] row = rows.get(k);
                Frame ref = reference.get(k);
                double[] x = ref.atoms().positions();
                assertEquals(3 + 6 + x.length, row.length, reader + " frame " + k);
                if (reader.equals("mdanalysis")) {
                    // MDAnalysis: time = (ISTART + k NSAVC) x timestep, ps; 10 steps of 0.5 fs
                    assertEquals(0.005 * k, Double.parseDouble(row[2]), 1e-8, reader + " time of frame " + k);
                }
                double[][] cell = ref.atoms().cellOrNull().matrix();
                for (int c = 0; c < 3; c++) {
                    assertEquals(cell[c][c], Double.parseDouble(row[3 + c]), 1e-5, reader + " cell length " + c);
                    assertEquals(90.0, Double.parseDouble(row[6 + c]), 1e-4, reader + " cell angle " + c);
                }
                for (int i = 0; i < x.length; i++) {
                    double tolerance = Math.ulp((float) x[i]) + 1e-8;   // float32 in the DCD, 8 decimals in the XYZ
                    assertEquals(x[i], Double.parseDouble(row[9 + i]), reader.equals("mdtraj") ? 2 * tolerance : tolerance,
                            reader + " frame " + k + " coordinate " + i);
                }
            }
        }
    }

    @Test
    void replicasWriteOneDcdAndOneTopologyEach() throws Exception {
        box = dir.resolve("box.extxyz");
        StructureFiles.write(box, org.molten.structures.BuiltInMolecules.load("ethanol")
                .withCell(org.molten.core.Cell.orthorhombic(10.5, 10.5, 10.5)));
        Path dcd = dir.resolve("rep.dcd");
        CliRun r = CliRun.of(run("--steps", "20", "--replicas", "2", "--trajectory", dcd.toString()));
        assertEquals(0, r.status(), r.err());
        for (int k = 0; k < 2; k++) {
            Path own = dir.resolve("rep.r" + k + ".dcd");
            assertTrue(Files.exists(dir.resolve("rep.r" + k + ".pdb")), "replica " + k + "'s topology");
            java.nio.ByteBuffer header = java.nio.ByteBuffer.wrap(Files.readAllBytes(own)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            assertEquals(3, header.getInt(8), "replica " + k + ": frames at steps 0, 10, 20 in the header");
        }
        assertTrue(!Files.exists(dcd), "no unnumbered file beside the replicas'");
    }
}
