package org.molten.validation.observables;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The peptide backbone found in a {@link BondedTopology}, for the dihedrals φ, ψ and ω.
 *
 * <p>Perception, from the bonded graph alone (no residue names, so it works on XYZ input):
 * <ul>
 *   <li>an <b>amide unit</b> is a carbon C with three neighbours, one of them an oxygen O with no
 *       other neighbour (the carbonyl) and one of them a nitrogen N;</li>
 *   <li>a <b>residue</b> is N(i)–Cα(i)–C(i) where N(i) is the nitrogen of one amide unit, C(i) the
 *       carbonyl carbon of another, and Cα(i) a carbon bonded to both.</li>
 * </ul>
 * Then, IUPAC-IUB 1970 definitions, degrees in (−180, 180]:
 * φ(i) = C(i−1)–N(i)–Cα(i)–C(i), ψ(i) = N(i)–Cα(i)–C(i)–N(i+1), where C(i−1) is the carbonyl of
 * the amide that holds N(i) and N(i+1) the nitrogen of the amide that holds C(i).
 * A residue gets φ and ψ only when both flanking amides exist (capped peptides, inner residues),
 * so Ace-Ala-NMe has one (φ, ψ) pair and Ace-(Ala)5-NMe five.
 *
 * <p><b>ω convention</b>: one ω per amide unit, X–C–N–Y, where X is the carbon bonded to the
 * carbonyl carbon and Y the carbon bonded to the nitrogen (a residue's Cα where there is one,
 * otherwise the single other carbon). The cap amides count: in Ace-Ala-NMe ω0 runs from the
 * acetyl methyl carbon and ω1 ends on the N-methyl carbon, so it has two ω and Ace-(Ala)5-NMe
 * six. An amide whose carbonyl carbon or nitrogen has no (unique) carbon partner gets no ω.
 * Names: {@code phi1..phiN}, {@code psi1..psiN} by residue along the chain from the N-terminus,
 * {@code omega0..omegaN} by amide (ω(i) joins residue i to residue i+1).
 */
public final class PeptideBackbone {
    /** The backbone dihedral kinds. */
    public enum DihedralKind {
        /** φ = C(i−1)–N–Cα–C. */
        PHI("phi"),
        /** ψ = N–Cα–C–N(i+1). */
        PSI("psi"),
        /** ω = Cα–C–N–Cα(i+1) across an amide bond, caps included. */
        OMEGA("omega");

        /** Lower-case name used in observable names and reports. */
        public final String label;

        DihedralKind(String label) {
            this.label = label;
        }
    }

    /** One residue: its backbone atoms and the flanking carbonyl carbon and nitrogen (atom indices). */
    public record Residue(int previousC, int n, int ca, int c, int nextN) {
    }

    /** A backbone dihedral a–b–c–d (atom indices) with its kind and name ("phi1"). */
    public record Dihedral(String name, DihedralKind kind, int a, int b, int c, int d) {
    }

    /** A carbonyl carbon with its oxygen and amide nitrogen. */
    private record Amide(int c, int o, int n) {
    }

    private final List<Residue> residues;
    private final List<Dihedral> dihedrals;

    private PeptideBackbone(List<Residue> residues, List<Dihedral> dihedrals) {
        this.residues = List.copyOf(residues);
        this.dihedrals = List.copyOf(dihedrals);
    }

    /** The backbone of {@code topology}; empty when it holds no peptide. */
    public static PeptideBackbone detect(BondedTopology topology) {
        List<Amide> amides = amides(topology);
        Map<Integer, Amide> byCarbon = new HashMap<>();
        Map<Integer, Amide> byNitrogen = new HashMap<>();
        for (Amide a : amides) {
            byCarbon.put(a.c(), a);
            byNitrogen.put(a.n(), a);
        }
        // Residue per amide nitrogen: a carbon (not the amide's own carbonyl) bonded to the carbonyl of another amide.
        Map<Integer, Residue> residueAfter = new HashMap<>();   // amide carbonyl C -> the residue whose N it is bonded to
        Map<Integer, Integer> caOfN = new HashMap<>();
        for (Amide a : amides) {
            for (int ca : topology.neighbours(a.n())) {
                if (ca == a.c() || !topology.symbol(ca).equals("C")) {
                    continue;
                }
                for (int c : topology.neighbours(ca)) {
                    Amide next = byCarbon.get(c);
                    if (next != null && next != a) {
                        residueAfter.put(a.c(), new Residue(a.c(), a.n(), ca, next.c(), next.n()));
                        caOfN.put(a.n(), ca);
                    }
                }
            }
        }
        // Walk each chain from the N-terminal amide (one whose carbonyl is not a residue's C).
        List<Residue> residues = new ArrayList<>();
        List<Amide> ordered = new ArrayList<>();
        for (Amide start : amides) {
            boolean isResidueCarbonyl = residueAfter.values().stream().anyMatch(r -> r.c() == start.c());
            if (isResidueCarbonyl) {
                continue;
            }
            Amide a = start;
            while (a != null && !ordered.contains(a)) {
                ordered.add(a);
                Residue r = residueAfter.get(a.c());
                if (r == null) {
                    break;
                }
                residues.add(r);
                a = byCarbon.get(r.c());
            }
        }
        for (Amide a : amides) {            // amides in rings or unreached: still one ω each
            if (!ordered.contains(a)) {
                ordered.add(a);
            }
        }
        List<Dihedral> dihedrals = new ArrayList<>();
        for (int r = 0; r < residues.size(); r++) {
            Residue res = residues.get(r);
            dihedrals.add(new Dihedral("phi" + (r + 1), DihedralKind.PHI, res.previousC(), res.n(), res.ca(), res.c()));
            dihedrals.add(new Dihedral("psi" + (r + 1), DihedralKind.PSI, res.n(), res.ca(), res.c(), res.nextN()));
        }
        int w = 0;
        for (Amide a : ordered) {
            int x = uniqueCarbon(topology, a.c(), a.n(), null);
            int y = uniqueCarbon(topology, a.n(), a.c(), caOfN.get(a.n()));
            if (x >= 0 && y >= 0) {
                dihedrals.add(new Dihedral("omega" + w, DihedralKind.OMEGA, x, a.c(), a.n(), y));
                w++;
            }
        }
        return new PeptideBackbone(residues, dihedrals);
    }

    private static List<Amide> amides(BondedTopology t) {
        List<Amide> out = new ArrayList<>();
        for (int c = 0; c < t.atomCount(); c++) {
            if (!t.symbol(c).equals("C") || t.neighbours(c).size() != 3) {
                continue;
            }
            int o = -1;
            int n = -1;
            for (int x : t.neighbours(c)) {
                if (t.symbol(x).equals("O") && t.neighbours(x).size() == 1) {
                    o = x;
                } else if (t.symbol(x).equals("N")) {
                    n = x;
                }
            }
            if (o >= 0 && n >= 0) {
                out.add(new Amide(c, o, n));
            }
        }
        return out;
    }

    /** The carbon bonded to {@code atom} other than {@code exclude}: {@code preferred} if given, else the only one, else −1. */
    private static int uniqueCarbon(BondedTopology t, int atom, int exclude, Integer preferred) {
        if (preferred != null) {
            return preferred;
        }
        int found = -1;
        for (int x : t.neighbours(atom)) {
            if (x != exclude && t.symbol(x).equals("C")) {
                if (found >= 0) {
                    return -1;
                }
                found = x;
            }
        }
        return found;
    }

    /** The residues with both φ and ψ, from the N-terminus. */
    public List<Residue> residues() {
        return residues;
    }

    /** All backbone dihedrals: φ and ψ per residue, then ω per amide. */
    public List<Dihedral> dihedrals() {
        return dihedrals;
    }

    /** The dihedrals of one kind, in chain order. */
    public List<Dihedral> dihedrals(DihedralKind kind) {
        return dihedrals.stream().filter(d -> d.kind() == kind).toList();
    }

    /** True when no amide unit was found. */
    public boolean isEmpty() {
        return dihedrals.isEmpty();
    }
}
