package org.molten.structures;

import java.util.ArrayList;
import java.util.List;

import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Checks;
import org.molten.core.RandomStream;
import org.molten.core.Units;

/**
 * A periodic cubic box of liquid-density water for benchmarks and stability runs: N copies of
 * the built-in GFN2-xTB water molecule at 1 g/cm³, each centred (centre of mass) on a site of a
 * simple-, body- or face-centred cubic lattice and turned by a uniformly random rotation
 * (Shoemake, "Uniform random rotations", Graphics Gems III, 1992) drawn from a seeded
 * {@link RandomStream}.
 *
 * <p>The lattice is the one of the three (and its number of cells per edge) with at least N sites
 * whose nearest-neighbour distance is largest; when it has more sites than molecules a seeded
 * random subset is occupied. Over N = 1..20000 this keeps molecular centres at least 2.65 Å apart,
 * so O–O distances stay above 2.6 Å (the O is 0.07 Å from the centre of mass; liquid water's O–O
 * distribution peaks at 2.8 Å).
 * Each orientation is redrawn until no atom comes closer than {@link #MIN_INTERMOLECULAR_A} to an
 * atom of an already placed molecule. Every position is wrapped into [0, L) along each axis;
 * molecules that straddle a face are whole under the minimum image. Velocities are zero. The
 * same (N, seed) gives the same box, bit for bit.
 */
public final class WaterBox {
    /** Mass density of the box in g/cm³. */
    public static final double DENSITY_G_PER_CM3 = 1.0;
    /** Minimum distance between atoms of different molecules after orientation sampling, Å. */
    public static final double MIN_INTERMOLECULAR_A = 1.7;
    /** Orientation draws per molecule before giving up on {@link #MIN_INTERMOLECULAR_A}. */
    private static final int MAX_ORIENTATION_TRIES = 2000;
    /** 1 g/cm³ in amu/Å³: (1e-3 kg / 1e24 Å³) / (kg per amu). */
    private static final double AMU_PER_A3_AT_1_G_PER_CM3 = 1e-27 / Units.AMU_IN_KG;

    private WaterBox() {}

    /**
     * A cubic box of {@code molecules} waters at {@value #DENSITY_G_PER_CM3} g/cm³.
     *
     * @param molecules number of water molecules, at least 1
     * @param seed      seed of the site choice and orientations (record it with the run)
     * @return periodic Atoms (3N atoms, order O H H per molecule), positions in Å, zero velocities
     * @throws IllegalArgumentException if {@code molecules} is not positive
     * @throws IllegalStateException    if no orientation keeps {@link #MIN_INTERMOLECULAR_A} (not
     *                                  observed for N = 1..20000)
     */
    public static Atoms build(int molecules, long seed) {
        Checks.requirePositive(molecules, "molecules");
        Atoms water = BuiltInMolecules.load("water");
        double[] template = centred(water);
        double edge = edgeLengthA(molecules, water.totalMassAmu());
        Cell cell = Cell.orthorhombic(edge, edge, edge);
        RandomStream rng = new RandomStream(seed);

        double[][] sites = occupiedSites(molecules, edge, rng);
        int perMolecule = water.size();
        int n = molecules * perMolecule;
        int[] z = new int[n];
        double[] pos = new double[3 * n];
        SiteGrid grid = new SiteGrid(edge, MIN_INTERMOLECULAR_A + 2 * maxRadius(template));
        double[] trial = new double[template.length];
        double[] best = new double[template.length];
        double[] d = new double[3];
        for (int m = 0; m < molecules; m++) {
            List<Integer> neighbours = grid.near(sites[m]);
            double bestMin = -1;
            for (int attempt = 0; attempt < MAX_ORIENTATION_TRIES && bestMin < MIN_INTERMOLECULAR_A; attempt++) {
                rotate(template, randomRotation(rng), sites[m], trial);
                double minDist = Double.POSITIVE_INFINITY;
                for (int other : neighbours) {
                    if (minDist < MIN_INTERMOLECULAR_A) {
                        break;
                    }
                    for (int a = 0; a < perMolecule && minDist >= MIN_INTERMOLECULAR_A; a++) {
                        for (int b = 0; b < perMolecule; b++) {
                            for (int k = 0; k < 3; k++) {
                                d[k] = pos[3 * (other * perMolecule + b) + k] - trial[3 * a + k];
                            }
                            cell.minimumImage(d);
                            minDist = Math.min(minDist, Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
                        }
                    }
                }
                if (minDist > bestMin) {
                    bestMin = minDist;
                    System.arraycopy(trial, 0, best, 0, trial.length);
                }
            }
            if (bestMin < MIN_INTERMOLECULAR_A) {
                throw new IllegalStateException(String.format("water box of %d molecules (seed %d): no orientation of "
                        + "molecule %d keeps %.2f Å from its neighbours (best %.3f Å)", molecules, seed, m,
                        MIN_INTERMOLECULAR_A, bestMin));
            }
            for (int a = 0; a < perMolecule; a++) {
                int i = m * perMolecule + a;
                z[i] = water.atomicNumber(a);
                for (int k = 0; k < 3; k++) {
                    pos[3 * i + k] = wrap(best[3 * a + k], edge);
                }
            }
            grid.add(m, sites[m]);
        }
        return Atoms.of(z, pos, cell);
    }

    /**
     * A water box with about {@code approxAtoms} atoms: round(approxAtoms / 3) molecules, at least one.
     *
     * @see #build(int, long)
     */
    public static Atoms forAtomCount(int approxAtoms, long seed) {
        Checks.requirePositive(approxAtoms, "approxAtoms");
        return build(Math.max(1, (int) Math.round(approxAtoms / 3.0)), seed);
    }

    /**
     * Edge of the cube, Å, that holds {@code molecules} waters at {@value #DENSITY_G_PER_CM3} g/cm³:
     * L = cbrt(N m_H2O / ρ) with m_H2O = 18.015 amu (3.1043 Å × N^(1/3)).
     */
    public static double edgeLengthA(int molecules) {
        Checks.requirePositive(molecules, "molecules");
        return edgeLengthA(molecules, BuiltInMolecules.load("water").totalMassAmu());
    }

    private static double edgeLengthA(int molecules, double waterMassAmu) {
        return Math.cbrt(molecules * waterMassAmu / (DENSITY_G_PER_CM3 * AMU_PER_A3_AT_1_G_PER_CM3));
    }

    /** A coordinate wrapped into [0, edge); guards the rounding case x - floor(x/L) L == L. */
    private static double wrap(double x, double edge) {
        double w = x - edge * Math.floor(x / edge);
        return w >= edge || w < 0 ? 0.0 : w;
    }

    /** Template positions relative to the centre of mass, Å. */
    private static double[] centred(Atoms a) {
        double[] p = a.positions().clone();
        double[] com = new double[3];
        for (int i = 0; i < a.size(); i++) {
            for (int k = 0; k < 3; k++) {
                com[k] += a.massAmu(i) * p[3 * i + k] / a.totalMassAmu();
            }
        }
        for (int i = 0; i < a.size(); i++) {
            for (int k = 0; k < 3; k++) {
                p[3 * i + k] -= com[k];
            }
        }
        return p;
    }

    private static double maxRadius(double[] p) {
        double r = 0;
        for (int i = 0; i < p.length / 3; i++) {
            r = Math.max(r, Math.sqrt(p[3 * i] * p[3 * i] + p[3 * i + 1] * p[3 * i + 1] + p[3 * i + 2] * p[3 * i + 2]));
        }
        return r;
    }

    /** Unit quaternion (w, x, y, z) uniform on SO(3), Shoemake's subgroup algorithm. */
    private static double[] randomRotation(RandomStream rng) {
        double u1 = rng.nextDouble(), u2 = 2 * Math.PI * rng.nextDouble(), u3 = 2 * Math.PI * rng.nextDouble();
        double a = Math.sqrt(1 - u1), b = Math.sqrt(u1);
        return new double[] {b * Math.cos(u3), a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3)};
    }

    private static void rotate(double[] template, double[] q, double[] centre, double[] out) {
        double w = q[0], x = q[1], y = q[2], z = q[3];
        double[][] r = {
                {1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
        for (int i = 0; i < template.length / 3; i++) {
            for (int k = 0; k < 3; k++) {
                out[3 * i + k] = centre[k] + r[k][0] * template[3 * i] + r[k][1] * template[3 * i + 1]
                        + r[k][2] * template[3 * i + 2];
            }
        }
    }

    /**
     * Sites (Cartesian, Å) for the molecules: the SC/BCC/FCC lattice with ≥ N sites and the largest
     * nearest-neighbour distance, a seeded random subset of it when it has more sites than N.
     */
    private static double[][] occupiedSites(int molecules, double edge, RandomStream rng) {
        double[][] basisSc = {{0, 0, 0}};
        double[][] basisBcc = {{0, 0, 0}, {0.5, 0.5, 0.5}};
        double[][] basisFcc = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
        double[][][] bases = {basisSc, basisBcc, basisFcc};
        double[] nnPerCell = {1.0, Math.sqrt(3) / 2, Math.sqrt(0.5)}; // nearest neighbour / lattice constant
        double bestNn = -1;
        int bestType = 0, bestK = 1;
        for (int type = 0; type < 3; type++) {
            // smallest k with basis * k^3 >= N; larger k only shrinks the spacing
            int k = 1;
            while ((long) bases[type].length * k * k * k < molecules) {
                k++;
            }
            double nn = nnPerCell[type] * edge / k;
            if (nn > bestNn + 1e-12) {
                bestNn = nn;
                bestType = type;
                bestK = k;
            }
        }
        double[][] basis = bases[bestType];
        int k = bestK;
        int count = basis.length * k * k * k;
        double[][] all = new double[count][];
        int s = 0;
        double a = edge / k;
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < k; j++) {
                for (int l = 0; l < k; l++) {
                    for (double[] b : basis) {
                        // a quarter-cell offset keeps sites away from the faces (cosmetic; positions are wrapped)
                        all[s++] = new double[] {(i + b[0] + 0.25) * a, (j + b[1] + 0.25) * a, (l + b[2] + 0.25) * a};
                    }
                }
            }
        }
        // Partial Fisher-Yates: the first N entries become a uniform random subset in random order.
        for (int i = 0; i < molecules; i++) {
            int j = i + (int) Math.floor(rng.nextDouble() * (count - i));
            double[] t = all[i];
            all[i] = all[j];
            all[j] = t;
        }
        double[][] chosen = new double[molecules][];
        System.arraycopy(all, 0, chosen, 0, molecules);
        return chosen;
    }

    /**
     * Placed molecule centres binned on a cubic grid of bins at least {@code reachA} wide, so that
     * each placement checks only nearby molecules (O(N) overall). With fewer than 3 bins per edge
     * every placed molecule is a candidate.
     */
    private static final class SiteGrid {
        private final int bins;
        private final double binWidth;
        private final List<List<Integer>> members = new ArrayList<>();
        private final List<Integer> all = new ArrayList<>();

        SiteGrid(double edge, double reachA) {
            this.bins = Math.max(1, (int) Math.floor(edge / reachA));
            this.binWidth = edge / bins;
            for (int i = 0; i < bins * bins * bins; i++) {
                members.add(new ArrayList<>());
            }
        }

        private int bin(double x) {
            int b = (int) Math.floor(x / binWidth) % bins;
            return b < 0 ? b + bins : b;
        }

        void add(int molecule, double[] centre) {
            all.add(molecule);
            members.get((bin(centre[0]) * bins + bin(centre[1])) * bins + bin(centre[2])).add(molecule);
        }

        List<Integer> near(double[] centre) {
            if (bins < 3) {
                return all;
            }
            List<Integer> out = new ArrayList<>();
            int bx = bin(centre[0]), by = bin(centre[1]), bz = bin(centre[2]);
            for (int i = -1; i <= 1; i++) {
                for (int j = -1; j <= 1; j++) {
                    for (int l = -1; l <= 1; l++) {
                        int x = Math.floorMod(bx + i, bins), y = Math.floorMod(by + j, bins), zz = Math.floorMod(bz + l, bins);
                        out.addAll(members.get((x * bins + y) * bins + zz));
                    }
                }
            }
            return out;
        }
    }
}
