package org.molten.forcefield.cuda;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.dynamics.DynamicsSpec;
import org.molten.core.dynamics.ReplicaStart;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;

/**
 * The device check of the group kernel as the replica force path (scripts/group-engine-run.sh), at the bench's sizes:
 * 1,024 ethanols and 256 alanine dipeptides (replicas perturbed by 0.05 Å, each its own), on three paths: the group
 * kernel with SIMT dense products ({@code group-simt}: {@value KernelChoices#REPLICA_FORCES_PROPERTY}=group,
 * {@value KernelChoices#GROUP_DENSE_PROPERTY}=simt), the group kernel on the tensor cores ({@code group-tc}:
 * k_group_n12_tc / k_group_n22_tc) and the stage kernels ({@code stages}), replicas 0, 1, R/2 and R - 1 of each
 * against the float64 reference student with GpuCheck's bounds (relative force error <= 1e-5, energy <= 1e-6 of the
 * summed per-atom magnitudes). One PASS/FAIL line per replica and path; exit status 1 if any failed. GpuCheck runs
 * the same check on fewer replicas as its "groups" section.
 *
 * <pre>GroupCheck [ETHANOLS [DIPEPTIDES]]</pre>
 */
public final class GroupCheck {
    private GroupCheck() {
    }

    public static void main(String[] args) {
        int eth = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
        int dip = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        GpuAvailability.Probe p = GpuAvailability.probe();
        System.out.println("group check: device " + p.device() + (p.available() ? "" : " unavailable: " + p.reason()));
        if (!p.available()) {
            System.exit(2);
        }
        int failed = run(GroupForcesTest.weights(), eth, dip, System.out);
        System.out.println(failed == 0 ? "group check: all passed" : "group check: " + failed + " FAILED");
        System.exit(failed == 0 ? 0 : 1);
    }

    /**
     * The three paths on {@code eth} ethanols and {@code dip} alanine dipeptides, a line per checked replica on
     * {@code out} (also GpuCheck's "groups" section); returns the number of failures.
     */
    static int run(StudentWeights w, int eth, int dip, PrintStream out) {
        int failed = 0;
        try {
            for (String path : new String[] {"group-simt", "group-tc", "stages"}) {
                System.setProperty(KernelChoices.REPLICA_FORCES_PROPERTY, path.startsWith("group") ? "group" : "stages");
                System.setProperty(KernelChoices.GROUP_DENSE_PROPERTY, path.endsWith("tc") ? "tc" : "simt");
                failed += check(w, "ethanol", eth, path, out);
                failed += check(w, "alanine-dipeptide", dip, path, out);
            }
        } finally {
            System.clearProperty(KernelChoices.REPLICA_FORCES_PROPERTY);
            System.clearProperty(KernelChoices.GROUP_DENSE_PROPERTY);
        }
        return failed;
    }

    private static int check(StudentWeights w, String molecule, int count, String path, PrintStream out) {
        List<ReplicaStart> starts = GroupForcesTest.replicas(molecule, count, new DynamicsSpec.VelocityVerlet(0.5), 29);
        ReferenceStudent ref = new ReferenceStudent(w);
        int failed = 0;
        long t0 = System.nanoTime();
        try (CudaMdEngine md = new CudaMdEngine(w, starts, CudaOptions.fromSystemProperties())) {
            out.printf(Locale.ROOT, "%s x %d, %s: %s (set-up and first evaluation %.1f s)%n", molecule, count, path,
                    md.description(), (System.nanoTime() - t0) * 1e-9);
            String runs = md.replicaForces();
            boolean asked = path.equals("stages") ? runs.startsWith("stages")
                    : runs.startsWith("group (k_group_") && runs.contains("_tc") == path.equals("group-tc");
            if (!asked) {
                out.println("FAIL " + molecule + ": asked for " + path + ", runs " + md.replicaForces());
                failed++;
            }
            for (int r : new java.util.TreeSet<>(List.of(0, Math.min(1, count - 1), count / 2, count - 1))) {
                ReplicaError e = ReplicaError.of(md, r, starts.get(r), ref);
                failed += e.ok() ? 0 : 1;
                out.printf(Locale.ROOT, "%s %s replica %d of %d, %s: F rel err %.2e (max |dF| %.2e eV/A), E rel err"
                        + " %.2e%n", e.ok() ? "PASS" : "FAIL", molecule, r, count, md.replicaForces(), e.force(),
                        e.maxAbs(), e.energy());
            }
        } catch (RuntimeException e) {
            out.println("FAIL " + molecule + " x " + count + ", " + path + ": " + e);
            e.printStackTrace(out);
            failed++;
        }
        return failed;
    }

    /**
     * One replica's energy and forces on the device against the float64 reference student, with GpuCheck's bounds:
     * relative force error ({@link GpuCheck#relErr}) and the largest component's (eV/Å), the energy error relative to
     * the summed per-atom magnitudes; the device and reference energies (eV).
     */
    record ReplicaError(double force, double maxAbs, double energy, double device, double reference) {
        static ReplicaError of(CudaMdEngine md, int r, ReplicaStart start, ReferenceStudent ref) {
            Atoms a = start.atoms().copy();
            int n = a.size();
            double[] fg = new double[3 * n];
            double eg = md.read(r, a, fg);
            double[] fr = new double[3 * n];
            double[] ei = new double[n];
            double er = ref.energyAndForces(start.atoms(), fr, ei);
            double escale = 0;
            for (double x : ei) {
                escale += Math.abs(x);
            }
            double maxAbs = 0;
            for (int i = 0; i < fr.length; i++) {
                maxAbs = Math.max(maxAbs, Math.abs(fg[i] - fr[i]));
            }
            return new ReplicaError(GpuCheck.relErr(fg, fr), maxAbs, Math.abs(eg - er) / escale, eg, er);
        }

        boolean ok() {
            return force <= 1e-5 && energy <= 1e-6;
        }
    }
}
