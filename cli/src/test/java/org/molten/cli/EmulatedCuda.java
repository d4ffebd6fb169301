package org.molten.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assertions;
import org.molten.forcefield.cuda.GpuAvailability;

/**
 * Runs a {@code molten} command in a JVM of its own whose CUDA driver is a real device or, where
 * there is none, the project's CPU emulator of the driver (platform-cuda/src/test/cuda-emu, the fake
 * libcuda.so.1 the platform-cuda GPU tests use), so that a {@code --device cuda} path really runs the
 * kernels in CI. A JVM of its own because the CUDA probe is decided once per JVM and other tests of
 * this module rely on there being no GPU in theirs. Shared with other modules' tests through cli's
 * test jar (the sweep runs {@code molten sweep} on the emulated GPU). Where neither can be had the
 * callers skip, except under {@code CI=true}, where {@link #driverLibrary()} fails the test, as the
 * peer tests do: CI installs g++ for the emulator, so a failed build there is a broken install.
 */
public final class EmulatedCuda {
    /** The emulator's build script, relative to a module directory (surefire's working directory). */
    private static final Path BUILD_SCRIPT = Path.of("..", "platform-cuda", "src", "test", "cuda-emu", "build.sh");

    private EmulatedCuda() {}

    /**
     * The driver to load: "" for the system's (an NVIDIA device is present), else the built emulator;
     * null if neither (the caller skips), a failed test under {@code CI=true}.
     */
    public static String driverLibrary() throws IOException, InterruptedException {
        if (Files.exists(Path.of("/dev/nvidiactl"))) {
            return "";
        }
        if (!Files.isRegularFile(BUILD_SCRIPT)) {
            return unavailable("the emulator's build script " + BUILD_SCRIPT.toAbsolutePath() + " is missing", System.getenv("CI"));
        }
        ProcessBuilder pb = new ProcessBuilder("bash", BUILD_SCRIPT.toString()).redirectErrorStream(true);
        for (String entry : classPath().split(File.pathSeparator)) {
            String name = Path.of(entry).getFileName() == null ? "" : Path.of(entry).getFileName().toString();
            if (name.startsWith("jcuda-natives-") && name.endsWith("-linux-x86_64.jar")) {
                pb.environment().put("JCUDA_NATIVES_JAR", entry);
            }
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            System.err.println("EmulatedCuda: emulator build failed:\n" + out);
            return unavailable("building the CUDA emulator failed (g++?): " + out.lines().reduce((a, b) -> b).orElse(""),
                    System.getenv("CI"));
        }
        String lib = out.lines().reduce((a, b) -> b).orElse("");
        return Files.isRegularFile(Path.of(lib)) ? lib
                : unavailable("the emulator's build printed no library: " + lib, System.getenv("CI"));
    }

    /** null (the GPU test skips) unless {@code ciVariable} is "true", where it fails with {@code why}. */
    static String unavailable(String why, String ciVariable) {
        if ("true".equalsIgnoreCase(ciVariable)) {
            Assertions.fail("no CUDA device and " + why + ": under CI=true the GPU tests must run, not skip");
        }
        return null;
    }

    /** {@code molten args...} in a fresh JVM with the given driver library ("" = the system's). */
    public static CliRun run(String driverLibrary, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xss8m", "-Dai.djl.offline=true", "--add-opens", "java.base/java.lang=ALL-UNNAMED"));
        if (!driverLibrary.isEmpty()) {
            cmd.add("-D" + GpuAvailability.DRIVER_LIBRARY + "=" + driverLibrary);
        }
        cmd.addAll(List.of("-cp", classPath(), MoltenCli.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Path err = Files.createTempFile("molten-emu", ".err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("molten " + String.join(" ", args) + " did not finish in 600 s");
        }
        String errText = Files.readString(err, StandardCharsets.UTF_8);
        Files.deleteIfExists(err);
        return new CliRun(p.exitValue(), out, errText);
    }

    /** The test class path (surefire passes the real one in this property; its java.class.path is a manifest jar). */
    private static String classPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path", ""));
    }
}
