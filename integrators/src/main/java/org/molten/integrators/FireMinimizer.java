package org.molten.integrators;

import org.molten.core.Atoms;
import org.molten.core.Checks;
import org.molten.core.ForceField;

/**
 * Local energy minimisation by FIRE, the fast inertial relaxation engine (Bitzek, Koskinen, Gähler,
 * Moseler and Gumbsch, Phys. Rev. Lett. 97, 170201 (2006)): damped dynamics whose velocity is turned
 * towards the force while the system goes downhill (F·v > 0) and zeroed when it does not, with a time
 * step that grows after {@value #N_MIN} downhill steps and halves on each stop. What MD users do before
 * dynamics from a built or edited structure (OpenMM's minimizeEnergy, LAMMPS's minimize, ASE's optimizers),
 * so that the first steps do not start from a collision.
 *
 * <p>The rules, constants and units are ASE's ({@code ase.optimize.FIRE}, checked step for step against
 * ASE 3.22 by {@code FireMinimizerTest}): the forces in eV/Å act as accelerations on unit masses, the
 * explicit Euler step v += dt F, Δr = dt v, is capped at {@link Options#maxStepA()} Å of total
 * displacement, and the step count, the convergence test (the largest atomic force below
 * {@link Options#fmaxEvPerA()}) and the time step (0.1 to start, at most 1.0, in ASE's unit
 * √(amu·Å²/eV) ≈ 10.18 fs) mean the same as there. Positions only: the cell of a periodic system is
 * kept, atoms are not wrapped.
 */
public final class FireMinimizer {
    /** Downhill steps before the time step may grow. */
    static final int N_MIN = 5;
    /** Growth and cut of the time step. */
    static final double F_INC = 1.1;
    static final double F_DEC = 0.5;
    /** Mixing parameter at the start and after each stop, and its decay on growth. */
    static final double A_START = 0.1;
    static final double F_A = 0.99;

    /**
     * Settings of a minimisation.
     *
     * @param fmaxEvPerA converged when the largest force on any atom is below this, eV/Å (ASE's fmax)
     * @param maxSteps   at most this many FIRE steps (each one force evaluation)
     * @param dt         the initial time step, in ASE's unit √(amu·Å²/eV) with unit masses (ASE: 0.1)
     * @param dtMax      the largest time step (ASE: 1.0)
     * @param maxStepA   the largest total displacement of one step, Å (the 3N-vector's norm; ASE: 0.2)
     */
    public record Options(double fmaxEvPerA, int maxSteps, double dt, double dtMax, double maxStepA) {
        /** ASE's defaults, with fmax = 0.05 eV/Å and at most 1,000 steps. */
        public static final Options DEFAULTS = new Options(0.05, 1000, 0.1, 1.0, 0.2);

        public Options {
            Checks.requirePositive(fmaxEvPerA, "fmax (eV/Å)");
            if (maxSteps < 0) {
                throw new IllegalArgumentException("maximum steps must not be negative: " + maxSteps);
            }
            Checks.requirePositive(dt, "FIRE time step");
            Checks.requirePositive(dtMax, "FIRE largest time step");
            if (dtMax < dt) {
                throw new IllegalArgumentException("FIRE largest time step " + dtMax + " is below the initial " + dt);
            }
            Checks.requirePositive(maxStepA, "largest step (Å)");
        }

        /** These options with another convergence bound, eV/Å. */
        public Options withFmax(double fmaxEvPerA) {
            return new Options(fmaxEvPerA, maxSteps, dt, dtMax, maxStepA);
        }

        /** These options with another step limit. */
        public Options withMaxSteps(int maxSteps) {
            return new Options(fmaxEvPerA, maxSteps, dt, dtMax, maxStepA);
        }
    }

    /**
     * The outcome: the atoms passed to {@link #minimize} hold the final positions.
     *
     * @param converged      whether the largest force fell below fmax
     * @param steps          FIRE steps taken (force evaluations after the first)
     * @param energyEv       potential energy at the final positions, eV
     * @param maxForceEvPerA largest force on an atom at the final positions, eV/Å
     * @param forcesEvPerA   the forces at the final positions, eV/Å (3N)
     */
    public record Result(boolean converged, int steps, double energyEv, double maxForceEvPerA, double[] forcesEvPerA) {
    }

    /** Called with the state before the first step (step 0) and after every step; atoms must not be changed. */
    @FunctionalInterface
    public interface Observer {
        void step(int step, double energyEv, double maxForceEvPerA, Atoms atoms, double[] forcesEvPerA);
    }

    private FireMinimizer() {
    }

    /**
     * Relaxes the positions of {@code atoms} (changed in place) on {@code forceField}.
     *
     * @throws IllegalStateException when the energy or a force is not finite, naming the step
     */
    public static Result minimize(Atoms atoms, ForceField forceField, Options options, Observer observer) {
        int n3 = 3 * atoms.size();
        double[] r = atoms.positions();
        double[] f = new double[n3];
        double[] v = new double[n3];
        double e = evaluate(forceField, atoms, f, 0);
        double fmax2 = maxAtomForce2(f);
        double bound2 = options.fmaxEvPerA() * options.fmaxEvPerA();
        observer.step(0, e, Math.sqrt(fmax2), atoms, f);
        double dt = options.dt();
        double a = A_START;
        int downhill = 0;
        int step = 0;
        // ASE's test: the largest |F_i|^2 below fmax^2
        while (!(fmax2 < bound2) && step < options.maxSteps()) {
            if (step > 0) {  // ASE's first step starts from v = 0 and changes neither dt nor a
                double vf = dot(f, v);
                if (vf > 0.0) {
                    double normF = Math.sqrt(dot(f, f)), normV = Math.sqrt(dot(v, v));
                    for (int i = 0; i < n3; i++) {
                        v[i] = (1.0 - a) * v[i] + a * f[i] / normF * normV;
                    }
                    if (downhill > N_MIN) {
                        dt = Math.min(dt * F_INC, options.dtMax());
                        a *= F_A;
                    }
                    downhill++;
                } else {
                    java.util.Arrays.fill(v, 0.0);
                    a = A_START;
                    dt *= F_DEC;
                    downhill = 0;
                }
            }
            double dr2 = 0;
            for (int i = 0; i < n3; i++) {
                v[i] += dt * f[i];
                double d = dt * v[i];
                dr2 += d * d;
            }
            double norm = Math.sqrt(dr2);
            for (int i = 0; i < n3; i++) {
                double d = dt * v[i];
                r[i] += norm > options.maxStepA() ? options.maxStepA() * d / norm : d;
            }
            step++;
            e = evaluate(forceField, atoms, f, step);
            fmax2 = maxAtomForce2(f);
            observer.step(step, e, Math.sqrt(fmax2), atoms, f);
        }
        return new Result(fmax2 < bound2, step, e, Math.sqrt(fmax2), f.clone());
    }

    /** As {@link #minimize(Atoms, ForceField, Options, Observer)} without an observer. */
    public static Result minimize(Atoms atoms, ForceField forceField, Options options) {
        return minimize(atoms, forceField, options, (s, e, fm, at, f) -> { });
    }

    private static double evaluate(ForceField ff, Atoms atoms, double[] f, int step) {
        double e = ff.energyAndForces(atoms, f);
        if (!Double.isFinite(e)) {
            throw new IllegalStateException("minimisation step " + step + ": the energy is " + e);
        }
        for (int i = 0; i < f.length; i++) {
            if (!Double.isFinite(f[i])) {
                throw new IllegalStateException("minimisation step " + step + ": the force on atom " + i / 3 + " is "
                        + f[i] + " eV/Å");
            }
        }
        return e;
    }

    /** The largest |F_i|^2 over the atoms, (eV/Å)^2. */
    static double maxAtomForce2(double[] f) {
        double m = 0;
        for (int i = 0; i < f.length; i += 3) {
            m = Math.max(m, f[i] * f[i] + f[i + 1] * f[i + 1] + f[i + 2] * f[i + 2]);
        }
        return m;
    }

    private static double dot(double[] x, double[] y) {
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            s += x[i] * y[i];
        }
        return s;
    }
}
