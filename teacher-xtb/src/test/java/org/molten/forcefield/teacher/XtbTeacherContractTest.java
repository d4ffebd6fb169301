package org.molten.forcefield.teacher;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.structures.BuiltInMolecules;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the teacher refuses, how it fails, and its options. */
class XtbTeacherContractTest {

    private static void assertMentions(String message, String... parts) {
        for (String p : parts) {
            assertTrue(message.contains(p), "message lacks '" + p + "': " + message);
        }
    }

    @Test
    void refusesBrokenGeometriesNamingTheAtoms() {
        TeacherTestSupport.requireLibxtb();
        try (XtbTeacher teacher = XtbTeacher.gfn2().build()) {
            Atoms ethanol = BuiltInMolecules.load("ethanol");
            double[] f = new double[3 * ethanol.size()];
            Arrays.fill(f, 7.0);

            Atoms clash = ethanol.copy();
            System.arraycopy(clash.positions(), 3 * 2, clash.positions(), 3 * 5, 3); // atom 5 onto atom 2
            clash.positions()[3 * 5] += 0.02;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> teacher.energyAndForces(clash, f));
            assertMentions(e.getMessage(), "atoms 2 (", "and 5 (", "0.0200 Å apart", "closer than 0.1 Å");

            Atoms nan = ethanol.copy();
            nan.positions()[3 * 4 + 1] = Double.NaN;
            e = assertThrows(IllegalArgumentException.class, () -> teacher.energyAndForces(nan, f));
            assertMentions(e.getMessage(), "atom 4 (", "position y is NaN");

            Atoms periodic = ethanol.withCell(Cell.orthorhombic(12, 12, 12));
            e = assertThrows(IllegalArgumentException.class, () -> teacher.energyAndForces(periodic, f));
            assertMentions(e.getMessage(), "periodic cells are not supported", "libxtb 6.5.1");

            // a cell with no periodic direction is a molecule in a box: evaluated as the bare molecule
            double[] inBox = new double[f.length];
            double[] bare = new double[f.length];
            Atoms boxed = ethanol.withCell(Cell.of(new double[][]{{12, 0, 0}, {0, 12, 0}, {0, 0, 12}},
                    new boolean[]{false, false, false}));
            assertEquals(teacher.energyAndForces(ethanol, bare), teacher.energyAndForces(boxed, inBox), 0.0);
            assertArrayEquals(bare, inBox, 0.0);

            assertThrows(IllegalArgumentException.class, () -> teacher.energyAndForces(ethanol, new double[3]));
            assertTrue(Arrays.stream(f).allMatch(x -> x == 7.0), "a refused call wrote forces");
        }
        try (XtbTeacher doublet = XtbTeacher.gfn2().unpairedElectrons(1).build()) {
            Atoms water = BuiltInMolecules.load("water");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> doublet.energyAndForces(water, new double[9]));
            assertMentions(e.getMessage(), "1 unpaired electron", "H2O (10 electrons)", "parity");
        }
    }

    /** An SCF that does not converge is an exception with xtb's text, never a result. */
    @Test
    void scfFailureIsAnExceptionCarryingXtbsText() {
        TeacherTestSupport.requireLibxtb();
        try (XtbTeacher teacher = XtbTeacher.gfn2().maxScfIterations(1).build()) {
            Atoms ethanol = BuiltInMolecules.load("ethanol");
            double[] f = new double[3 * ethanol.size()];
            Arrays.fill(f, 7.0);
            TeacherFailureException e = assertThrows(TeacherFailureException.class, () -> teacher.energyAndForces(ethanol, f));
            assertMentions(e.getMessage(), "GFN2-xTB failed during the single point",
                    "Self consistent charge iterator did not converge");
            assertMentions(e.xtbError(), "did not converge");
            assertTrue(Arrays.stream(f).allMatch(x -> x == 7.0), "a failed call wrote forces");
            // the failure leaves the instance usable: the same call fails the same way, not with a native crash
            assertThrows(TeacherFailureException.class, () -> teacher.energyAndForces(ethanol, f));
        }
        try (XtbTeacher teacher = XtbTeacher.gfn2().build()) {
            Atoms ethanol = BuiltInMolecules.load("ethanol");
            teacher.energyAndForces(ethanol, new double[3 * ethanol.size()]); // converges with xtb's default limit
        }
    }

    /**
     * The finding behind refusing periodic cells: libxtb 6.5.1 itself stops GFN2-xTB with a lattice. If a newer
     * libxtb computes it, this test fails, and the refusal in TeacherGeometry can be lifted.
     */
    @Test
    void libxtbRefusesGfn2WithALattice() {
        TeacherTestSupport.requireLibxtb();
        XtbLibrary api = XtbLoader.load().api;
        double bohr = 1 / org.molten.core.Units.BOHR_IN_A;
        Pointer env = api.xtb_newEnvironment();
        api.xtb_setVerbosity(env, XtbLibrary.VERBOSITY_MUTED);
        double[] positions = {0, 0, 0, 0.96 * bohr, 0, 0, -0.24 * bohr, 0.93 * bohr, 0};
        double[] lattice = {10 * bohr, 0, 0, 0, 10 * bohr, 0, 0, 0, 10 * bohr};
        Pointer mol = api.xtb_newMolecule(env, new int[]{3}, new int[]{8, 1, 1}, positions, new double[]{0},
                new int[]{0}, lattice, new byte[]{1, 1, 1});
        Pointer calc = api.xtb_newCalculator();
        Pointer res = api.xtb_newResults();
        try {
            api.xtb_loadGFN2xTB(env, mol, calc, null);
            api.xtb_singlepoint(env, mol, calc, res);
            assertNotEquals(0, api.xtb_checkEnvironment(env), "libxtb ran GFN2-xTB with a lattice");
            byte[] buffer = new byte[2048];
            api.xtb_getError(env, buffer, new int[]{buffer.length});
            assertMentions(new String(buffer, java.nio.charset.StandardCharsets.UTF_8), "Multipoles not available with PBC");
        } finally {
            api.xtb_delResults(new PointerByReference(res));
            api.xtb_delCalculator(new PointerByReference(calc));
            api.xtb_delMolecule(new PointerByReference(mol));
            api.xtb_delEnvironment(new PointerByReference(env));
        }
    }

    @Test
    void chargeAndSpinChangeTheStateAndTheFingerprint() {
        TeacherTestSupport.requireLibxtb();
        Atoms water = BuiltInMolecules.load("water");
        double[] f0 = new double[9];
        double[] f1 = new double[9];
        try (XtbTeacher neutral = XtbTeacher.gfn2().build();
             XtbTeacher cation = XtbTeacher.gfn2().charge(1).unpairedElectrons(1).build()) {
            double e0 = neutral.energyAndForces(water, f0);
            double e1 = cation.energyAndForces(water, f1);
            // removing an electron costs the ionisation energy (GFN2-xTB's is ~10 eV above the neutral's, plus its shift)
            assertTrue(e1 - e0 > 5 && e1 - e0 < 25, "H2O+ minus H2O: " + (e1 - e0) + " eV");
            assertFalse(Arrays.equals(f0, f1));
            assertEquals("teacher/gfn2-xtb", neutral.name());
            assertMentions(neutral.parametersFingerprint(), "GFN2-xTB", "libxtb " + XtbTeacher.availability().xtbVersion(),
                    "charge 0 e", "unpaired electrons 0", "accuracy 1.0", "electronic temperature 300.0 K");
            assertMentions(cation.parametersFingerprint(), "charge 1 e", "unpaired electrons 1");
        }
        assertThrows(IllegalArgumentException.class, () -> XtbTeacher.gfn2().accuracy(0));
        assertThrows(IllegalArgumentException.class, () -> XtbTeacher.gfn2().unpairedElectrons(-1));
        assertThrows(IllegalArgumentException.class, () -> XtbTeacher.gfn2().electronicTemperatureK(Double.NaN));
    }

    /** The electronic temperature reaches xtb: a hot smearing changes the energy. */
    @Test
    void electronicTemperatureIsApplied() {
        TeacherTestSupport.requireLibxtb();
        Atoms benzene = BuiltInMolecules.load("benzene");
        double[] f = new double[3 * benzene.size()];
        try (XtbTeacher cold = XtbTeacher.gfn2().build();
             XtbTeacher hot = XtbTeacher.gfn2().electronicTemperatureK(20000).build()) {
            assertNotEquals(cold.energyAndForces(benzene, f), hot.energyAndForces(benzene, f), 1e-4);
        }
    }

    @Test
    void reusesHandlesForTheSameSpeciesAndRebuildsForOthers() {
        TeacherTestSupport.requireLibxtb();
        Atoms water = BuiltInMolecules.load("water");
        Atoms ethanol = BuiltInMolecules.load("ethanol");
        double[] fw = new double[9];
        double[] fe = new double[27];
        try (XtbTeacher teacher = XtbTeacher.gfn2().build()) {
            double ew = teacher.energyAndForces(water, fw);
            double ee = teacher.energyAndForces(ethanol, fe);
            double[] fw2 = new double[9];
            assertEquals(ew, teacher.energyAndForces(water, fw2), 0.0, "water again after ethanol");
            assertArrayEquals(fw, fw2, 0.0);
            assertEquals(1, teacher.sessions(), "one caller at a time needs one set of xtb handles");
            water.positions()[0] += 0.01;
            assertNotEquals(ew, teacher.energyAndForces(water, fw2), "moved positions reached xtb");
            assertTrue(ee < ew);
        }
    }

    @Test
    void callsAfterCloseFail() {
        TeacherTestSupport.requireLibxtb();
        XtbTeacher teacher = XtbTeacher.gfn2().build();
        Atoms water = BuiltInMolecules.load("water");
        teacher.energyAndForces(water, new double[9]);
        teacher.close();
        teacher.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> teacher.energyAndForces(water, new double[9]));
        assertMentions(e.getMessage(), "closed");
        assertEquals(0, teacher.sessions());
    }

    /** Without the library: availability says why, and building the teacher fails with the same sentence. */
    @Test
    void missingLibraryIsReportedWithTheInstallHint() {
        String previous = System.getProperty(XtbLoader.LIBRARY_PROPERTY);
        System.setProperty(XtbLoader.LIBRARY_PROPERTY, "/nonexistent/molten-test/libxtb.so.6");
        try {
            XtbTeacher.Availability a = XtbTeacher.availability();
            assertFalse(a.available());
            assertMentions(a.reason(), "libxtb.so.6 not found: install libxtb6 (apt-get install libxtb6)",
                    "/nonexistent/molten-test/libxtb.so.6");
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> XtbTeacher.gfn2().build());
            assertEquals(a.reason(), e.getMessage());
        } finally {
            if (previous == null) {
                System.clearProperty(XtbLoader.LIBRARY_PROPERTY);
            } else {
                System.setProperty(XtbLoader.LIBRARY_PROPERTY, previous);
            }
        }
        assertEquals("libxtb.so.6 not found: install libxtb6 (apt-get install libxtb6)", XtbLoader.MISSING);
    }
}
