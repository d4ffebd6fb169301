// NVE energy drift of a built-in molecule against the time step, from independent starts: for each
// seed, Maxwell-Boltzmann velocities at 300 K, 2 ps of Langevin (0.5 fs, friction 0.02/fs), then NVE
// runs of PS picoseconds at dt = 1.0, 0.5 and 0.25 fs from that same state with the optimised
// student (bundled model, float64). Prints the least-squares slope of E_tot (sampled every 2.5 fs)
// in meV/atom/ps and the largest |E_tot - E_tot(0)| in meV/atom. A drift that changes sign between
// starts and shrinks with dt is the bounded error of Velocity Verlet, not a secular drift
// (docs/validation.md, "The full protocol"). Run from the repository root after ./molten has built:
//   java -cp "$(cat validation/target/molten-classpath.txt)" scripts/DriftStudy.java water 10 6
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.integrators.Simulation;
import org.molten.integrators.VelocityVerlet;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.structures.BuiltInMolecules;

public class DriftStudy {
    /** {slope meV/atom/ps, max excursion meV/atom} of an NVE run of {@code ps} from a copy of a0. */
    static double[] nve(Atoms a0, ForceField ff, double dtFs, double ps) throws Exception {
        Atoms a = a0.copy();
        Simulation sim = Simulation.builder(a, ff, new VelocityVerlet(dtFs)).platform("cpu").build(); // velocities kept
        int steps = (int) Math.round(ps * 1000 / dtFs);
        int every = (int) Math.round(2.5 / dtFs);
        int m = steps / every + 1;
        double[] t = new double[m];
        double[] e = new double[m];
        int k = 0;
        sim.computeForces();
        e[k++] = sim.totalEnergyEv();
        for (int s = every; s <= steps; s += every) {
            sim.step(every);
            t[k] = s * dtFs / 1000;
            e[k++] = sim.totalEnergyEv();
        }
        double mt = 0, me = 0;
        for (int i = 0; i < k; i++) {
            mt += t[i];
            me += e[i];
        }
        mt /= k;
        me /= k;
        double sxy = 0, sxx = 0, excursion = 0;
        for (int i = 0; i < k; i++) {
            sxy += (t[i] - mt) * (e[i] - me);
            sxx += (t[i] - mt) * (t[i] - mt);
            excursion = Math.max(excursion, Math.abs(e[i] - e[0]));
        }
        int n = a.size();
        return new double[] {sxy / sxx * 1000 / n, excursion * 1000 / n};
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: DriftStudy <built-in molecule> <NVE ps> <number of seeds>");
            System.exit(2);
        }
        String system = args[0];
        double ps = Double.parseDouble(args[1]);
        int seeds = Integer.parseInt(args[2]);
        try (ForceField ff = new OptimisedStudent(BundledModel.weights())) {
            for (long seed = 1; seed <= seeds; seed++) {
                Atoms a = BuiltInMolecules.load(system);
                Simulation eq = Simulation.builder(a, ff, new VelocityVerlet(0.5, LangevinThermostat.of(300, 0.02)))
                        .seed(seed).temperature(300).platform("cpu").build();
                eq.step(4000);
                double[] d1 = nve(a, ff, 1.0, ps);
                double[] d05 = nve(a, ff, 0.5, ps);
                double[] d025 = nve(a, ff, 0.25, ps);
                System.out.printf("%s seed %d: drift [meV/atom/ps] dt=1.0 %+.4f  dt=0.5 %+.4f  dt=0.25 %+.4f | "
                        + "max |dE| [meV/atom] %.3f %.3f %.3f%n", system, seed, d1[0], d05[0], d025[0], d1[1], d05[1], d025[1]);
            }
        }
    }
}
