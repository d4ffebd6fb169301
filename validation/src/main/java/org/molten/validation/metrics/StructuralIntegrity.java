package org.molten.validation.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.molten.core.Atoms;
import org.molten.core.Bonds;
import org.molten.core.Checks;
import org.molten.core.Element;
import org.molten.core.Observables;

/**
 * Checks that a structure stays chemically the same molecule(s) during a run. Bonds are perceived
 * once in the starting structure ({@link Bonds#perceive(Atoms)}, minimum image under a cell);
 * each checked frame must then satisfy
 * <ul>
 *   <li>every coordinate is finite;</li>
 *   <li>no starting bond longer than {@code maxStretchRatio} × its starting length;</li>
 *   <li>every hydrogen bonded to a heavy atom at the start is still nearer to that heavy atom than
 *       to any other heavy atom (no proton hopping or detachment), and no farther from it than
 *       {@value #MAX_HYDROGEN_DISTANCE_A} Å (the MLIPAudit stability rule: a dissociated
 *       hydrogen, whatever its ratio to the starting bond);</li>
 *   <li>isolated molecules only (no cell): no atom farther from the centre of mass than its
 *       farthest starting distance plus {@code escapeMarginA};</li>
 *   <li>no two atoms closer than {@code overlapLimitA}.</li>
 * </ul>
 * The first broken rule is kept with its step, time and atom. Not thread-safe.
 */
public final class StructuralIntegrity {
    /** Default limit on r/r_start for a bond. */
    public static final double DEFAULT_MAX_STRETCH_RATIO = 1.5;
    /** Default margin (Å) beyond the starting extent of a molecule before an atom counts as escaped. */
    public static final double DEFAULT_ESCAPE_MARGIN_A = 5.0;
    /** Default distance (Å) below which two atoms overlap; the shortest real bond (H2) is 0.74 Å. */
    public static final double DEFAULT_OVERLAP_LIMIT_A = 0.5;
    /** Largest distance (Å) of a hydrogen from its bonded heavy atom before it counts as dissociated. */
    public static final double MAX_HYDROGEN_DISTANCE_A = 2.5;

    private final int[] bondI;
    private final int[] bondJ;
    private final double[] bondLength0;
    private final int[] hydrogens;
    private final int[] hydrogenPartner;
    private final int[] heavy;
    private final boolean periodic;
    private final double escapeLimitA;
    private final double maxStretchRatio;
    private final double overlapLimitA;
    private final String[] labels;
    private final double[] d = new double[3];

    private long frames;
    private double maxRatio = 1;
    private int worstBond = -1;
    private double maxFromCom;
    private double minDistance = Double.POSITIVE_INFINITY;
    private IntegrityViolation first;

    private StructuralIntegrity(Atoms start, double maxStretchRatio, double escapeMarginA, double overlapLimitA) {
        this.maxStretchRatio = Checks.requirePositive(maxStretchRatio, "maxStretchRatio");
        Checks.requireNonNegative(escapeMarginA, "escapeMarginA");
        this.overlapLimitA = Checks.requireNonNegative(overlapLimitA, "overlapLimitA");
        int n = start.size();
        labels = new String[n];
        for (int i = 0; i < n; i++) {
            labels[i] = start.element(i).symbol() + i;
        }
        List<Bonds.Bond> bonds = Bonds.perceive(start);
        bondI = new int[bonds.size()];
        bondJ = new int[bonds.size()];
        bondLength0 = new double[bonds.size()];
        for (int b = 0; b < bonds.size(); b++) {
            bondI[b] = bonds.get(b).i();
            bondJ[b] = bonds.get(b).j();
            bondLength0[b] = bonds.get(b).lengthA();
        }
        heavy = IntStream.range(0, n).filter(i -> start.element(i) != Element.H).toArray();
        int[] partner = new int[n];
        Arrays.fill(partner, -1);
        double[] best = new double[n];
        Arrays.fill(best, Double.POSITIVE_INFINITY);
        for (Bonds.Bond b : bonds) {
            for (int[] hp : new int[][] {{b.i(), b.j()}, {b.j(), b.i()}}) {
                if (start.element(hp[0]) == Element.H && start.element(hp[1]) != Element.H && b.lengthA() < best[hp[0]]) {
                    best[hp[0]] = b.lengthA();
                    partner[hp[0]] = hp[1];
                }
            }
        }
        hydrogens = IntStream.range(0, n).filter(i -> partner[i] >= 0).toArray();
        hydrogenPartner = Arrays.stream(hydrogens).map(h -> partner[h]).toArray();
        periodic = start.cell().isPresent();
        if (periodic) {
            escapeLimitA = Double.NaN;
        } else {
            escapeLimitA = maxDistanceFromCom(start) + escapeMarginA;
        }
    }

    /** Integrity checks against {@code start} with the default limits. */
    public static StructuralIntegrity of(Atoms start) {
        return of(start, DEFAULT_MAX_STRETCH_RATIO, DEFAULT_ESCAPE_MARGIN_A, DEFAULT_OVERLAP_LIMIT_A);
    }

    /**
     * Integrity checks against {@code start}.
     *
     * @param maxStretchRatio largest allowed r/r_start of a starting bond (e.g. 1.5)
     * @param escapeMarginA   Å beyond the starting extent from the centre of mass (isolated molecules)
     * @param overlapLimitA   Å below which two atoms overlap
     */
    public static StructuralIntegrity of(Atoms start, double maxStretchRatio, double escapeMarginA, double overlapLimitA) {
        return new StructuralIntegrity(start, maxStretchRatio, escapeMarginA, overlapLimitA);
    }

    /**
     * Checks one frame; returns false when this frame broke a rule (the first violation of the
     * run is kept). Frames after a violation are still measured.
     */
    public boolean check(long step, double timeFs, Atoms atoms) {
        frames++;
        double[] r = atoms.positions();
        for (int k = 0; k < r.length; k++) {
            if (!Double.isFinite(r[k])) {
                return violate(IntegrityViolation.Kind.NON_FINITE, step, timeFs, k / 3,
                        "atom " + labels[k / 3] + " has non-finite coordinate " + "xyz".charAt(k % 3) + " = " + r[k]);
            }
        }
        boolean ok = true;
        for (int b = 0; b < bondI.length; b++) {
            double ratio = atoms.distance(bondI[b], bondJ[b]) / bondLength0[b];
            if (ratio > maxRatio) {
                maxRatio = ratio;
                worstBond = b;
            }
            if (ratio > maxStretchRatio && ok) {
                ok = violate(IntegrityViolation.Kind.BOND_STRETCHED, step, timeFs, bondJ[b], String.format(
                        "bond %s-%s stretched to %.3f Å, %.2f x its starting %.3f Å (limit %.2f x)",
                        labels[bondI[b]], labels[bondJ[b]], ratio * bondLength0[b], ratio, bondLength0[b], maxStretchRatio));
            }
        }
        for (int k = 0; k < hydrogens.length; k++) {
            int h = hydrogens[k];
            double own = atoms.distance(h, hydrogenPartner[k]);
            for (int a : heavy) {
                if (a != hydrogenPartner[k] && atoms.distance(h, a) < own && ok) {
                    ok = violate(IntegrityViolation.Kind.HYDROGEN_DETACHED, step, timeFs, h, String.format(
                            "hydrogen %s is nearer to %s (%.3f Å) than to its own %s (%.3f Å)",
                            labels[h], labels[a], atoms.distance(h, a), labels[hydrogenPartner[k]], own));
                }
            }
        }
        if (!periodic) {
            double far = maxDistanceFromCom(atoms);
            maxFromCom = Math.max(maxFromCom, far);
            if (far > escapeLimitA && ok) {
                int who = farthestFromCom(atoms);
                ok = violate(IntegrityViolation.Kind.ATOM_ESCAPED, step, timeFs, who, String.format(
                        "atom %s is %.2f Å from the centre of mass (limit %.2f Å)", labels[who], far, escapeLimitA));
            }
        }
        // After the escape check, so that an atom flying off is reported as such, not as a far hydrogen.
        int far = farHydrogen(atoms);
        if (far >= 0 && ok) {
            int h = hydrogens[far];
            ok = violate(IntegrityViolation.Kind.HYDROGEN_FAR, step, timeFs, h, farHydrogenText(atoms, far));
        }
        int n = atoms.size();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                atoms.displacement(i, j, d);
                double rij = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                minDistance = Math.min(minDistance, rij);
                if (rij < overlapLimitA && ok) {
                    ok = violate(IntegrityViolation.Kind.ATOMS_OVERLAP, step, timeFs, j, String.format(
                            "atoms %s and %s overlap: %.3f Å apart (limit %.2f Å)", labels[i], labels[j], rij, overlapLimitA));
                }
            }
        }
        return ok;
    }

    /**
     * The MLIPAudit hydrogen rule alone: the first hydrogen (in atom order) of those bonded to a heavy atom at the
     * start that is now farther than {@value #MAX_HYDROGEN_DISTANCE_A} Å from that atom, described as
     * "hydrogen H5 is 2.731 Å from its bonded C0 (limit 2.5 Å)"; empty when none is. Whatever the other rules say,
     * so that a protocol scoring on this rule (the stability protocol) sees its first frame even after a bond
     * stretched or an atom escaped.
     */
    public java.util.Optional<String> detachedHydrogen(Atoms atoms) {
        int far = farHydrogen(atoms);
        return far < 0 ? java.util.Optional.empty() : java.util.Optional.of(farHydrogenText(atoms, far));
    }

    /** Index into {@code hydrogens} of the first one beyond the limit from its partner, or -1. */
    private int farHydrogen(Atoms atoms) {
        for (int k = 0; k < hydrogens.length; k++) {
            if (atoms.distance(hydrogens[k], hydrogenPartner[k]) > MAX_HYDROGEN_DISTANCE_A) {
                return k;
            }
        }
        return -1;
    }

    private String farHydrogenText(Atoms atoms, int k) {
        return String.format(java.util.Locale.ROOT, "hydrogen %s is %.3f Å from its bonded %s (limit %.1f Å)",
                labels[hydrogens[k]], atoms.distance(hydrogens[k], hydrogenPartner[k]), labels[hydrogenPartner[k]],
                MAX_HYDROGEN_DISTANCE_A);
    }

    private boolean violate(IntegrityViolation.Kind kind, long step, double timeFs, int atom, String text) {
        if (first == null) {
            first = new IntegrityViolation(kind, step, timeFs, atom, text);
        }
        return false;
    }

    /** The summary so far. */
    public IntegrityResult result() {
        String worst = worstBond < 0 ? "" : labels[bondI[worstBond]] + "-" + labels[bondJ[worstBond]];
        return new IntegrityResult(first == null, frames, bondI.length, maxRatio, maxStretchRatio, worst,
                hydrogens.length, periodic ? Double.NaN : maxFromCom, escapeLimitA,
                frames == 0 ? Double.NaN : minDistance, overlapLimitA, first);
    }

    private static double maxDistanceFromCom(Atoms atoms) {
        return Math.sqrt(squaredDistanceFromCom(atoms)[farthestFromCom(atoms)]);
    }

    private static int farthestFromCom(Atoms atoms) {
        double[] s = squaredDistanceFromCom(atoms);
        int best = 0;
        for (int i = 1; i < s.length; i++) {
            if (s[i] > s[best]) {
                best = i;
            }
        }
        return best;
    }

    private static double[] squaredDistanceFromCom(Atoms atoms) {
        double[] c = Observables.centreOfMass(atoms);
        double[] r = atoms.positions();
        double[] s = new double[atoms.size()];
        for (int i = 0; i < s.length; i++) {
            double x = r[3 * i] - c[0], y = r[3 * i + 1] - c[1], z = r[3 * i + 2] - c[2];
            s[i] = x * x + y * y + z * z;
        }
        return s;
    }
}
