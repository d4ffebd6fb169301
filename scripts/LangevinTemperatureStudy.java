// How low is the temperature a Langevin (BAOAB) run measures from its full-step velocities, and is
// the mid-step estimator Molten reports (the mean of the kinetic energies before and after the O
// step, LangevinThermostat) on target? Two parts:
//   harmonic: 1-D harmonic BAOAB at omega dt = 0.3 (kT = m = omega = 1), 20,000 walkers x 20,000
//             steps: <v^2> from full-step velocities, before O, after O, their mean, and <omega^2 x^2>;
//             theory 1 - (omega dt)^2 / 4 = 0.9775 for the full step, 1 for the others.
//   SYSTEM:   the bundled student (optimised, float64, CPU) on a built-in molecule at 300 K, 0.5 fs,
//             friction GAMMA /fs, REPLICAS independent starts (seeds 1..R, one thread each), EQ ps of
//             equilibration, then PS ps sampled every step: <T> from full-step velocities and the
//             reported <T>, each with its standard error over 20 blocks per replica, and their
//             difference (paired, much less noisy than either).
// Run from the repository root after ./molten has built:
//   java -cp "$(cat cli/target/molten-classpath.txt)" scripts/LangevinTemperatureStudy.java harmonic
//   java -cp "$(cat cli/target/molten-classpath.txt)" scripts/LangevinTemperatureStudy.java ethanol 0.1 2 5 0.5
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.ArrayList;
import java.util.List;
import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.forcefield.bundled.BundledModel;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.integrators.Simulation;
import org.molten.integrators.VelocityVerlet;
import org.molten.integrators.thermostats.LangevinThermostat;
import org.molten.structures.BuiltInMolecules;

public class LangevinTemperatureStudy {
    static void harmonic() {
        double h = 0.3, gamma = 0.5, c = Math.exp(-gamma * h), s = Math.sqrt(1 - c * c);
        int walkers = 20_000, steps = 20_000, skip = 1_000;
        Random rnd = new Random(1);
        double[] x = new double[walkers], v = new double[walkers];
        for (int i = 0; i < walkers; i++) {
            x[i] = rnd.nextGaussian();
            v[i] = rnd.nextGaussian();
        }
        double full = 0, pre = 0, post = 0, xx = 0;
        long n = 0;
        for (int t = 0; t < steps; t++) {
            for (int i = 0; i < walkers; i++) {
                double vi = v[i] - 0.5 * h * x[i];
                double xi = x[i] + 0.5 * h * vi;
                double a = vi * vi;
                vi = c * vi + s * rnd.nextGaussian();
                double b = vi * vi;
                xi += 0.5 * h * vi;
                vi -= 0.5 * h * xi;
                x[i] = xi;
                v[i] = vi;
                if (t >= skip) {
                    full += vi * vi;
                    pre += a;
                    post += b;
                    xx += xi * xi;
                    n++;
                }
            }
        }
        System.out.printf("1-D harmonic BAOAB, omega dt = %.2f, %d samples: <m v^2>/kT full step %.4f (theory %.4f),"
                + " before O %.4f, after O %.4f, mean of the two %.4f; <m omega^2 x^2>/kT %.4f%n", h, n, full / n,
                1 - h * h / 4, pre / n, post / n, 0.5 * (pre + post) / n, xx / n);
    }

    /** {sum T_full, sum T_reported, sum (T_full - T_reported)} per block, for one replica. */
    static double[][] replica(String system, double gamma, double eqPs, double ps, long seed, int blocks) throws Exception {
        Atoms a = BuiltInMolecules.load(system);
        try (ForceField ff = new OptimisedStudent(BundledModel.weights());
             Simulation sim = Simulation.builder(a, ff, new VelocityVerlet(0.5, LangevinThermostat.of(300.0, gamma)))
                     .seed(seed).temperature(300.0).platform("cpu").build()) {
            sim.step((int) Math.round(eqPs * 2000));
            int steps = (int) Math.round(ps * 2000);
            int per = steps / blocks;
            double[][] out = new double[blocks][3];
            double kToT = 2 / (sim.degreesOfFreedom() * org.molten.core.Units.BOLTZMANN_EV_PER_K);
            for (int b = 0; b < blocks; b++) {
                for (int k = 0; k < per; k++) {
                    sim.step(1);
                    double tf = sim.kineticEnergyEv() * kToT;
                    double tr = sim.temperatureK();
                    out[b][0] += tf / per;
                    out[b][1] += tr / per;
                    out[b][2] += (tf - tr) / per;
                }
            }
            return out;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("harmonic")) {
            harmonic();
            return;
        }
        String system = args[0];
        double gamma = Double.parseDouble(args[1]);
        int replicas = Integer.parseInt(args[2]);
        double eqPs = Double.parseDouble(args[3]);
        double ps = Double.parseDouble(args[4]);
        int blocks = 20;
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(replicas, Runtime.getRuntime().availableProcessors()));
        List<Future<double[][]>> runs = new ArrayList<>();
        for (int r = 0; r < replicas; r++) {
            long seed = r + 1;
            runs.add(pool.submit(() -> replica(system, gamma, eqPs, ps, seed, blocks)));
        }
        List<double[]> all = new ArrayList<>();
        for (Future<double[][]> f : runs) {
            for (double[] b : f.get()) {
                all.add(b);
            }
        }
        pool.shutdown();
        String[] names = {"T from full-step velocities", "T reported (mid-step)", "full-step minus reported"};
        System.out.printf("%s, Langevin BAOAB 0.5 fs, friction %.3f /fs, 300 K, %d replicas x %.1f ps after %.1f ps"
                + " (%d blocks, %.0f s):%n", system, gamma, replicas, ps, eqPs, all.size(), (System.nanoTime() - t0) / 1e9);
        for (int c = 0; c < 3; c++) {
            double m = 0;
            for (double[] b : all) {
                m += b[c] / all.size();
            }
            double var = 0;
            for (double[] b : all) {
                var += (b[c] - m) * (b[c] - m) / (all.size() - 1);
            }
            double se = Math.sqrt(var / all.size());
            System.out.printf("  %-28s %9.3f +- %.3f K (%+.2f %% of 300 K, %.1f SE)%n", names[c], m, se,
                    c == 2 ? 100 * m / 300 : 100 * (m - 300) / 300, c == 2 ? m / se : (m - 300) / se);
        }
    }
}
