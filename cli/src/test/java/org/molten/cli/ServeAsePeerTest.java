package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.io.StructureFiles;

/**
 * The real driver: ASE 3.22's {@code SocketIOCalculator} (the server) runs velocity Verlet and BFGS with
 * {@code molten serve} as its calculator, over loopback TCP and a UNIX socket. At every step the energy and
 * forces ASE received equal Molten's own at the positions ASE sent, and the BFGS minimum is
 * {@code molten minimize}'s; for a periodic cell the stress ASE makes of Molten's virial equals ASE's own
 * numerical stress (central differences of the energy under strain, each energy served by Molten). Skipped where
 * {@code /usr/bin/python3} cannot import ase, failing under CI=true.
 */
class ServeAsePeerTest {
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    /** ASE drives; one row per step: energy (eV), positions (Å), forces (eV/Å). */
    private static final String DRIVER = """
            import sys, numpy as np
            from ase import units
            from ase.io import read
            from ase.calculators.socketio import SocketIOCalculator
            mode, structure, where, out = sys.argv[1:5]
            atoms = read(structure)
            rows = []
            where = dict(unixsocket=where[5:]) if where.startswith('unix:') else dict(port=int(where))
            with SocketIOCalculator(timeout=120, **where) as calc:
                atoms.calc = calc
                def record():
                    rows.append(np.concatenate([[atoms.get_potential_energy()], atoms.positions.ravel(),
                                                atoms.get_forces().ravel()]))
                if mode == 'md':
                    from ase.md.velocitydistribution import MaxwellBoltzmannDistribution
                    from ase.md.verlet import VelocityVerlet
                    MaxwellBoltzmannDistribution(atoms, temperature_K=300, rng=np.random.RandomState(7))
                    dyn = VelocityVerlet(atoms, 0.5 * units.fs)
                    dyn.attach(record, interval=1)
                    dyn.run(40)
                else:
                    from ase.optimize import BFGS
                    opt = BFGS(atoms, logfile=None)
                    opt.attach(record, interval=1)
                    print('converged', opt.run(fmax=1e-3, steps=300))
            np.savetxt(out, np.array(rows), fmt='%.17g')
            print('rows', len(rows))
            """;

    @TempDir
    Path dir;

    @BeforeAll
    static void requireAse() throws Exception {
        boolean present = Files.isExecutable(PYTHON);
        if (present) {
            Process p = new ProcessBuilder(PYTHON.toString(), "-c", "import ase.calculators.socketio")
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            present = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        }
        PeerTool.require(present, "ASE for " + PYTHON, "apt-get install python3-ase");
    }

    /** Starts ASE as the driver, serves it with molten serve, returns ASE's rows. */
    private List<double[]> drive(String mode, Path structure, String pythonAddress, String moltenAddress) throws Exception {
        Path script = dir.resolve("driver.py");
        Files.writeString(script, DRIVER);
        Path rows = dir.resolve(mode + "-rows.txt");
        Path log = dir.resolve(mode + "-python.log");
        Process py = new ProcessBuilder(PYTHON.toString(), script.toString(), mode, structure.toString(), pythonAddress,
                rows.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            CliRun r = CliRun.of("serve", "--ipi", moltenAddress, "--structure", structure.toString(), "--device", "cpu",
                    "--wait", "60");
            assertTrue(py.waitFor(120, TimeUnit.SECONDS), "ASE did not finish");
            String pyOut = Files.readString(log);
            assertEquals(0, r.status(), r.err() + "\nASE:\n" + pyOut);
            assertEquals(0, py.exitValue(), "ASE failed:\n" + pyOut);
            assertTrue(r.out().contains("closed the connection between steps"), r.out());
            List<double[]> out = new ArrayList<>();
            for (String line : Files.readAllLines(rows, StandardCharsets.UTF_8)) {
                String[] t = line.trim().split("\\s+");
                double[] v = new double[t.length];
                for (int k = 0; k < t.length; k++) {
                    v[k] = Double.parseDouble(t[k]);
                }
                out.add(v);
            }
            assertTrue(r.out().contains(out.size() + " force evaluations") || mode.equals("bfgs"), r.out());
            return out;
        } finally {
            py.destroy();
        }
    }

    /** Checks each row against Molten's own student at ASE's positions; returns the last row's positions. */
    private static double[] assertForcesAreMoltens(Atoms species, List<double[]> rows) throws IOException {
        int n = species.size();
        try (ForceField own = new OptimisedStudent(BundledModel.weights())) {
            double[] f = new double[3 * n];
            for (int s = 0; s < rows.size(); s++) {
                double[] row = rows.get(s);
                assertEquals(1 + 6 * n, row.length, "row " + s);
                double[] pos = java.util.Arrays.copyOfRange(row, 1, 1 + 3 * n);
                double e = own.energyAndForces(Atoms.of(species.atomicNumbers(), pos, null), f);
                // ASE 3.22 converts with CODATA 2014 Bohr and Hartree, Molten with 2018: ~1e-8 relative
                assertEquals(e, row[0], 1e-8 * Math.abs(e) + 1e-7, "energy (eV) at step " + s);
                for (int k = 0; k < 3 * n; k++) {
                    assertEquals(f[k], row[1 + 3 * n + k], 1e-6, "force component " + k + " (eV/Å) at step " + s);
                }
            }
            return java.util.Arrays.copyOfRange(rows.get(rows.size() - 1), 1, 1 + 3 * n);
        }
    }

    @Test
    void aseVelocityVerletOverTcpGetsMoltensForcesAtEveryStep() throws Exception {
        Atoms ethanol = BuiltInMolecules.load("ethanol");
        Path structure = dir.resolve("ethanol.xyz");
        StructureFiles.write(structure, ethanol);
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        List<double[]> rows = drive("md", structure, Integer.toString(port), "localhost:" + port);
        assertEquals(41, rows.size(), "40 velocity-Verlet steps and the start");
        assertForcesAreMoltens(ethanol, rows);
        // the structure moved: these are 41 different force evaluations, not one repeated
        assertTrue(Math.abs(rows.get(0)[1] - rows.get(40)[1]) > 1e-3, "the atoms moved");
    }

    @Test
    void aseBfgsOverAUnixSocketEndsAtMoltenMinimizesMinimum() throws Exception {
        Path start = dir.resolve("squeezed.xyz");
        Files.writeString(start, "3\nsqueezed water\nO 0 0 0\nH 0.7 0 0\nH -0.2 0.7 0\n");
        String name = "molten-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        List<double[]> rows = drive("bfgs", start, "unix:" + name, "unix:" + name);
        Atoms species = StructureFiles.read(start);
        double[] aseMin = assertForcesAreMoltens(species, rows);
        assertTrue(rows.size() > 5, "BFGS took " + rows.size() + " steps");

        Path relaxed = dir.resolve("relaxed.xyz");
        CliRun m = CliRun.of("minimize", "--structure", start.toString(), "--fmax", "1e-3", "--device", "cpu",
                "--out", relaxed.toString());
        assertEquals(0, m.status(), m.err());
        Atoms moltenMin = StructureFiles.read(relaxed);
        Atoms aseAtoms = Atoms.of(species.atomicNumbers(), aseMin, null);
        // the same minimum, whatever rigid motion each optimiser made: the three distances, Å
        for (int[] pair : new int[][] {{0, 1}, {0, 2}, {1, 2}}) {
            assertEquals(moltenMin.distance(pair[0], pair[1]), aseAtoms.distance(pair[0], pair[1]), 1e-3,
                    "distance " + pair[0] + "-" + pair[1] + " (Å)");
        }
        assertTrue(Math.abs(moltenMin.distance(0, 1) - 0.70) > 0.1, "both left the squeezed start");
    }

    /** ASE's stress from the virial Molten returns, and ASE's own central differences of the energy under strain. */
    private static final String STRESS = """
            import sys, numpy as np
            from ase.io import read
            from ase.calculators.socketio import SocketIOCalculator
            structure, port = sys.argv[1], int(sys.argv[2])
            atoms = read(structure)
            with SocketIOCalculator(port=port, timeout=120) as calc:
                atoms.calc = calc
                print('virial', *[repr(float(x)) for x in atoms.get_stress(voigt=True)])
                print('numerical', *[repr(float(x)) for x in calc.calculate_numerical_stress(atoms, d=1e-5, voigt=True)])
            """;

    @Test
    void aPeriodicBoxsVirialGivesAseTheStressOfItsOwnStrainDerivative() throws Exception {
        // a perturbed ethanol in a periodic box of 10.5 Å (the student's cutoff needs 10): forces of ~1 eV/Å, so a
        // stress of ~1e-3 eV/Å³ from within the molecule, in 13 evaluations per call that take milliseconds
        Atoms ethanol = BuiltInMolecules.load("ethanol");
        org.molten.core.RandomStream rng = new org.molten.core.RandomStream(3);
        double[] moved = ethanol.positions().clone();
        for (int k = 0; k < moved.length; k++) {
            moved[k] += 5.0 + 0.08 * rng.nextGaussian();
        }
        Path structure = dir.resolve("ethanol-box.extxyz");
        StructureFiles.write(structure, Atoms.of(ethanol.atomicNumbers(), moved, org.molten.core.Cell.orthorhombic(10.5, 10.5, 10.5)));
        Path script = dir.resolve("stress.py");
        Files.writeString(script, STRESS);
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Path log = dir.resolve("stress.log");
        Process py = new ProcessBuilder(PYTHON.toString(), script.toString(), structure.toString(), Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            CliRun r = CliRun.of("serve", "--ipi", "localhost:" + port, "--structure", structure.toString(), "--device", "cpu",
                    "--wait", "60");
            assertTrue(py.waitFor(180, TimeUnit.SECONDS), "ASE did not finish");
            String out = Files.readString(log);
            assertEquals(0, r.status(), r.err() + "\nASE:\n" + out);
            assertEquals(0, py.exitValue(), "ASE failed:\n" + out);
            double[] virial = null, numerical = null;
            for (String line : out.split("\n")) {
                String[] t = line.trim().split(" ");
                double[] v = new double[t.length - 1];
                for (int k = 1; k < t.length; k++) {
                    v[k - 1] = t.length == 7 ? Double.parseDouble(t[k]) : 0;
                }
                if (t[0].equals("virial")) {
                    virial = v;
                } else if (t[0].equals("numerical")) {
                    numerical = v;
                }
            }
            assertTrue(virial != null && numerical != null, out);
            double largest = 0;
            for (int k = 0; k < 6; k++) {
                // eV/Å³; Molten's strain step 1e-4 and ASE's 1e-5, both central: ~1e-9 here, the stress ~3e-3
                assertEquals(numerical[k], virial[k], 1e-7, "Voigt stress component " + k + " (eV/Å³)");
                largest = Math.max(largest, Math.abs(numerical[k]));
            }
            assertTrue(largest > 1e-4, "a stress to compare (eV/Å³): " + java.util.Arrays.toString(numerical));
        } finally {
            py.destroy();
        }
    }
}
