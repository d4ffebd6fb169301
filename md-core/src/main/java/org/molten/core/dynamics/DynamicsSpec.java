package org.molten.core.dynamics;

import org.molten.core.Checks;

/**
 * An integrator and its thermostat as plain data, so that a platform other than the host (a GPU)
 * can run the same equations of motion as the host integrators of the {@code integrators} module,
 * with the same definitions: velocity Verlet (positions and velocities at full steps), thermostats
 * acting at the same points of the step, the same degrees of freedom (given per replica in
 * {@link ReplicaStart}) and the same centre-of-mass handling.
 *
 * <p>Units: fs, K, 1/fs.
 */
public sealed interface DynamicsSpec {

    /** The timestep, fs. */
    double timestepFs();

    /** Short name of the integrator and thermostat, as the host integrator's {@code name()}. */
    String name();

    /** NVE velocity Verlet. */
    record VelocityVerlet(double timestepFs) implements DynamicsSpec {
        public VelocityVerlet {
            Checks.requirePositive(timestepFs, "timestep_fs");
        }

        @Override
        public String name() {
            return "velocity-verlet";
        }
    }

    /**
     * Langevin BAOAB (Leimkuhler and Matthews 2013), the O step exact, optionally removing the
     * centre-of-mass velocity after each O step.
     */
    record Langevin(double timestepFs, double temperatureK, double frictionPerFs, boolean removeCentreOfMassDrift)
            implements DynamicsSpec {
        public Langevin {
            Checks.requirePositive(timestepFs, "timestep_fs");
            Checks.requireNonNegative(temperatureK, "temperature_K");
            Checks.requireNonNegative(frictionPerFs, "friction_per_fs");
        }

        @Override
        public String name() {
            return "velocity-verlet + langevin";
        }
    }

    /** Bussi–Donadio–Parrinello stochastic velocity rescaling, applied for dt/2 around the Verlet step. */
    record Bussi(double timestepFs, double temperatureK, double tauFs) implements DynamicsSpec {
        public Bussi {
            Checks.requirePositive(timestepFs, "timestep_fs");
            Checks.requireNonNegative(temperatureK, "temperature_K");
            Checks.requirePositive(tauFs, "tau_fs");
        }

        @Override
        public String name() {
            return "velocity-verlet + bussi";
        }
    }

    /**
     * Nosé–Hoover chain (Martyna, Tuckerman, Tobias, Klein 1996), applied for dt/2 around the Verlet
     * step with {@code multipleTimeSteps} sub-steps and {@code suzukiYoshidaWeights} weights.
     */
    record NoseHooverChain(double timestepFs, double temperatureK, double tauFs, int chainLength, int multipleTimeSteps,
                           int suzukiYoshidaWeights) implements DynamicsSpec {
        public NoseHooverChain {
            Checks.requirePositive(timestepFs, "timestep_fs");
            Checks.requirePositive(temperatureK, "temperature_K");
            Checks.requirePositive(tauFs, "tau_fs");
            Checks.requirePositive(chainLength, "chain_length");
            Checks.requirePositive(multipleTimeSteps, "multiple_time_steps");
            Checks.requirePositive(suzukiYoshidaWeights, "suzuki_yoshida_weights");
        }

        @Override
        public String name() {
            return "velocity-verlet + nose-hoover-chain";
        }

        /**
         * The Suzuki–Yoshida weights of a thermostat sub-step (1, 3, 5 or 7 of them): the one
         * definition the host chain and the device chain both use.
         *
         * @throws IllegalArgumentException for another count
         */
        public static double[] suzukiYoshidaWeights(int n) {
            switch (n) {
                case 1:
                    return new double[] {1.0};
                case 3: {
                    double w = 1.0 / (2.0 - Math.cbrt(2.0));
                    return new double[] {w, 1 - 2 * w, w};
                }
                case 5: {
                    double w = 1.0 / (4.0 - Math.cbrt(4.0));
                    return new double[] {w, w, 1 - 4 * w, w, w};
                }
                case 7: {
                    // Yoshida, Phys. Lett. A 150, 262 (1990), sixth-order solution A.
                    double w1 = 0.784513610477560, w2 = 0.235573213359357, w3 = -1.17767998417887;
                    double w0 = 1 - 2 * (w1 + w2 + w3);
                    return new double[] {w1, w2, w3, w0, w3, w2, w1};
                }
                default:
                    throw new IllegalArgumentException("suzuki_yoshida_weights must be 1, 3, 5 or 7: " + n);
            }
        }
    }

    /** Berendsen weak coupling (not canonical), applied for dt/2 around the Verlet step. */
    record Berendsen(double timestepFs, double temperatureK, double tauFs) implements DynamicsSpec {
        public Berendsen {
            Checks.requirePositive(timestepFs, "timestep_fs");
            Checks.requireNonNegative(temperatureK, "temperature_K");
            Checks.requirePositive(tauFs, "tau_fs");
        }

        @Override
        public String name() {
            return "velocity-verlet + berendsen";
        }
    }
}
