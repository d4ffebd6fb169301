package org.molten.forcefield.cuda;

import java.util.Random;
import org.molten.core.Atoms;
import org.molten.core.Cell;

/**
 * GPU tests run on a real CUDA device or, with {@code -Dmolten.cuda.emulator=<libcuda.so.1>} or
 * the environment variable {@code MOLTEN_CUDA_EMULATOR} (scripts/gpu-emu-test.sh), on the CPU
 * emulator of the driver; without either they are skipped.
 */
final class CudaTestSupport {
    private static boolean loaded;

    private CudaTestSupport() {
    }

    /** True when CUDA (real or emulated) can run the kernels. */
    static synchronized boolean gpu() {
        String emu = emulatorPath();
        if (emu != null && !emu.isBlank() && !loaded) {
            // Loaded before JCuda's native library, whose libcuda.so.1 dependency it then satisfies.
            System.setProperty(GpuAvailability.DRIVER_LIBRARY, emu);
            loaded = true;
            GpuAvailability.resetForTests();
        }
        return GpuAvailability.available();
    }

    static boolean emulated() {
        return emulatorPath() != null;
    }

    private static String emulatorPath() {
        String p = System.getProperty("molten.cuda.emulator");
        return p != null ? p : System.getenv("MOLTEN_CUDA_EMULATOR");
    }

    /** N atoms of H, C, N, O at random, at least {@code minDist} Å apart, in a cube of the given side. */
    static Atoms randomAtoms(long seed, int n, double side, double minDist, Cell cell) {
        Random rnd = new Random(seed);
        int[] z = new int[n];
        int[] choice = {1, 6, 7, 8};
        double[] r = new double[3 * n];
        for (int i = 0; i < n; i++) {
            z[i] = choice[rnd.nextInt(4)];
            for (int tries = 0; ; tries++) {
                for (int k = 0; k < 3; k++) {
                    r[3 * i + k] = side * rnd.nextDouble();
                }
                boolean ok = true;
                for (int j = 0; j < i && ok; j++) {
                    double d2 = 0;
                    for (int k = 0; k < 3; k++) {
                        double d = r[3 * i + k] - r[3 * j + k];
                        if (cell != null && cell.periodic(k) && cell.isOrthorhombic()) {
                            double l = cell.vector(k)[k];
                            d -= l * Math.rint(d / l);
                        }
                        d2 += d * d;
                    }
                    ok = d2 >= minDist * minDist;
                }
                if (ok) {
                    break;
                }
                if (tries > 100000) {
                    throw new IllegalStateException("cannot place atom " + i);
                }
            }
        }
        return Atoms.of(z, r, cell);
    }

    /** ||a - b|| / ||b||. */
    static double relativeError(double[] a, double[] b) {
        double num = 0, den = 0;
        for (int i = 0; i < a.length; i++) {
            num += (a[i] - b[i]) * (a[i] - b[i]);
            den += b[i] * b[i];
        }
        return Math.sqrt(num / den);
    }
}
