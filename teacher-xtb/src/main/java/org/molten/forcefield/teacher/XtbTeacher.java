package org.molten.forcefield.teacher;

import org.molten.core.Atoms;
import org.molten.core.ForceField;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * The teacher of Molten's student, GFN2-xTB (C. Bannwarth, S. Ehlert, S. Grimme, J. Chem. Theory Comput. 15, 1652
 * (2019)), in-process through the xtb C API of libxtb 6.x: no process per call, no temporary files. Energy in eV,
 * forces in eV/Å (F = −∇E), converted from xtb's Hartree and Hartree/Bohr with the project's CODATA 2018 constants
 * ({@link org.molten.core.Units}), the conversion the training labels used.
 *
 * <pre>{@code
 * if (XtbTeacher.availability().available()) {
 *     try (XtbTeacher teacher = XtbTeacher.gfn2().charge(0).unpairedElectrons(0).build()) {
 *         double eV = teacher.energyAndForces(atoms, forcesEvPerA);
 *     }
 * }
 * }</pre>
 *
 * <p><b>Each call is a fresh single point.</b> The SCF starts from xtb's initial guess every time (not from the
 * previous call's wavefunction), so a result depends on the geometry alone, as the training labels did (they were
 * made with {@code xtb --norestart}); the molecule and calculator are reused between calls with the same atomic
 * numbers, the positions updated in place.
 *
 * <p><b>Thread-safety:</b> unlike most force fields, an instance is safe for concurrent calls. Each call borrows a
 * set of xtb handles (environment, molecule, calculator) that no other call uses at the same time: an idle one
 * built for the same atomic numbers if there is one, else another idle one (rebuilt), else a new one, so the
 * instance holds at most as many as calls were ever in flight at once. Each call runs xtb on one OpenMP thread of
 * the calling thread; run calls on several threads for parallelism. {@link #close()} frees every handle (those in
 * use when the last call returns); calls after close fail with {@link IllegalStateException}.
 *
 * <p><b>Failures:</b> a geometry that cannot be evaluated (a periodic cell, a non-finite coordinate, two atoms
 * closer than {@value #MIN_DISTANCE_A} Å, an element beyond Rn, a charge and spin that do not fit the electron
 * count) is refused with an {@link IllegalArgumentException} naming the atoms; an error of xtb (an SCF that does
 * not converge) is a {@link TeacherFailureException} carrying xtb's text. Neither writes to the forces array.
 *
 * <p><b>Periodic cells</b> are refused: libxtb 6.5.1 stops GFN2-xTB with a lattice ("Multipoles not available with
 * PBC"). A cell whose directions are all non-periodic is ignored (an isolated molecule in a box).
 */
public final class XtbTeacher implements ForceField {
    /** Two atoms closer than this (Å) are refused as a broken geometry. */
    public static final double MIN_DISTANCE_A = 0.1;
    /** Heaviest element GFN2-xTB is parametrised for (Rn). */
    public static final int MAX_ATOMIC_NUMBER = 86;

    private final XtbLoader loaded;
    private final XtbSettings settings;
    private final Deque<XtbSession> idle = new ArrayDeque<>();
    private int inUse;
    private boolean closed;

    /**
     * Whether libxtb can be loaded here (the library named by the system property {@code molten.xtb.library},
     * default {@code libxtb.so.6}).
     *
     * @param available  true when the teacher can run
     * @param reason     "" when available, else one sentence, e.g. "libxtb.so.6 not found: install libxtb6
     *                   (apt-get install libxtb6)"
     * @param xtbVersion the library's version ("6.5.1"), "" when not available
     */
    public record Availability(boolean available, String reason, String xtbVersion) {
    }

    private XtbTeacher(XtbLoader loaded, XtbSettings settings) {
        this.loaded = loaded;
        this.settings = settings;
    }

    /** Whether libxtb can be loaded, and if not why; loads it on first use, never throws. */
    public static Availability availability() {
        XtbLoader l = XtbLoader.load();
        return new Availability(l.api != null, l.unavailableReason, l.version);
    }

    /** A builder for GFN2-xTB, by default neutral and closed-shell at xtb's default accuracy and 300 K. */
    public static Builder gfn2() {
        return new Builder();
    }

    /** Options of the teacher; {@link #build()} loads libxtb. */
    public static final class Builder {
        private int charge;
        private int unpairedElectrons;
        private double accuracy = 1.0;
        private double electronicTemperatureK = 300.0;
        private int maxScfIterations;

        private Builder() {
        }

        /** Total charge of the system in e (default 0). */
        public Builder charge(int chargeE) {
            this.charge = chargeE;
            return this;
        }

        /**
         * Number of unpaired electrons, xtb's {@code --uhf} (default 0, a singlet; 1 a doublet, 2 a triplet).
         *
         * @throws IllegalArgumentException if negative
         */
        public Builder unpairedElectrons(int count) {
            if (count < 0) {
                throw new IllegalArgumentException("unpaired electrons must be >= 0, got " + count);
            }
            this.unpairedElectrons = count;
            return this;
        }

        /**
         * xtb's accuracy factor, 1e-4 to 1e3 (default 1.0, as {@code xtb --acc 1}): it scales the SCF convergence
         * thresholds and integral cut-offs; smaller is tighter and slower.
         *
         * @throws IllegalArgumentException outside [1e-4, 1e3]
         */
        public Builder accuracy(double factor) {
            if (!(factor >= 1e-4 && factor <= 1e3)) {
                throw new IllegalArgumentException("xtb accuracy must be in [1e-4, 1000], got " + factor);
            }
            this.accuracy = factor;
            return this;
        }

        /**
         * Electronic temperature of the Fermi smearing in K (default 300, as {@code xtb --etemp 300}).
         *
         * @throws IllegalArgumentException unless positive and finite
         */
        public Builder electronicTemperatureK(double kelvin) {
            if (!(kelvin > 0) || Double.isInfinite(kelvin)) {
                throw new IllegalArgumentException("electronic temperature must be positive and finite, got " + kelvin + " K");
            }
            this.electronicTemperatureK = kelvin;
            return this;
        }

        /** SCF iteration limit (xtb's default 250); for tests that need an SCF to fail. */
        Builder maxScfIterations(int iterations) {
            if (iterations < 1) {
                throw new IllegalArgumentException("SCF iteration limit must be >= 1, got " + iterations);
            }
            this.maxScfIterations = iterations;
            return this;
        }

        /**
         * The teacher. Native handles are made on the first call, not here.
         *
         * @throws IllegalStateException if libxtb cannot be loaded, with {@link Availability#reason()} as message
         */
        public XtbTeacher build() {
            XtbLoader l = XtbLoader.load();
            if (l.api == null) {
                throw new IllegalStateException(l.unavailableReason);
            }
            return new XtbTeacher(l, new XtbSettings(charge, unpairedElectrons, accuracy, electronicTemperatureK,
                    maxScfIterations));
        }
    }

    /** "teacher/gfn2-xtb". */
    @Override
    public String name() {
        return "teacher/gfn2-xtb";
    }

    /**
     * Method, library version and every setting that changes a result, e.g. "GFN2-xTB, libxtb 6.5.1, charge 0 e,
     * unpaired electrons 0, accuracy 1.0, electronic temperature 300.0 K, SCF from the initial guess".
     */
    @Override
    public String parametersFingerprint() {
        return String.format(Locale.ROOT, "GFN2-xTB, libxtb %s, charge %d e, unpaired electrons %d, accuracy %s,"
                        + " electronic temperature %s K, SCF from the initial guess%s", loaded.version, settings.charge(),
                settings.unpairedElectrons(), settings.accuracy(), settings.electronicTemperatureK(),
                settings.maxScfIterations() > 0 ? ", at most " + settings.maxScfIterations() + " SCF iterations" : "");
    }

    /**
     * GFN2-xTB energy and forces.
     *
     * @param atoms  an isolated molecule or cluster (positions in Å)
     * @param forces output, length 3N: F = −∇E in eV/Å; untouched if the call fails
     * @return the total energy in eV (xtb's total energy, not an atomisation energy)
     * @throws IllegalArgumentException  for a geometry the teacher refuses (see the class comment), naming atoms
     * @throws TeacherFailureException   if xtb fails (SCF not converged), with xtb's text
     * @throws IllegalStateException     after {@link #close()}
     */
    @Override
    public double energyAndForces(Atoms atoms, double[] forces) {
        ForceField.requireOutputLengths(atoms, forces, null);
        int[] z = atoms.atomicNumbers();
        double[] positions = atoms.positions().clone(); // the caller's array is live: read it once
        TeacherGeometry.requireEvaluable(atoms, z, positions, settings);
        XtbSession session = borrow(z);
        try {
            double[] f = new double[forces.length];
            double e = session.energyAndForces(z, positions, f);
            System.arraycopy(f, 0, forces, 0, f.length);
            return e;
        } finally {
            giveBack(session);
        }
    }

    /** An idle session, preferring one built for these atomic numbers, else a new one. */
    private XtbSession borrow(int[] z) {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException(name() + " is closed");
            }
            XtbSession pick = null;
            for (Iterator<XtbSession> it = idle.iterator(); it.hasNext(); ) {
                XtbSession s = it.next();
                if (Arrays.equals(s.numbers(), z)) {
                    pick = s;
                    it.remove();
                    break;
                }
            }
            if (pick == null) {
                pick = idle.pollFirst();
            }
            inUse++;
            if (pick != null) {
                return pick;
            }
        }
        try {
            return new XtbSession(loaded, settings); // outside the lock: creating one calls xtb
        } catch (RuntimeException e) {
            synchronized (this) {
                inUse--;
            }
            throw e;
        }
    }

    private void giveBack(XtbSession session) {
        boolean free;
        synchronized (this) {
            inUse--;
            free = closed;
            if (!free) {
                idle.addFirst(session);
            }
        }
        if (free) {
            session.close();
        }
    }

    /** Frees the native handles of idle sessions now and of busy ones when their call returns; idempotent. */
    @Override
    public void close() {
        List<XtbSession> toFree;
        synchronized (this) {
            closed = true;
            toFree = new ArrayList<>(idle);
            idle.clear();
        }
        for (XtbSession s : toFree) {
            s.close();
        }
    }

    /** Number of sets of xtb handles this instance holds now (idle and in use); for tests. */
    synchronized int sessions() {
        return idle.size() + inUse;
    }
}
