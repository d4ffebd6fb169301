package org.molten.bench;

import org.molten.core.Atoms;
import org.molten.core.RandomStream;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.WaterBox;

/**
 * The systems the benchmark times, by atom count: the built-in molecules where one has that size
 * (3 water, 9 ethanol, 12 benzene, 22 alanine dipeptide), a periodic water box at 1 g/cm³ from
 * {@value #WATER_BOX_MIN_ATOMS} atoms on, and otherwise a random cluster of H, C, N, O at
 * liquid-like density (0.1 atoms/Å³, as water), no two atoms closer than 0.95 Å.
 */
public final class BenchSystems {
    /** From this many atoms the benchmark uses a periodic water box. */
    public static final int WATER_BOX_MIN_ATOMS = 1000;
    /** Atoms per Å³ of the random clusters (liquid water: 0.100). */
    public static final double CLUSTER_DENSITY_PER_A3 = 0.1;
    private static final double CLUSTER_MIN_DISTANCE_A = 0.95;

    private BenchSystems() {}

    /**
     * The system of a size token: "22" (the default system of that size, see the class comment)
     * or "200w" (a periodic water box of about 200 atoms at 1 g/cm³, whatever the size).
     *
     * @throws IllegalArgumentException for a token that is neither
     */
    public static Named forToken(String token, long seed) {
        String t = token.trim();
        boolean water = t.endsWith("w") || t.endsWith("W");
        int atoms;
        try {
            atoms = Integer.parseInt(water ? t.substring(0, t.length() - 1) : t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad size '" + token + "': an atom count such as 22, or 200w for a water box");
        }
        if (atoms < 1) {
            throw new IllegalArgumentException("bad size '" + token + "': the atom count must be positive");
        }
        return water ? waterBox(atoms, seed) : forSize(atoms, seed);
    }

    private static Named waterBox(int atoms, long seed) {
        Atoms box = WaterBox.forAtomCount(atoms, seed);
        double edge = box.cellOrNull().vector(0)[0];
        return new Named(String.format("water box %d H2O, %.2f Å, periodic", box.size() / 3, edge), box);
    }

    /** A system of {@code atoms} atoms (about that many for a water box) and its description. */
    public static Named forSize(int atoms, long seed) {
        String molecule = switch (atoms) {
            case 3 -> "water";
            case 9 -> "ethanol";
            case 12 -> "benzene";
            case 22 -> "alanine-dipeptide";
            default -> null;
        };
        if (molecule != null) {
            return new Named(molecule, BuiltInMolecules.load(molecule));
        }
        if (atoms >= WATER_BOX_MIN_ATOMS) {
            return waterBox(atoms, seed);
        }
        return new Named("random H/C/N/O cluster, 0.1 atoms/Å³", cluster(new RandomStream(seed), atoms));
    }

    /** A named system. */
    public record Named(String description, Atoms atoms) {
    }

    /** Random sequential insertion in a sphere at {@link #CLUSTER_DENSITY_PER_A3}. */
    static Atoms cluster(RandomStream rng, int n) {
        double radius = Math.cbrt(3.0 * n / (4.0 * Math.PI * CLUSTER_DENSITY_PER_A3));
        double[] r = new double[3 * n];
        int[] z = new int[n];
        int[] pool = {1, 6, 7, 8};
        double min2 = CLUSTER_MIN_DISTANCE_A * CLUSTER_MIN_DISTANCE_A;
        int placed = 0;
        for (long tries = 0; placed < n; tries++) {
            if (tries > 10_000_000L) {
                throw new IllegalStateException("could not place " + n + " atoms at liquid density");
            }
            double x = (2 * rng.nextDouble() - 1) * radius;
            double y = (2 * rng.nextDouble() - 1) * radius;
            double w = (2 * rng.nextDouble() - 1) * radius;
            if (x * x + y * y + w * w > radius * radius) {
                continue;
            }
            boolean ok = true;
            for (int k = 0; k < placed && ok; k++) {
                double dx = x - r[3 * k], dy = y - r[3 * k + 1], dz = w - r[3 * k + 2];
                ok = dx * dx + dy * dy + dz * dz >= min2;
            }
            if (ok) {
                r[3 * placed] = x;
                r[3 * placed + 1] = y;
                r[3 * placed + 2] = w;
                z[placed] = pool[(int) (rng.nextDouble() * pool.length)];
                placed++;
            }
        }
        return Atoms.of(z, r, null);
    }
}
