package org.molten.forcefield.cuda;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.molten.core.Atoms;
import org.molten.forcefield.student.StudentWeights;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.WaterBox;

/**
 * Device tool (not a test): GPU time per stage kernel of one force evaluation, to see where a step's time goes
 * (written to compare the 3xTF32 tensor-core dense tiles of commit f7ebc8e with the FP32 tiles stage by stage;
 * docs/benchmarks.md). Systems: {@code MOLECULExR} (R copies of a built-in molecule 12 Å apart on a grid,
 * i.e. the rows and neighbours of a replica batch of R, as one system with the all-pairs search) or {@code waterN}.
 *
 * <pre>StageProfile ethanolx1024,alanine-dipeptidex256,water3000</pre>
 *
 * Prints, per system, the total and the time of each kernel summed over the interaction blocks.
 */
public final class StageProfile {
    private StageProfile() {
    }

    public static void main(String[] args) throws java.io.IOException {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: StageProfile SYSTEM[,SYSTEM...]");
        }
        StudentWeights w = org.molten.forcefield.bundled.BundledModel.weights();
        for (String name : args[0].split(",")) {
            Atoms a = system(name);
            try (CudaStudent gpu = new CudaStudent(w, CudaOptions.defaults().withCellListAtoms(1 << 30))) {
                List<String> rows = gpu.profileStages(a, 5);
                Map<String, Double> byKernel = new LinkedHashMap<>();
                double total = 0;
                for (String r : rows) {
                    String[] p = r.split("\t");
                    double us = Double.parseDouble(p[1]);
                    total += us;
                    byKernel.merge(p[0].replaceAll(" t=\\d+", "").replaceAll(" s=\\d+", ""), us, Double::sum);
                }
                double dense = 0;
                StringBuilder sb = new StringBuilder();
                for (Map.Entry<String, Double> e : byKernel.entrySet()) {
                    if (e.getKey().matches("k_.*_(w|t|n)")) {
                        dense += e.getValue();
                    }
                    sb.append(String.format(Locale.ROOT, " %s %.1f", e.getKey(), e.getValue()));
                }
                System.out.printf(Locale.ROOT, "profile %-24s %6d atoms: %8.1f us, dense stages %8.1f us (%.0f %%):%s%n",
                        name, a.size(), total, dense, 100 * dense / total, sb);
            }
        }
    }

    /** {@code MOLECULExR} or {@code waterN} (see the class comment). */
    static Atoms system(String name) {
        try {
            return parse(name);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("StageProfile: system '" + name
                    + "' is neither waterN (e.g. water3000) nor MOLECULExR (e.g. ethanolx1024): " + e.getMessage(), e);
        }
    }

    private static Atoms parse(String name) {
        if (name.startsWith("water")) {
            return WaterBox.forAtomCount(Integer.parseInt(name.substring(5)), 4);
        }
        int x = name.lastIndexOf('x');
        if (x <= 0) {
            throw new IllegalArgumentException("no 'x' between molecule and copies");
        }
        Atoms m = BuiltInMolecules.load(name.substring(0, x));
        int copies = Integer.parseInt(name.substring(x + 1));
        if (copies < 1) {
            throw new IllegalArgumentException("copies must be at least 1");
        }
        int side = (int) Math.ceil(Math.cbrt(copies));
        int n = m.size();
        int[] z = new int[n * copies];
        double[] r = new double[3 * n * copies];
        double[] r0 = m.positions();
        for (int c = 0; c < copies; c++) {
            double[] shift = {12.0 * (c % side), 12.0 * ((c / side) % side), 12.0 * (c / (side * side))};
            for (int i = 0; i < n; i++) {
                z[c * n + i] = m.atomicNumber(i);
                for (int k = 0; k < 3; k++) {
                    r[3 * (c * n + i) + k] = r0[3 * i + k] + shift[k];
                }
            }
        }
        return Atoms.of(z, r, null);
    }
}
