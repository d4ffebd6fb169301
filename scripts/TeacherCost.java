// Cost of one GFN2-xTB single point with gradient: the in-process teacher (XtbTeacher, xtb's C API through
// JNA) against the xtb command line (`xtb mol.xyz --gfn 2 --grad --norestart`, process start and files
// included), for the built-in molecules, one thread each (OMP_NUM_THREADS=1 for the command line; the teacher
// sets one OpenMP thread itself). Each geometry is the built-in one moved by a seeded random displacement of
// 0.01 Å per coordinate (seed 17), a new one per call. Prints a markdown table of medians and minima in ms
// (on a shared machine the minimum is the better estimate of the work itself). Run from
// the repository root after the teacher-xtb and structures modules have compiled (e.g. `mvn -o -q -pl teacher-xtb,structures -am compile`):
//   java -cp "teacher-xtb/target/classes:structures/target/classes:md-core/target/classes:$HOME/.m2/repository/net/java/dev/jna/jna/5.17.0/jna-5.17.0.jar" \
//        scripts/TeacherCost.java [seconds per size, default 3]
import org.molten.core.Atoms;
import org.molten.core.Element;
import org.molten.forcefield.teacher.XtbTeacher;
import org.molten.structures.BuiltInMolecules;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;

public class TeacherCost {
    static final List<String> MOLECULES = List.of("water", "ethanol", "benzene", "alanine-dipeptide", "ace-ala5-nme");

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : 0.5 * (s.get(n / 2 - 1) + s.get(n / 2));
    }

    static Atoms jittered(Atoms base, Random rng) {
        Atoms a = base.copy();
        double[] p = a.positions();
        for (int k = 0; k < p.length; k++) {
            p[k] += 0.01 * rng.nextGaussian();
        }
        return a;
    }

    /** Median ms per call of the in-process teacher, and the first call's ms (handles built, parameters read). */
    static double[] inProcess(Atoms base, double seconds) {
        Random rng = new Random(17);
        List<Double> ms = new ArrayList<>();
        double first;
        try (XtbTeacher teacher = XtbTeacher.gfn2().build()) {
            double[] f = new double[3 * base.size()];
            long t0 = System.nanoTime();
            teacher.energyAndForces(jittered(base, rng), f);
            first = (System.nanoTime() - t0) / 1e6;
            long end = System.nanoTime() + (long) (seconds * 1e9);
            while (ms.size() < 5 || System.nanoTime() < end) {
                Atoms a = jittered(base, rng);
                long t = System.nanoTime();
                teacher.energyAndForces(a, f);
                ms.add((System.nanoTime() - t) / 1e6);
            }
        }
        return new double[]{median(ms), first, ms.size(), Collections.min(ms)};
    }

    /** Median ms per `xtb --grad` run, from writing the XYZ file to reading the gradient file. */
    static double[] commandLine(Atoms base, double seconds) throws Exception {
        Random rng = new Random(17);
        Path dir = Files.createTempDirectory("teacher-cost-");
        List<Double> ms = new ArrayList<>();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        try {
            while (ms.size() < 3 || System.nanoTime() < end) {
                Atoms a = jittered(base, rng);
                long t = System.nanoTime();
                StringBuilder xyz = new StringBuilder(a.size() + "\n\n");
                double[] p = a.positions();
                for (int i = 0; i < a.size(); i++) {
                    xyz.append(String.format(Locale.ROOT, "%s %.10f %.10f %.10f%n",
                            Element.ofAtomicNumber(a.atomicNumber(i)).symbol(), p[3 * i], p[3 * i + 1], p[3 * i + 2]));
                }
                Files.writeString(dir.resolve("mol.xyz"), xyz);
                ProcessBuilder pb = new ProcessBuilder("xtb", "mol.xyz", "--gfn", "2", "--grad", "--norestart")
                        .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("xtb.log").toFile());
                pb.environment().put("OMP_NUM_THREADS", "1");
                Process proc = pb.start();
                if (!proc.waitFor(300, TimeUnit.SECONDS) || proc.exitValue() != 0) {
                    throw new IllegalStateException("xtb failed, see " + dir.resolve("xtb.log"));
                }
                Files.readAllLines(dir.resolve("mol.engrad"));
                ms.add((System.nanoTime() - t) / 1e6);
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    if (Files.isRegularFile(f)) {
                        Files.delete(f);
                    }
                }
            }
            Files.deleteIfExists(dir);
        }
        return new double[]{median(ms), ms.size(), Collections.min(ms)};
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3.0;
        XtbTeacher.Availability a = XtbTeacher.availability();
        if (!a.available()) {
            System.err.println("teacher unavailable: " + a.reason());
            System.exit(2);
        }
        System.out.printf(Locale.ROOT, "libxtb %s, %.1f s per size and method, medians%n%n", a.xtbVersion(), seconds);
        System.out.println("| molecule | atoms | in-process ms/call, median (min) | first call ms"
                + " | xtb command line ms/call, median (min) | ratio of medians |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        for (String name : MOLECULES) {
            Atoms base = BuiltInMolecules.load(name);
            double[] in = inProcess(base, seconds);
            double[] cli = commandLine(base, seconds);
            System.out.printf(Locale.ROOT, "| %s | %d | %.2f (%.2f), n=%d | %.1f | %.1f (%.1f), n=%d | %.0fx |%n", name,
                    base.size(), in[0], in[3], (int) in[2], in[1], cli[0], cli[2], (int) cli[1], cli[0] / in[0]);
        }
    }
}
