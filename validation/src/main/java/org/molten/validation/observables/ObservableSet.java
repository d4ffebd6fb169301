package org.molten.validation.observables;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.molten.core.Atoms;
import org.molten.core.Cell;

/**
 * The observables of one system, fixed from its start structure so that the student's and the
 * teacher's trajectories from that start are measured on identical bins:
 * <ul>
 *   <li>one bond-length distribution per bond type ({@link BondedTopology}), range from
 *       {@value #BOND_MARGIN_A} Å below the shortest to {@value #BOND_MARGIN_A} Å above the
 *       longest start length of that type, edges on a 0.1 Å grid;</li>
 *   <li>one bond-angle distribution per angle type, 0–180°;</li>
 *   <li>for peptides ({@link PeptideBackbone}), one distribution each of φ, ψ and ω pooled over
 *       residues, −180–180° periodic;</li>
 *   <li>for two or more water molecules (an oxygen bonded to exactly two hydrogens): the O–O
 *       radial distribution function when the cell is periodic along all three axes, range 0 to
 *       r_max = min({@value #RDF_MAX_A} Å, half the smallest cell width); otherwise (a cluster,
 *       or a slab, where no bulk density normalises g(r)) the O–O distance distribution from 0 to
 *       the largest start O–O distance + {@value #CLUSTER_MARGIN_A} Å, rounded up to 1 Å.</li>
 * </ul>
 * Pooling over residues and bonds of one type keeps the number of observables small (so a
 * report stays readable) and the samples per histogram large (so the divergences are not
 * dominated by noise).
 */
public final class ObservableSet {
    /** Margin of a bond-length range on either side of the start lengths, Å. */
    public static final double BOND_MARGIN_A = 0.5;
    /** Largest r_max of a periodic O–O g(r), Å. */
    public static final double RDF_MAX_A = 10.0;
    /** Margin above the largest start O–O distance of a cluster's distance range, Å. */
    public static final double CLUSTER_MARGIN_A = 3.0;

    private final List<Observable> observables;
    private final boolean periodicRdf;

    private ObservableSet(List<Observable> observables, boolean periodicRdf) {
        this.observables = List.copyOf(observables);
        this.periodicRdf = periodicRdf;
    }

    /** The observables of {@code start} (positions in Å; its cell, if any, for the minimum image and the g(r)). */
    public static ObservableSet of(Atoms start) {
        BondedTopology topo = BondedTopology.of(start);
        List<Observable> out = new ArrayList<>();
        Map<String, List<BondedTopology.Bond>> bondsByType = new LinkedHashMap<>();
        for (String t : topo.bondTypes()) {
            bondsByType.put(t, new ArrayList<>());
        }
        topo.bonds().forEach(b -> bondsByType.get(b.type()).add(b));
        for (Map.Entry<String, List<BondedTopology.Bond>> e : bondsByType.entrySet()) {
            double min = e.getValue().stream().mapToDouble(BondedTopology.Bond::startLengthA).min().orElseThrow();
            double max = e.getValue().stream().mapToDouble(BondedTopology.Bond::startLengthA).max().orElseThrow();
            double lo = Math.max(0, Math.floor((min - BOND_MARGIN_A) * 10) / 10);
            double hi = Math.ceil((max + BOND_MARGIN_A) * 10) / 10;
            int bins = (int) Math.round((hi - lo) / ObservableKind.BOND_LENGTH.binWidth);
            int[][] tuples = e.getValue().stream().map(b -> new int[] {b.i(), b.j()}).toArray(int[][]::new);
            out.add(Observable.of(ObservableKind.BOND_LENGTH.prefix + " " + e.getKey(), ObservableKind.BOND_LENGTH, lo, bins, tuples));
        }
        for (String t : topo.angleTypes()) {
            int[][] tuples = topo.angles().stream().filter(a -> a.type().equals(t))
                    .map(a -> new int[] {a.i(), a.j(), a.k()}).toArray(int[][]::new);
            out.add(Observable.of(ObservableKind.BOND_ANGLE.prefix + " " + t, ObservableKind.BOND_ANGLE, 0.0,
                    (int) Math.round(180.0 / ObservableKind.BOND_ANGLE.binWidth), tuples));
        }
        PeptideBackbone backbone = PeptideBackbone.detect(topo);
        for (PeptideBackbone.DihedralKind k : PeptideBackbone.DihedralKind.values()) {
            int[][] tuples = backbone.dihedrals(k).stream().map(d -> new int[] {d.a(), d.b(), d.c(), d.d()}).toArray(int[][]::new);
            if (tuples.length > 0) {
                out.add(Observable.of(ObservableKind.BACKBONE_DIHEDRAL.prefix + " " + k.label, ObservableKind.BACKBONE_DIHEDRAL,
                        -180.0, (int) Math.round(360.0 / ObservableKind.BACKBONE_DIHEDRAL.binWidth), tuples));
            }
        }
        List<Integer> oxygens = waterOxygens(topo);
        boolean periodic = false;
        if (oxygens.size() >= 2) {
            int[][] pairs = new int[oxygens.size() * (oxygens.size() - 1) / 2][];
            int p = 0;
            double maxStart = 0;
            double[] pos = start.positions();
            Cell cell = start.cellOrNull();
            for (int a = 0; a < oxygens.size(); a++) {
                for (int b = a + 1; b < oxygens.size(); b++) {
                    pairs[p++] = new int[] {oxygens.get(a), oxygens.get(b)};
                    maxStart = Math.max(maxStart, InternalCoordinates.distance(pos, cell, oxygens.get(a), oxygens.get(b)));
                }
            }
            periodic = cell != null && cell.periodic(0) && cell.periodic(1) && cell.periodic(2);
            if (periodic) {
                ObservableKind k = ObservableKind.OO_RADIAL_DISTRIBUTION;
                double rMax = Math.min(RDF_MAX_A, 0.5 * cell.minPeriodicWidth());
                int bins = (int) Math.floor(rMax / k.binWidth + 1e-9);
                out.add(Observable.of(k.prefix + " O-O", k, 0.0, bins, pairs));
            } else {
                ObservableKind k = ObservableKind.OO_DISTANCE;
                double rMax = Math.ceil(maxStart + CLUSTER_MARGIN_A);
                out.add(Observable.of(k.prefix + " O-O", k, 0.0, (int) Math.round(rMax / k.binWidth), pairs));
            }
        }
        return new ObservableSet(out, periodic);
    }

    /** Oxygens bonded to exactly two hydrogens and nothing else. */
    private static List<Integer> waterOxygens(BondedTopology t) {
        List<Integer> o = new ArrayList<>();
        for (int a = 0; a < t.atomCount(); a++) {
            if (t.symbol(a).equals("O") && t.neighbours(a).size() == 2
                    && t.neighbours(a).stream().allMatch(x -> t.symbol(x).equals("H"))) {
                o.add(a);
            }
        }
        return o;
    }

    /** The observables: bonds, angles, dihedrals, then O–O, each group in alphabetical order of type. */
    public List<Observable> observables() {
        return observables;
    }

    /** The observable named {@code name}, e.g. "bond C-H". */
    public java.util.Optional<Observable> find(String name) {
        return observables.stream().filter(o -> o.name().equals(name)).findFirst();
    }

    /** True when the set holds a periodic O–O g(r), which needs a fully periodic cell in every frame. */
    public boolean needsPeriodicCell() {
        return periodicRdf;
    }

    /** Number of observables. */
    public int size() {
        return observables.size();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ObservableSet s && observables.equals(s.observables) && periodicRdf == s.periodicRdf;
    }

    @Override
    public int hashCode() {
        return observables.hashCode();
    }

    @Override
    public String toString() {
        return "ObservableSet" + observables.stream().map(Observable::name).toList();
    }
}
