package org.molten.integrators.constraints;

import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.dynamics.ConstraintSet;

/**
 * Holds a {@link ConstraintSet} during velocity Verlet: RATTLE (Andersen, J. Comput. Phys. 52, 24
 * (1983)) for the pairs, SETTLE (Miyamoto and Kollman, J. Comput. Chem. 13, 952 (1992)) for rigid
 * waters. The integrator calls {@link #beginDrift} before a drift and {@link #constrainPositions}
 * after it (positions moved back onto the constraints along the bond vectors of the start of the
 * drift, velocities corrected by the same displacement over the drift's time), and
 * {@link #constrainVelocities} after each final kick (and a thermostat after it changes the
 * velocities other than by a uniform scaling), so that velocities are tangent to the constraint
 * surface: r_ij · v_ij = 0.
 *
 * <p>The pair iterations are those of ASE's FixBondLengths (Gauss–Seidel over the pairs in
 * order, until every correction is below the set's tolerance), so a run reproduces ASE's
 * VelocityVerlet with FixBondLengths. Rigid waters are solved analytically, positions by SETTLE
 * and velocities by the exact 3 × 3 solve of their three constraints. Minimum-image bond vectors
 * throughout. Not thread-safe: one per simulation.
 */
public final class ConstraintSolver {
    /** Iterations of RATTLE before a constraint counts as failed (ASE's FixBondLengths uses 500). */
    public static final int MAX_ITERATIONS = 1000;
    private static final ConstraintSolver NONE = new ConstraintSolver(ConstraintSet.none(), new double[0]);

    private final ConstraintSet set;
    private final int pairs;
    private final int waters;
    private final int[] first;
    private final int[] second;
    private final double[] length2;
    private final double[] invMass;    // 1/amu per atom
    private final double[] reference;  // positions at the start of the drift, [3N]
    private final double[] vectors;    // bond vectors r_j - r_i, [3P]: of the reference, then of the current positions
    private final double[] lambda;     // accumulated position corrections per pair
    private final double[] waterRef;   // O->H1, O->H2 at the reference, [6W]
    private final double[] scratch = new double[3];

    private ConstraintSolver(ConstraintSet set, double[] invMass) {
        this.set = set;
        this.pairs = set.pairCount();
        this.waters = set.waterCount();
        this.first = new int[pairs];
        this.second = new int[pairs];
        this.length2 = new double[pairs];
        for (int k = 0; k < pairs; k++) {
            first[k] = set.first(k);
            second[k] = set.second(k);
            length2[k] = set.lengthA(k) * set.lengthA(k);
        }
        this.invMass = invMass;
        this.reference = new double[invMass.length * 3];
        this.vectors = new double[3 * pairs];
        this.lambda = new double[pairs];
        this.waterRef = new double[6 * waters];
    }

    /** A solver that does nothing. */
    public static ConstraintSolver none() {
        return NONE;
    }

    /**
     * A solver of {@code set} for {@code atoms} (their masses).
     *
     * @throws IllegalArgumentException for an atom index out of range, or a rigid water whose two
     *                                  hydrogens have different masses
     */
    public static ConstraintSolver of(ConstraintSet set, Atoms atoms) {
        if (set.isEmpty()) {
            return NONE;
        }
        int n = atoms.size();
        double[] inv = new double[n];
        for (int i = 0; i < n; i++) {
            inv[i] = 1.0 / atoms.massAmu(i);
        }
        for (int k = 0; k < set.pairCount(); k++) {
            requireAtom(set.first(k), n);
            requireAtom(set.second(k), n);
        }
        for (int w = 0; w < set.waterCount(); w++) {
            for (int a = 0; a < 3; a++) {
                requireAtom(set.waterAtom(w, a), n);
            }
            if (atoms.massAmu(set.waterAtom(w, 1)) != atoms.massAmu(set.waterAtom(w, 2))) {
                throw new IllegalArgumentException("rigid water of atoms " + set.waterAtom(w, 0) + ", " + set.waterAtom(w, 1)
                        + ", " + set.waterAtom(w, 2) + ": SETTLE needs two hydrogens of one mass");
            }
        }
        return new ConstraintSolver(set, inv);
    }

    private static void requireAtom(int i, int n) {
        if (i < 0 || i >= n) {
            throw new IllegalArgumentException("constraint names atom " + i + " but the system has " + n + " atoms (0 to "
                    + (n - 1) + ")");
        }
    }

    /** The constraints. */
    public ConstraintSet set() {
        return set;
    }

    /** True when nothing is constrained (every call is then a no-op). */
    public boolean isEmpty() {
        return set.isEmpty();
    }

    /** Degrees of freedom removed by the constraints. */
    public int count() {
        return set.count();
    }

    /** Remembers the positions and bond vectors at the start of a drift. */
    public void beginDrift(Atoms atoms) {
        if (isEmpty()) {
            return;
        }
        System.arraycopy(atoms.positions(), 0, reference, 0, reference.length);
        for (int k = 0; k < pairs; k++) {
            atoms.displacement(first[k], second[k], scratch);
            vectors[3 * k] = scratch[0];
            vectors[3 * k + 1] = scratch[1];
            vectors[3 * k + 2] = scratch[2];
        }
        for (int w = 0; w < waters; w++) {
            int o = set.waterAtom(w, 0);
            for (int h = 0; h < 2; h++) {
                atoms.displacement(o, set.waterAtom(w, 1 + h), scratch);
                System.arraycopy(scratch, 0, waterRef, 6 * w + 3 * h, 3);
            }
        }
    }

    /**
     * After a drift of {@code intervalFs} (fs) from the positions given to {@link #beginDrift}: moves
     * the positions back onto the constraints and adds the displacement / interval to the velocities.
     *
     * @throws ConstraintFailureException when RATTLE does not converge or SETTLE has no solution
     */
    public void constrainPositions(Atoms atoms, double intervalFs) {
        if (isEmpty()) {
            return;
        }
        solvePairPositions(atoms, 1.0 / intervalFs);
        for (int w = 0; w < waters; w++) {
            settlePositions(atoms, w, 1.0 / intervalFs);
        }
    }

    /**
     * Removes from the velocities their components along the constraints (r_ij · v_ij = 0),
     * conserving linear and angular momentum.
     *
     * @throws ConstraintFailureException when RATTLE does not converge
     */
    public void constrainVelocities(Atoms atoms) {
        if (isEmpty()) {
            return;
        }
        solvePairVelocities(atoms);
        for (int w = 0; w < waters; w++) {
            settleVelocities(atoms, w);
        }
    }

    /**
     * Puts a starting state onto the constraints: positions projected (the velocities are not
     * changed by the move), then velocities.
     *
     * @throws IllegalArgumentException naming the atoms when the start cannot satisfy the set (no
     *                                  convergence, or an atom would move more than {@code maxMoveA})
     */
    public void projectStart(Atoms atoms, double maxMoveA) {
        if (isEmpty()) {
            return;
        }
        double[] before = atoms.positions().clone();
        try {
            beginDrift(atoms);
            solvePairPositions(atoms, 0.0);
            for (int w = 0; w < waters; w++) {
                settlePositions(atoms, w, 0.0);
            }
            constrainVelocities(atoms);
        } catch (ConstraintFailureException e) {
            System.arraycopy(before, 0, atoms.positions(), 0, before.length);
            throw new IllegalArgumentException("the start cannot satisfy the constraints: " + e.getMessage(), e);
        }
        double[] r = atoms.positions();
        for (int i = 0; i < atoms.size(); i++) {
            double dx = r[3 * i] - before[3 * i], dy = r[3 * i + 1] - before[3 * i + 1], dz = r[3 * i + 2] - before[3 * i + 2];
            double move = Math.sqrt(dx * dx + dy * dy + dz * dz);
            if (move > maxMoveA) {
                System.arraycopy(before, 0, r, 0, before.length);
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                        "the start cannot satisfy the constraints: atom %d (%s) would move %.3f A (more than %s A) to meet "
                                + "them; %s", i, atoms.element(i), move, maxMoveA, worstPair(atoms, before)));
            }
        }
    }

    private String worstPair(Atoms atoms, double[] positions) {
        Atoms start = Atoms.of(atoms.atomicNumbers(), atoms.massesAmu(), positions, atoms.velocities(), atoms.cellOrNull());
        int worst = -1;
        double err = -1;
        for (int k = 0; k < pairs; k++) {
            double e = Math.abs(start.distance(first[k], second[k]) - Math.sqrt(length2[k]));
            if (e > err) {
                err = e;
                worst = k;
            }
        }
        if (worst < 0) {
            return "a rigid water is far from its geometry";
        }
        return String.format(Locale.ROOT, "the largest misfit is atoms %d (%s) and %d (%s): %.4f A apart, constrained to %.4f A",
                first[worst], atoms.element(first[worst]), second[worst], atoms.element(second[worst]),
                start.distance(first[worst], second[worst]), Math.sqrt(length2[worst]));
    }

    /** The largest |distance − length| / length over every constraint (pairs and waters' three). */
    public double maxRelativeLengthError(Atoms atoms) {
        double worst = 0;
        for (int k = 0; k < pairs; k++) {
            double d = Math.sqrt(length2[k]);
            worst = Math.max(worst, Math.abs(atoms.distance(first[k], second[k]) - d) / d);
        }
        for (int w = 0; w < waters; w++) {
            int o = set.waterAtom(w, 0), h1 = set.waterAtom(w, 1), h2 = set.waterAtom(w, 2);
            double oh = set.waterOhA(w), hh = set.waterHhA(w);
            worst = Math.max(worst, Math.abs(atoms.distance(o, h1) - oh) / oh);
            worst = Math.max(worst, Math.abs(atoms.distance(o, h2) - oh) / oh);
            worst = Math.max(worst, Math.abs(atoms.distance(h1, h2) - hh) / hh);
        }
        return worst;
    }

    /** The largest |r̂_ij · v_ij| over every constraint, Å/fs. */
    public double maxBondVelocity(Atoms atoms) {
        double worst = 0;
        double[] v = atoms.velocities();
        for (int k = 0; k < pairs; k++) {
            worst = Math.max(worst, bondVelocity(atoms, v, first[k], second[k]));
        }
        for (int w = 0; w < waters; w++) {
            int o = set.waterAtom(w, 0), h1 = set.waterAtom(w, 1), h2 = set.waterAtom(w, 2);
            worst = Math.max(worst, Math.max(bondVelocity(atoms, v, o, h1),
                    Math.max(bondVelocity(atoms, v, o, h2), bondVelocity(atoms, v, h1, h2))));
        }
        return worst;
    }

    private double bondVelocity(Atoms atoms, double[] v, int i, int j) {
        atoms.displacement(i, j, scratch);
        double d = Math.sqrt(scratch[0] * scratch[0] + scratch[1] * scratch[1] + scratch[2] * scratch[2]);
        double dot = scratch[0] * (v[3 * j] - v[3 * i]) + scratch[1] * (v[3 * j + 1] - v[3 * i + 1])
                + scratch[2] * (v[3 * j + 2] - v[3 * i + 2]);
        return Math.abs(dot) / d;
    }

    // ---- RATTLE: pairs ----

    /** SHAKE on the positions; with {@code perFs} > 0 the velocities get the displacement × perFs. */
    private void solvePairPositions(Atoms atoms, double perFs) {
        if (pairs == 0) {
            return;
        }
        double[] r = atoms.positions();
        double tol = set.tolerance();
        java.util.Arrays.fill(lambda, 0.0);
        for (int iter = 0; iter < MAX_ITERATIONS; iter++) {
            boolean converged = true;
            for (int k = 0; k < pairs; k++) {
                int i = first[k], j = second[k];
                double sx = vectors[3 * k], sy = vectors[3 * k + 1], sz = vectors[3 * k + 2];
                double dx = sx + (r[3 * j] - reference[3 * j]) - (r[3 * i] - reference[3 * i]);
                double dy = sy + (r[3 * j + 1] - reference[3 * j + 1]) - (r[3 * i + 1] - reference[3 * i + 1]);
                double dz = sz + (r[3 * j + 2] - reference[3 * j + 2]) - (r[3 * i + 2] - reference[3 * i + 2]);
                double x = 0.5 * (length2[k] - (dx * dx + dy * dy + dz * dz)) / (sx * dx + sy * dy + sz * dz);
                if (!(Math.abs(x) <= tol)) {
                    if (!Double.isFinite(x)) {
                        throw failure(atoms, k, "its bond vector turned perpendicular to the last step's (no solution)");
                    }
                    converged = false;
                    double m = 1.0 / (invMass[i] + invMass[j]);
                    double ci = x * m * invMass[i], cj = x * m * invMass[j];
                    r[3 * j] += cj * sx;
                    r[3 * j + 1] += cj * sy;
                    r[3 * j + 2] += cj * sz;
                    r[3 * i] -= ci * sx;
                    r[3 * i + 1] -= ci * sy;
                    r[3 * i + 2] -= ci * sz;
                    lambda[k] += x * m;
                }
            }
            if (converged) {
                if (perFs > 0) {
                    addPositionCorrectionsToVelocities(atoms.velocities(), perFs);
                }
                return;
            }
        }
        throw failure(atoms, worstPositionPair(r), "RATTLE did not converge in " + MAX_ITERATIONS + " iterations");
    }

    private void addPositionCorrectionsToVelocities(double[] v, double perFs) {
        for (int k = 0; k < pairs; k++) {
            int i = first[k], j = second[k];
            double ci = lambda[k] * invMass[i] * perFs, cj = lambda[k] * invMass[j] * perFs;
            v[3 * j] += cj * vectors[3 * k];
            v[3 * j + 1] += cj * vectors[3 * k + 1];
            v[3 * j + 2] += cj * vectors[3 * k + 2];
            v[3 * i] -= ci * vectors[3 * k];
            v[3 * i + 1] -= ci * vectors[3 * k + 1];
            v[3 * i + 2] -= ci * vectors[3 * k + 2];
        }
    }

    private int worstPositionPair(double[] r) {
        int worst = 0;
        double err = -1;
        for (int k = 0; k < pairs; k++) {
            int i = first[k], j = second[k];
            double dx = vectors[3 * k] + (r[3 * j] - reference[3 * j]) - (r[3 * i] - reference[3 * i]);
            double dy = vectors[3 * k + 1] + (r[3 * j + 1] - reference[3 * j + 1]) - (r[3 * i + 1] - reference[3 * i + 1]);
            double dz = vectors[3 * k + 2] + (r[3 * j + 2] - reference[3 * j + 2]) - (r[3 * i + 2] - reference[3 * i + 2]);
            double e = Math.abs(Math.sqrt(dx * dx + dy * dy + dz * dz) - Math.sqrt(length2[k]));
            if (!(e <= err)) {
                err = e;
                worst = k;
            }
        }
        return worst;
    }

    private void solvePairVelocities(Atoms atoms) {
        if (pairs == 0) {
            return;
        }
        double[] v = atoms.velocities();
        for (int k = 0; k < pairs; k++) {   // the bond vectors of the current positions
            atoms.displacement(first[k], second[k], scratch);
            vectors[3 * k] = scratch[0];
            vectors[3 * k + 1] = scratch[1];
            vectors[3 * k + 2] = scratch[2];
        }
        double tol = set.tolerance();
        for (int iter = 0; iter < MAX_ITERATIONS; iter++) {
            boolean converged = true;
            for (int k = 0; k < pairs; k++) {
                int i = first[k], j = second[k];
                double dx = vectors[3 * k], dy = vectors[3 * k + 1], dz = vectors[3 * k + 2];
                double x = -(dx * (v[3 * j] - v[3 * i]) + dy * (v[3 * j + 1] - v[3 * i + 1])
                        + dz * (v[3 * j + 2] - v[3 * i + 2])) / length2[k];
                if (!(Math.abs(x) <= tol)) {
                    if (!Double.isFinite(x)) {
                        throw failure(atoms, k, "its velocity is not finite");
                    }
                    converged = false;
                    double m = 1.0 / (invMass[i] + invMass[j]);
                    double ci = x * m * invMass[i], cj = x * m * invMass[j];
                    v[3 * j] += cj * dx;
                    v[3 * j + 1] += cj * dy;
                    v[3 * j + 2] += cj * dz;
                    v[3 * i] -= ci * dx;
                    v[3 * i + 1] -= ci * dy;
                    v[3 * i + 2] -= ci * dz;
                }
            }
            if (converged) {
                return;
            }
        }
        int worst = 0;
        double err = -1;
        for (int k = 0; k < pairs; k++) {
            double e = bondVelocity(atoms, v, first[k], second[k]);
            if (e > err) {
                err = e;
                worst = k;
            }
        }
        throw failure(atoms, worst, "the velocity half of RATTLE did not converge in " + MAX_ITERATIONS + " iterations");
    }

    private ConstraintFailureException failure(Atoms atoms, int k, String why) {
        int i = first[k], j = second[k];
        return new ConstraintFailureException(i, j, String.format(Locale.ROOT,
                "constraint between atoms %d (%s) and %d (%s), length %.4f A, now %.4f A apart: %s", i, atoms.element(i), j,
                atoms.element(j), Math.sqrt(length2[k]), atoms.distance(i, j), why));
    }

    // ---- SETTLE: rigid waters ----

    private void settlePositions(Atoms atoms, int w, double perFs) {
        int o = set.waterAtom(w, 0), h1 = set.waterAtom(w, 1), h2 = set.waterAtom(w, 2);
        double[] r = atoms.positions();
        double mO = 1.0 / invMass[o], mH = 1.0 / invMass[h1];
        double total = mO + 2 * mH;
        double rc = 0.5 * set.waterHhA(w);
        double height = Math.sqrt(set.waterOhA(w) * set.waterOhA(w) - rc * rc);
        double ra = 2 * mH * height / total;   // O to the centre of mass, Å
        double rb = height - ra;               // centre of mass to the H–H midpoint, Å
        // Old (constrained) vectors from O, and the new unconstrained positions relative to the new O.
        double[] b0 = {waterRef[6 * w], waterRef[6 * w + 1], waterRef[6 * w + 2]};
        double[] c0 = {waterRef[6 * w + 3], waterRef[6 * w + 4], waterRef[6 * w + 5]};
        double[] b1 = new double[3], c1 = new double[3], com = new double[3];
        for (int a = 0; a < 3; a++) {
            double dO = r[3 * o + a] - reference[3 * o + a];
            b1[a] = b0[a] + (r[3 * h1 + a] - reference[3 * h1 + a]) - dO;
            c1[a] = c0[a] + (r[3 * h2 + a] - reference[3 * h2 + a]) - dO;
            com[a] = mH * (b1[a] + c1[a]) / total;
        }
        double[] a1d = {-com[0], -com[1], -com[2]};
        double[] b1d = {b1[0] - com[0], b1[1] - com[1], b1[2] - com[2]};
        double[] c1d = {c1[0] - com[0], c1[1] - com[1], c1[2] - com[2]};
        // The frame: z normal to the old plane, x normal to z and the new O, y = z × x.
        double[] ez = unit(cross(b0, c0));
        double[] ex = unit(cross(a1d, ez));
        double[] ey = unit(cross(ez, ex));
        double xb0 = dot(ex, b0), yb0 = dot(ey, b0), xc0 = dot(ex, c0), yc0 = dot(ey, c0);
        double za1 = dot(ez, a1d);
        double xb1 = dot(ex, b1d), yb1 = dot(ey, b1d), zb1 = dot(ez, b1d);
        double xc1 = dot(ex, c1d), yc1 = dot(ey, c1d), zc1 = dot(ez, c1d);
        double sinPhi = za1 / ra;
        double cosPhi2 = 1 - sinPhi * sinPhi;
        double cosPhi = Math.sqrt(cosPhi2);
        double sinPsi = (zb1 - zc1) / (2 * rc * cosPhi);
        double cosPsi = Math.sqrt(1 - sinPsi * sinPsi);
        double ya2 = ra * cosPhi;
        double xb2 = -rc * cosPsi;
        double yb2 = -rb * cosPhi - rc * sinPsi * sinPhi;
        double yc2 = -rb * cosPhi + rc * sinPsi * sinPhi;
        double alpha = xb2 * (xb0 - xc0) + yb0 * yb2 + yc0 * yc2;
        double beta = xb2 * (yc0 - yb0) + xb0 * yb2 + xc0 * yc2;
        double gamma = xb0 * yb1 - xb1 * yb0 + xc0 * yc1 - xc1 * yc0;
        double ab2 = alpha * alpha + beta * beta;
        double sinTheta = (alpha * gamma - beta * Math.sqrt(ab2 - gamma * gamma)) / ab2;
        double cosTheta = Math.sqrt(1 - sinTheta * sinTheta);
        if (!Double.isFinite(sinTheta + cosTheta + cosPsi + cosPhi) || !(cosPhi2 > 0)) {
            throw new ConstraintFailureException(o, h1, String.format(Locale.ROOT,
                    "rigid water of atoms %d (O), %d (H), %d (H): SETTLE has no solution (the water moved too far in "
                            + "one step: O-H %.3f and %.3f A, constrained to %.4f A)", o, h1, h2, atoms.distance(o, h1),
                    atoms.distance(o, h2), set.waterOhA(w)));
        }
        double[] a3 = {-ya2 * sinTheta, ya2 * cosTheta, za1};
        double[] b3 = {xb2 * cosTheta - yb2 * sinTheta, xb2 * sinTheta + yb2 * cosTheta, zb1};
        double[] c3 = {-xb2 * cosTheta - yc2 * sinTheta, -xb2 * sinTheta + yc2 * cosTheta, zc1};
        double[] v = atoms.velocities();
        for (int a = 0; a < 3; a++) {
            // Displacements from the unconstrained positions (O's new position is the origin of b1, c1).
            double da = com[a] + ex[a] * a3[0] + ey[a] * a3[1] + ez[a] * a3[2];
            double db = com[a] + ex[a] * b3[0] + ey[a] * b3[1] + ez[a] * b3[2] - b1[a];
            double dc = com[a] + ex[a] * c3[0] + ey[a] * c3[1] + ez[a] * c3[2] - c1[a];
            r[3 * o + a] += da;
            r[3 * h1 + a] += db;
            r[3 * h2 + a] += dc;
            if (perFs > 0) {
                v[3 * o + a] += da * perFs;
                v[3 * h1 + a] += db * perFs;
                v[3 * h2 + a] += dc * perFs;
            }
        }
    }

    /** The three constraints of a water solved together: a 3 × 3 linear system for their impulses, exact. */
    private void settleVelocities(Atoms atoms, int w) {
        int[] atom = {set.waterAtom(w, 0), set.waterAtom(w, 1), set.waterAtom(w, 2)};
        int[][] pair = {{0, 1}, {0, 2}, {1, 2}};
        double[][] e = new double[3][];
        for (int k = 0; k < 3; k++) {
            atoms.displacement(atom[pair[k][0]], atom[pair[k][1]], scratch);
            e[k] = unit(scratch.clone());
        }
        double[] v = atoms.velocities();
        double[][] a = new double[3][3];
        double[] b = new double[3];
        for (int k = 0; k < 3; k++) {
            int p = atom[pair[k][0]], q = atom[pair[k][1]];
            b[k] = -(e[k][0] * (v[3 * q] - v[3 * p]) + e[k][1] * (v[3 * q + 1] - v[3 * p + 1])
                    + e[k][2] * (v[3 * q + 2] - v[3 * p + 2]));
            for (int l = 0; l < 3; l++) {
                int pl = pair[l][0], ql = pair[l][1];
                double coupling = sign(pair[k][1], pl, ql) * invMass[q] - sign(pair[k][0], pl, ql) * invMass[p];
                a[k][l] = dot(e[k], e[l]) * coupling;
            }
        }
        double det = det3(a[0], a[1], a[2]);
        double[] lam = new double[3];
        for (int l = 0; l < 3; l++) {
            double[][] m = {a[0].clone(), a[1].clone(), a[2].clone()};
            for (int k = 0; k < 3; k++) {
                m[k][l] = b[k];
            }
            lam[l] = det3(m[0], m[1], m[2]) / det;
        }
        for (int k = 0; k < 3; k++) {
            int p = atom[pair[k][0]], q = atom[pair[k][1]];
            for (int c = 0; c < 3; c++) {
                v[3 * p + c] -= lam[k] * e[k][c] * invMass[p];
                v[3 * q + c] += lam[k] * e[k][c] * invMass[q];
            }
        }
    }

    /** +1 when local atom x is the second of the pair (p, q), −1 when the first, 0 otherwise. */
    private static double sign(int x, int p, int q) {
        return x == q ? 1 : x == p ? -1 : 0;
    }

    private static double det3(double[] r0, double[] r1, double[] r2) {
        return r0[0] * (r1[1] * r2[2] - r1[2] * r2[1]) - r0[1] * (r1[0] * r2[2] - r1[2] * r2[0])
                + r0[2] * (r1[0] * r2[1] - r1[1] * r2[0]);
    }

    private static double[] cross(double[] a, double[] b) {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }

    private static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    private static double[] unit(double[] a) {
        double n = Math.sqrt(dot(a, a));
        return new double[] {a[0] / n, a[1] / n, a[2] / n};
    }
}
