package org.molten.forcefield.student;

import org.molten.core.Atoms;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.neighbours.EdgeList;
import org.molten.forcefield.neighbours.VerletList;
import org.molten.structures.WaterBox;

import java.nio.ByteBuffer;
import java.security.MessageDigest;

/**
 * Tool, not a test (issue 19, docs/benchmarks.md "Memory per atom"): one energy+forces call of the
 * optimised student (default options: float64, the default threads, the layout it picks for the
 * heap) on a water box of about N atoms ({@code WaterBox.forAtomCount(N, 7)}), then the retained
 * heap per atom (used after GC with the model evaluated, minus before it was built), the heap used
 * after GC, StudentMemory's estimate for the pairs found, and a SHA-256 of the energy and forces
 * (to compare the bits of two builds). Run under the heap to test, e.g. {@code java -Xmx6g ...
 * org.molten.forcefield.student.LargeBoxMemory 200000}; one call at 200,000 atoms takes minutes on
 * two cores.
 */
public final class LargeBoxMemory {
    private LargeBoxMemory() {}

    /** Used heap once two readings after GC agree within 1 MB: StudentMemoryTest's reading. */
    private static long usedAfterGc() throws InterruptedException {
        return StudentMemoryTest.usedAfterGc();
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: LargeBoxMemory ATOMS   (a water box of about ATOMS atoms, seed 7)");
            System.exit(2);
        }
        int wanted = Integer.parseInt(args[0]);
        StudentWeights w = BundledModel.weights();
        Atoms atoms = WaterBox.forAtomCount(wanted, 7);
        int n = atoms.size();
        double[] forces = new double[3 * n];
        long before = usedAfterGc();
        OptimisedStudent.Options o = OptimisedStudent.Options.defaults();
        try (OptimisedStudent ff = new OptimisedStudent(w, o)) {
            double energy = ff.energyAndForces(atoms, forces);
            long retained = usedAfterGc() - before;
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            ByteBuffer bits = ByteBuffer.allocate(8 * (1 + 3 * n));
            bits.putDouble(energy);
            for (double x : forces) {
                bits.putDouble(x);
            }
            StringBuilder hash = new StringBuilder();
            for (byte b : sha.digest(bits.array())) {
                hash.append(String.format("%02x", b));
            }
            EdgeList edges = new EdgeList();
            new VerletList(0).search(atoms, w.cutoffA(), edges);
            long pairs = edges.size() / 2;
            long estimate = StudentMemory.optimisedBytes(w, o, n, pairs, ff.memorySavingLayout());
            double gib = 1L << 30;
            System.out.printf("%d atoms, %s, %d threads, %s layout: energy %.10f eV, energy+forces sha256 %s%n", n,
                    o.precision(), o.threads(), ff.memorySavingLayout() ? "memory-saving" : "fast", energy,
                    hash.substring(0, 16));
            System.out.printf("retained %.2f KB/atom (estimate %.2f, ratio %.3f; %d pairs, %.2f per atom), "
                            + "used after GC %.2f GiB of a %.2f GiB heap%n", retained / 1024.0 / n,
                    estimate / 1024.0 / n, (double) retained / estimate, pairs, (double) pairs / n,
                    (before + retained) / gib, Runtime.getRuntime().maxMemory() / gib);
        }
    }
}
