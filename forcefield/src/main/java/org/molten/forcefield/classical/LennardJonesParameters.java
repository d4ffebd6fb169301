package org.molten.forcefield.classical;

import java.util.Arrays;
import org.molten.core.Checks;
import org.molten.core.Element;
import org.molten.core.Units;

/**
 * Lennard-Jones parameters per element (well depth ε in eV, zero-crossing distance σ in Å) and
 * the rule that mixes them for unlike pairs. Immutable; {@link #with} returns a modified copy.
 *
 * <p>{@link #uff()} gives the non-bonded parameters of the Universal Force Field (Rappé, Casewit,
 * Colwell, Goddard and Skiff, J. Am. Chem. Soc. 114, 10024 (1992), Table 1) for H to Kr: UFF's
 * x_i is the distance of the minimum, so σ = x / 2^(1/6), and its D_i (kcal/mol) is ε. UFF mixes
 * both geometrically.
 */
public final class LennardJonesParameters {
    /** 1 kcal/mol in eV: 4184 J/mol divided by the Faraday constant. */
    static final double KCAL_PER_MOL_IN_EV = 4184.0 / (Units.EV_IN_J * Units.AVOGADRO);

    private static final double TWO_TO_ONE_SIXTH = Math.pow(2.0, 1.0 / 6.0);

    // UFF x_i (Å) and D_i (kcal/mol), indexed by atomic number (index 0 unused).
    private static final double[][] UFF_X_D = {
        {0, 0},
        {2.886, 0.044}, {2.362, 0.056},
        {2.451, 0.025}, {2.745, 0.085}, {4.083, 0.180}, {3.851, 0.105}, {3.660, 0.069}, {3.500, 0.060},
        {3.364, 0.050}, {3.243, 0.042},
        {2.983, 0.030}, {3.021, 0.111}, {4.499, 0.505}, {4.295, 0.402}, {4.147, 0.305}, {4.035, 0.274},
        {3.947, 0.227}, {3.868, 0.185},
        {3.812, 0.035}, {3.399, 0.238}, {3.295, 0.019}, {3.175, 0.017}, {3.144, 0.016}, {3.023, 0.015},
        {2.961, 0.013}, {2.912, 0.013}, {2.872, 0.014}, {2.834, 0.015}, {3.495, 0.005}, {2.763, 0.124},
        {4.383, 0.415}, {4.280, 0.379}, {4.230, 0.309}, {4.205, 0.291}, {4.189, 0.251}, {4.141, 0.220},
    };

    private final double[] epsilonEv;   // by Z, NaN where unset
    private final double[] sigmaA;      // by Z, NaN where unset
    private final MixingRule mixing;
    private final String label;

    private LennardJonesParameters(double[] epsilonEv, double[] sigmaA, MixingRule mixing, String label) {
        this.epsilonEv = epsilonEv;
        this.sigmaA = sigmaA;
        this.mixing = mixing;
        this.label = label;
    }

    /** UFF parameters for every element from H to Kr, geometric mixing. */
    public static LennardJonesParameters uff() {
        double[] eps = new double[UFF_X_D.length];
        double[] sig = new double[UFF_X_D.length];
        eps[0] = Double.NaN;
        sig[0] = Double.NaN;
        for (int z = 1; z < UFF_X_D.length; z++) {
            sig[z] = UFF_X_D[z][0] / TWO_TO_ONE_SIXTH;
            eps[z] = UFF_X_D[z][1] * KCAL_PER_MOL_IN_EV;
        }
        return new LennardJonesParameters(eps, sig, MixingRule.GEOMETRIC, "uff");
    }

    /** No element set yet; add them with {@link #with}. */
    public static LennardJonesParameters none(MixingRule mixing) {
        double[] eps = new double[UFF_X_D.length];
        double[] sig = new double[UFF_X_D.length];
        Arrays.fill(eps, Double.NaN);
        Arrays.fill(sig, Double.NaN);
        return new LennardJonesParameters(eps, sig, mixing, "custom");
    }

    /**
     * A copy with element {@code e} set to ε = {@code epsilonEv} (eV, ≥ 0) and σ = {@code sigmaA}
     * (Å, &gt; 0).
     */
    public LennardJonesParameters with(Element e, double epsilonEv, double sigmaA) {
        Checks.requireNonNegative(epsilonEv, "epsilon_eV of " + e);
        Checks.requirePositive(sigmaA, "sigma_A of " + e);
        double[] eps = this.epsilonEv.clone();
        double[] sig = this.sigmaA.clone();
        eps[e.atomicNumber] = epsilonEv;
        sig[e.atomicNumber] = sigmaA;
        return new LennardJonesParameters(eps, sig, mixing, label.startsWith("custom") ? label : label + "+custom");
    }

    /** A copy with another mixing rule. */
    public LennardJonesParameters withMixing(MixingRule rule) {
        return new LennardJonesParameters(epsilonEv, sigmaA, rule, label);
    }

    /** The mixing rule. */
    public MixingRule mixing() {
        return mixing;
    }

    /** True when element {@code z} has parameters. */
    public boolean has(int z) {
        return z > 0 && z < sigmaA.length && !Double.isNaN(sigmaA[z]);
    }

    /** ε of element {@code z} in eV. @throws IllegalArgumentException if it has none */
    public double epsilonEv(int z) {
        require(z);
        return epsilonEv[z];
    }

    /** σ of element {@code z} in Å. @throws IllegalArgumentException if it has none */
    public double sigmaA(int z) {
        require(z);
        return sigmaA[z];
    }

    /** Mixed ε of the pair (zi, zj) in eV. */
    public double pairEpsilonEv(int zi, int zj) {
        return zi == zj ? epsilonEv(zi) : mixing.epsilonEv(epsilonEv(zi), epsilonEv(zj));
    }

    /** Mixed σ of the pair (zi, zj) in Å. */
    public double pairSigmaA(int zi, int zj) {
        return zi == zj ? sigmaA(zi) : mixing.sigmaA(sigmaA(zi), sigmaA(zj));
    }

    /** Largest σ over the elements that have parameters, Å. */
    public double maxSigmaA() {
        double m = 0;
        for (int z = 1; z < sigmaA.length; z++) {
            if (has(z)) {
                m = Math.max(m, sigmaA[z]);
            }
        }
        return m;
    }

    /** A short label for force-field names ("uff", "custom"). */
    public String label() {
        return label;
    }

    private void require(int z) {
        if (!has(z)) {
            String what = Element.isKnown(z) ? Element.ofAtomicNumber(z).symbol() : "Z=" + z;
            throw new IllegalArgumentException("no Lennard-Jones parameters for element " + what
                    + " in the '" + label + "' set");
        }
    }
}
