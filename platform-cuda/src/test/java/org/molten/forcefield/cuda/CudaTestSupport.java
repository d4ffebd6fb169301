package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;
import org.molten.core.Atoms;
import org.molten.core.Cell;

/**
 * GPU tests run on a real CUDA device or, where there is none, on the CPU emulator of the driver
 * (platform-cuda/src/test/cuda-emu: a fake libcuda.so.1 that runs the same kernel sources). The
 * emulator is taken from {@code -Dmolten.cuda.emulator=<libcuda.so.1>} or the environment variable
 * {@code MOLTEN_CUDA_EMULATOR}; without either, and without an NVIDIA device node, the tests build it
 * themselves (g++, a few seconds), so that {@code mvn test} and CI run the GPU tests too. They skip
 * only when neither a device nor the emulator can be had ({@code -Dmolten.cuda.emulator=} with an
 * empty value turns the emulator off), and say why; under {@code CI=true} they fail instead, as the
 * peer tests do (PeerTool), so that a broken emulator build cannot hide behind a green, skipped run.
 */
final class CudaTestSupport {
    private static boolean loaded;
    private static String emulator;          // resolved path, "" when none
    private static String whyNoEmulator = "";

    private CudaTestSupport() {
    }

    /**
     * True when CUDA (real or emulated) can run the kernels; false (the caller skips) when it cannot,
     * except under {@code CI=true}, where that fails the test.
     */
    static synchronized boolean gpu() {
        String emu = emulatorPath();
        if (!emu.isEmpty() && !loaded) {
            // Loaded before JCuda's native library, whose libcuda.so.1 dependency it then satisfies.
            System.setProperty(GpuAvailability.DRIVER_LIBRARY, emu);
            loaded = true;
            GpuAvailability.resetForTests();
        }
        boolean available = GpuAvailability.available();
        return available || skipUnlessCi(whyNot(), System.getenv("CI"));
    }

    /**
     * Answers false (the GPU tests skip) when {@code CI} is anything but "true"; under {@code CI=true}
     * fails with {@code why}: CI installs g++ for the emulator, so its absence there is a broken install.
     */
    static boolean skipUnlessCi(String why, String ciVariable) {
        if ("true".equalsIgnoreCase(ciVariable)) {
            fail(why + ": under CI=true the GPU tests must run on a device or the emulator, not skip");
        }
        return false;
    }

    /** Why the GPU tests skip (for the assumption message). */
    static synchronized String whyNot() {
        return "no CUDA device and no emulator (" + (whyNoEmulator.isEmpty() ? GpuAvailability.probe().reason() : whyNoEmulator) + ")";
    }

    static synchronized boolean emulated() {
        return !emulatorPath().isEmpty();
    }

    private static String emulatorPath() {
        if (emulator == null) {
            String p = System.getProperty("molten.cuda.emulator");
            if (p == null) {
                p = System.getenv("MOLTEN_CUDA_EMULATOR");
            }
            if (p == null) {
                p = hasNvidiaDevice() ? "" : buildEmulator();
            }
            emulator = p.isBlank() ? "" : p;
        }
        return emulator;
    }

    private static boolean hasNvidiaDevice() {
        return java.nio.file.Files.exists(java.nio.file.Path.of("/dev/nvidiactl"));
    }

    /** Runs src/test/cuda-emu/build.sh (working directory: the platform-cuda module); "" if it cannot. */
    private static String buildEmulator() {
        java.nio.file.Path script = java.nio.file.Path.of("src", "test", "cuda-emu", "build.sh");
        if (!java.nio.file.Files.isRegularFile(script)) {
            whyNoEmulator = "emulator sources not found from " + java.nio.file.Path.of("").toAbsolutePath();
            return "";
        }
        try {
            ProcessBuilder pb = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true);
            String jar = jcudaNativesJar();
            if (jar != null) {
                pb.environment().put("JCUDA_NATIVES_JAR", jar);
            }
            Process proc = pb.start();
            String out = new String(proc.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (proc.waitFor() != 0) {
                String last = out.strip().lines().reduce((a, b) -> b).orElse("");
                whyNoEmulator = "building it failed (g++ missing?): " + last;
                System.err.println("CudaTestSupport: emulator build failed, GPU tests skip:\n" + out);
                return "";
            }
            String lib = out.strip().lines().reduce((a, b) -> b).orElse("");
            if (!java.nio.file.Files.isRegularFile(java.nio.file.Path.of(lib))) {
                whyNoEmulator = "the build printed no library: " + lib;
                return "";
            }
            return lib;
        } catch (java.io.IOException e) {
            whyNoEmulator = "cannot run bash: " + e.getMessage();
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            whyNoEmulator = "interrupted";
            return "";
        }
    }

    /** The JCuda natives jar on the test class path (the emulator links against its driver binding), or null. */
    private static String jcudaNativesJar() {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path", ""));
        for (String entry : cp.split(java.io.File.pathSeparator)) {
            String name = java.nio.file.Path.of(entry).getFileName() == null ? "" : java.nio.file.Path.of(entry).getFileName().toString();
            if (name.startsWith("jcuda-natives-") && name.endsWith("-linux-x86_64.jar")) {
                return entry;
            }
        }
        return null;   // build.sh then looks in ~/.m2
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
