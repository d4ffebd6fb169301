package org.molten.forcefield.teacher;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import org.molten.core.Units;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One set of xtb handles: an environment (muted), and for one list of atomic numbers a molecule and a GFN2-xTB
 * calculator. New positions go in through {@code xtb_updateMolecule}; other atomic numbers rebuild the molecule and
 * the calculator. Each single point starts from a fresh results object, so its SCF starts from xtb's initial guess
 * and the answer is a function of the geometry alone (as the command line's {@code --norestart}, with which the
 * training labels were made), never of the calls before it.
 *
 * <p>Every xtb call runs on the session's own {@link XtbWorker} thread (a large stack for xtb's Fortran). Not
 * thread-safe: {@link XtbTeacher} lends a session to one call at a time.
 */
final class XtbSession implements AutoCloseable {
    // Å → Bohr and Hartree/Bohr → eV/Å with the project's CODATA 2018 constants (Units, training/units.py)
    private static final double BOHR_PER_A = 1.0 / Units.BOHR_IN_A;
    private static final double EV_PER_A_PER_HARTREE_PER_BOHR = Units.HARTREE_IN_EV / Units.BOHR_IN_A;
    private static final Pattern ERROR_LINE = Pattern.compile("^\\s*-(\\d+)-\\s*(.*)$");

    private final XtbLibrary api;
    private final XtbLibrary.OpenMp openMp;
    private final XtbSettings settings;
    private final XtbWorker worker = new XtbWorker();
    private Pointer env;
    private Pointer mol;
    private Pointer calc;
    private int[] numbers = new int[0];
    private double[] positionsBohr = new double[0];
    private double[] gradient = new double[0];
    private final double[] energy = new double[1];

    XtbSession(XtbLoader loaded, XtbSettings settings) {
        this.api = loaded.api;
        this.openMp = loaded.openMp;
        this.settings = settings;
        try {
            worker.call(() -> {
                env = api.xtb_newEnvironment();
                if (env == null) {
                    throw new TeacherFailureException("xtb could not create a calculation environment", "");
                }
                api.xtb_setVerbosity(env, XtbLibrary.VERBOSITY_MUTED);
                check("setting up the xtb environment");
                return null;
            });
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * GFN2-xTB energy and forces of one geometry (validated by the caller).
     *
     * @param atomicNumbers Z per atom
     * @param positionsA    positions in Å, flat [3N]
     * @param forcesEvPerA  output, flat [3N]: F = −∇E in eV/Å
     * @return the total energy in eV
     * @throws TeacherFailureException when xtb reports an error (SCF not converged, ...)
     */
    double energyAndForces(int[] atomicNumbers, double[] positionsA, double[] forcesEvPerA) {
        return worker.call(() -> compute(atomicNumbers, positionsA, forcesEvPerA));
    }

    /** {@link #energyAndForces}, on the worker thread. */
    private double compute(int[] atomicNumbers, double[] positionsA, double[] forcesEvPerA) {
        if (openMp != null) {
            openMp.omp_set_num_threads(1); // this caller's parallel regions only; parallelism comes from callers
        }
        int n = atomicNumbers.length;
        if (positionsBohr.length != 3 * n) {
            positionsBohr = new double[3 * n]; // another atom count: build() below makes a new molecule
        }
        for (int i = 0; i < 3 * n; i++) {
            positionsBohr[i] = positionsA[i] * BOHR_PER_A;
        }
        if (mol == null || !Arrays.equals(numbers, atomicNumbers)) {
            build(atomicNumbers);
        } else {
            api.xtb_updateMolecule(env, mol, positionsBohr, null);
            check("updating the positions");
        }
        PointerByReference res = new PointerByReference(api.xtb_newResults());
        try {
            api.xtb_singlepoint(env, mol, calc, res.getValue());
            check("the single point");
            api.xtb_getEnergy(env, res.getValue(), energy);
            api.xtb_getGradient(env, res.getValue(), gradient);
            check("reading energy and gradient");
        } finally {
            api.xtb_delResults(res);
        }
        for (int i = 0; i < 3 * n; i++) {
            forcesEvPerA[i] = -gradient[i] * EV_PER_A_PER_HARTREE_PER_BOHR;
        }
        return energy[0] * Units.HARTREE_IN_EV;
    }

    /** A molecule and a loaded calculator for these atomic numbers at {@link #positionsBohr}. */
    private void build(int[] atomicNumbers) {
        freeMoleculeAndCalculator();
        int n = atomicNumbers.length;
        numbers = atomicNumbers.clone();
        gradient = new double[3 * n];
        mol = api.xtb_newMolecule(env, new int[]{n}, numbers, positionsBohr, new double[]{settings.charge()},
                new int[]{settings.unpairedElectrons()}, null, null);
        check("setting up the molecule");
        calc = api.xtb_newCalculator();
        api.xtb_loadGFN2xTB(env, mol, calc, null);
        check("loading the GFN2-xTB parameters");
        api.xtb_setAccuracy(env, calc, settings.accuracy());
        api.xtb_setElectronicTemp(env, calc, settings.electronicTemperatureK());
        if (settings.maxScfIterations() > 0) {
            api.xtb_setMaxIter(env, calc, settings.maxScfIterations());
        }
        check("configuring the GFN2-xTB calculator");
    }

    /** The atomic numbers this session's molecule was built for (empty if none). */
    int[] numbers() {
        return numbers;
    }

    /** Throws with xtb's error stack if the environment holds an error, emptying it. */
    private void check(String during) {
        if (api.xtb_checkEnvironment(env) != 0) {
            byte[] buffer = new byte[4096];
            api.xtb_getError(env, buffer, new int[]{buffer.length});
            int end = 0;
            while (end < buffer.length && buffer[end] != 0) {
                end++;
            }
            String raw = new String(buffer, 0, end, StandardCharsets.UTF_8).strip();
            // A failed step leaves the molecule or calculator half made: rebuild next time.
            freeMoleculeAndCalculator();
            throw new TeacherFailureException("GFN2-xTB failed during " + during + ": " + readable(raw), raw);
        }
    }

    /**
     * xtb's error stack ("-2- outer: text\n-1- inner: text") as one sentence, innermost cause first:
     * "Self consistent charge iterator did not converge (scf); Electronic structure method terminated
     * (xtb_calculator_singlepoint)".
     */
    static String readable(String raw) {
        List<String[]> entries = new ArrayList<>();
        for (String line : raw.split("\\R")) {
            Matcher m = ERROR_LINE.matcher(line);
            if (m.matches()) {
                String body = m.group(2).strip();
                int colon = body.indexOf(": ");
                String text = colon > 0 ? body.substring(colon + 2).strip() + " (" + body.substring(0, colon) + ")" : body;
                entries.add(new String[]{m.group(1), text});
            } else if (!line.isBlank()) {
                entries.add(new String[]{"0", line.strip()});
            }
        }
        if (entries.isEmpty()) {
            return "xtb reported an error without a message";
        }
        entries.sort((a, b) -> Integer.compare(Integer.parseInt(a[0]), Integer.parseInt(b[0])));
        StringBuilder sb = new StringBuilder();
        for (String[] e : entries) {
            sb.append(sb.length() == 0 ? "" : "; ").append(e[1]);
        }
        return sb.toString();
    }

    private void freeMoleculeAndCalculator() {
        if (calc != null) {
            api.xtb_delCalculator(new PointerByReference(calc));
            calc = null;
        }
        if (mol != null) {
            api.xtb_delMolecule(new PointerByReference(mol));
            mol = null;
        }
        numbers = new int[0];
    }

    /** Frees every native handle; idempotent. */
    @Override
    public void close() {
        worker.call(() -> {
            freeMoleculeAndCalculator();
            if (env != null) {
                api.xtb_delEnvironment(new PointerByReference(env));
                env = null;
            }
            return null;
        });
        worker.close();
    }
}
