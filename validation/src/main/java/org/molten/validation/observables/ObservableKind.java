package org.molten.validation.observables;

/**
 * The kinds of structural observable, each with its unit and the fixed binning that makes two
 * trajectories of the same start structure comparable bin by bin. Bin widths are a few times
 * smaller than the thermal spread at 300 K (bond lengths σ ≈ 0.02–0.04 Å, bond angles
 * σ ≈ 3–6°, a dihedral basin σ ≈ 10–20°, the first O–O peak ≈ 0.15 Å wide) so the shape is
 * resolved, and no smaller, so a few thousand samples fill them.
 */
public enum ObservableKind {
    /** Bond lengths of one bond type, Å; range: the type's start lengths −0.5 Å to +0.5 Å. */
    BOND_LENGTH("bond", "Å", 0.01, false),
    /** Bond angles of one angle type, degrees, 0–180. */
    BOND_ANGLE("angle", "deg", 2.0, false),
    /** Backbone dihedrals φ, ψ or ω pooled over residues, degrees, −180–180, periodic. */
    BACKBONE_DIHEDRAL("dihedral", "deg", 5.0, true),
    /** Water O–O pair distances in a periodic box, Å, 0 to r_max; plotted as g(r). */
    OO_RADIAL_DISTRIBUTION("rdf", "Å", 0.05, false),
    /** Water O–O pair distances in a cluster (no periodic cell), Å, 0 to r_max; plotted as a normalised histogram. */
    OO_DISTANCE("distance", "Å", 0.05, false);

    /** Short prefix of observable names of this kind ("bond C-H"). */
    public final String prefix;
    /** Unit of the values, of W1 and of the bin width ("Å", "deg"). */
    public final String unit;
    /** Bin width in {@link #unit}. */
    public final double binWidth;
    /** Whether the values live on a circle (wrapped histogram, circular W1). */
    public final boolean periodic;

    ObservableKind(String prefix, String unit, double binWidth, boolean periodic) {
        this.prefix = prefix;
        this.unit = unit;
        this.binWidth = binWidth;
        this.periodic = periodic;
    }

    /** The key used in JSON reports: "bond_length", "backbone_dihedral", ... */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
