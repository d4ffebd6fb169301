package org.molten;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.integrators.reporters.EnergyLogReporter;
import org.molten.validation.metrics.BlockAverage;
import org.molten.validation.metrics.CanonicalExpectation;

/**
 * The README's "From Java" program, extracted verbatim from README.md, compiled with the JDK's
 * compiler against the test class path and run: it must compile as shown, write the log it
 * promises, and sample 300 K.
 */
class ReadmeExampleTest {
    private static final Path README = Path.of("..", "README.md");

    /** The first ```java block after the "### From Java" heading. */
    static String javaBlock() throws Exception {
        String md = Files.readString(README);
        int from = md.indexOf("### From Java");
        assertTrue(from >= 0, "README.md has a '### From Java' section");
        Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(md);
        assertTrue(m.find(from), "a java block follows the heading");
        return m.group(1);
    }

    @Test
    void readmeProgramCompilesAsShownRunsAndSamples300K(@TempDir Path dir) throws Exception {
        String source = javaBlock();
        Matcher cls = Pattern.compile("public class (\\w+)").matcher(source);
        assertTrue(cls.find(), "the block is a complete program with a public class");
        Path file = dir.resolve(cls.group(1) + ".java");
        Files.writeString(file, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = javac.run(null, diagnostics, diagnostics, "-classpath", System.getProperty("java.class.path"),
                "-d", dir.toString(), file.toString());
        assertEquals(0, rc, "the README's program compiles as shown:\n" + diagnostics.toString(StandardCharsets.UTF_8));

        Path log = dir.resolve("energy.csv");
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = loader.loadClass(cls.group(1)).getMethod("main", String[].class);
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) new String[] {log.toString()});
        } finally {
            System.setOut(stdout);
        }
        String said = printed.toString(StandardCharsets.UTF_8);
        stdout.print("README program printed: " + said);
        assertTrue(said.startsWith("4000 steps, 2.0 ps, T = "), said);
        assertTrue(said.contains("(24 degrees of freedom)"), "3N - 3 for ethanol under Langevin: " + said);

        List<String> rows = Files.readAllLines(log).stream().filter(l -> !l.startsWith("#")).toList(); // the T[K] convention
        assertEquals(EnergyLogReporter.HEADER, rows.get(0));
        assertEquals(1 + 401, rows.size(), "header + steps 0, 10, ..., 4000");
        // Mean temperature after 0.5 ps of equilibration, against 300 K with a block-averaged (correlated)
        // error bar. Canonical: sigma_T = T sqrt(2/dof) = 87 K per sample; 300 samples 5 fs apart over
        // 1.5 ps with a correlation time of ~50 fs (1/(2 gamma)) give an error of the mean near 20 K.
        double[] t = new double[rows.size() - 1 - 100];
        for (int i = 0; i < t.length; i++) {
            String[] c = rows.get(1 + 100 + i).split(",");
            t[i] = Double.parseDouble(c[4]);
            assertEquals(Double.parseDouble(c[1]), Double.parseDouble(c[2]) + Double.parseDouble(c[3]), 2e-8, "Etot = Epot + Ekin");
        }
        BlockAverage mean = BlockAverage.of(t);
        double sigmaT = CanonicalExpectation.temperatureSigmaK(300, 24);
        double sd = Math.sqrt(org.molten.validation.metrics.SeriesStatistics.variance(t));
        System.out.printf(Locale.ROOT, "README run: <T> = %.1f +- %.1f K (%d blocks), sd(T) = %.1f K (canonical %.1f K)%n",
                mean.mean(), mean.standardError(), mean.blocks(), sd, sigmaT);
        assertTrue(mean.standardError() < 30, "the run is long enough to test 300 K: error " + mean.standardError() + " K");
        double z = Math.abs(mean.mean() - 300) / mean.standardError();
        assertTrue(z < BlockAverage.equivalentThreshold(4, mean.blocks()),
                "mean temperature " + mean.mean() + " K is 300 K within 4 error bars (z = " + z + ")");
        // The fluctuations are canonical too, within 40 % (the sd of ~15 independent samples' worth).
        assertEquals(sigmaT, sd, 0.4 * sigmaT, "sd of T");
    }
}
