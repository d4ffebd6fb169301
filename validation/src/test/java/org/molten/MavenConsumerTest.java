package org.molten;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Molten as a Maven dependency, as the README's "From your Maven or Gradle project" says: {@code mvn install}
 * of the library modules, then a project of one's own that imports {@code org.molten:molten-bom} and depends on
 * {@code forcefield} and {@code integrators} builds
 * offline and runs a simulation with the bundled student.
 *
 * <p>{@code mvn test} installs nothing, and installing into the shared {@code ~/.m2} would leak, so the test
 * installs into a repository of its own: a temporary local repository whose third-party artifacts are links
 * into {@code ~/.m2/repository} (all but {@code org/molten}, which stays empty until the install fills it).
 * The install runs on a copy of the sources (poms and {@code src/main}), so the running build's
 * {@code target/} directories are left alone. Both builds run offline; where a plugin that {@code mvn test}
 * never needs (jar, install) is not in {@code ~/.m2} yet, as on a clean CI machine, the install alone is
 * retried online.
 */
class MavenConsumerTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> LIBRARY = List.of("md-core", "structures", "forcefield", "integrators", "bom");

    /** The consumer: a JUnit test that runs 20 steps of ethanol with the bundled student. */
    private static final String CONSUMER_TEST = """
            import static org.junit.jupiter.api.Assertions.assertTrue;

            import org.junit.jupiter.api.Test;
            import org.molten.core.ForceField;
            import org.molten.forcefield.bundled.BundledModel;
            import org.molten.integrators.Simulation;
            import org.molten.integrators.VelocityVerlet;
            import org.molten.integrators.thermostats.LangevinThermostat;
            import org.molten.structures.BuiltInMolecules;

            class MoltenAsADependencyTest {
                @Test
                void ethanolRuns() throws Exception {
                    try (ForceField student = BundledModel.forceField();
                         Simulation sim = Simulation.builder(BuiltInMolecules.load("ethanol"), student,
                                 new VelocityVerlet(0.5, LangevinThermostat.of(300.0, 0.01))).seed(1).temperature(300.0)
                                 .platform("cpu").build()) {
                        sim.step(20);
                        System.out.println("consumer: " + sim.stepCount() + " steps, Etot " + sim.totalEnergyEv() + " eV");
                        assertTrue(sim.stepCount() == 20 && Double.isFinite(sim.totalEnergyEv()));
                    }
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void aProjectThatImportsTheBomAndDependsOnForcefieldAndIntegratorsBuildsOfflineAndRuns() throws Exception {
        String rootPom = Files.readString(ROOT.resolve("pom.xml"));
        Path m2 = Path.of(System.getProperty("user.home"), ".m2", "repository");
        Path repo = overlay(m2, dir.resolve("repository"));

        // mvn install of the library, on a copy of the sources
        Path src = dir.resolve("molten");
        copySources(src);
        List<String> install = new ArrayList<>(List.of("mvn", "-B", "-ntp", "-q", "-o", "-Dmaven.repo.local=" + repo,
                "-pl", "bom,forcefield,integrators", "-am", "install", "-Dmaven.test.skip=true", "-Dmaven.javadoc.skip=true"));
        Result r = mvn(src, install);
        if (r.status != 0 && r.output.contains("offline")) {
            install.remove("-o");   // jar and install plugins not in ~/.m2 yet (a clean CI machine): fetch them once
            r = mvn(src, install);
        }
        assertEquals(0, r.status, "mvn install of the library failed:\n" + r.output);
        String version = tag(rootPom, "<version>([^<]+)</version>");
        for (String m : LIBRARY) {
            String artifact = m.equals("bom") ? "molten-bom" : m;
            assertTrue(Files.exists(repo.resolve("org/molten/" + artifact + "/" + version + "/" + artifact + "-" + version
                    + (m.equals("bom") ? ".pom" : ".jar"))), artifact + " installed at the parent's version " + version);
        }

        // a project of one's own, as the README shows it, built and run offline against what was installed
        Path consumer = dir.resolve("consumer");
        Files.createDirectories(consumer.resolve("src/test/java"));
        Files.writeString(consumer.resolve("src/test/java/MoltenAsADependencyTest.java"), CONSUMER_TEST);
        Files.writeString(consumer.resolve("pom.xml"), consumerPom(rootPom, version));
        r = mvn(consumer, List.of("mvn", "-B", "-ntp", "-o", "-Dmaven.repo.local=" + repo, "test"));
        assertEquals(0, r.status, "the consumer project failed:\n" + r.output);
        assertTrue(r.output.contains("consumer: 20 steps, Etot "), r.output);
        assertTrue(r.output.contains("Tests run: 1, Failures: 0, Errors: 0, Skipped: 0"), r.output);
    }

    /** The consumer's pom: the README's BOM and dependencies, and the plugin versions Molten's own build already fetched. */
    private static String consumerPom(String rootPom, String version) {
        return """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>org.example</groupId>
                  <artifactId>uses-molten</artifactId>
                  <version>1.0</version>
                  <properties>
                    <maven.compiler.release>17</maven.compiler.release>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                  </properties>
                  <dependencyManagement><dependencies>
                    <dependency><groupId>org.molten</groupId><artifactId>molten-bom</artifactId><version>%s</version>
                      <type>pom</type><scope>import</scope></dependency>
                  </dependencies></dependencyManagement>
                  <dependencies>
                    <dependency><groupId>org.molten</groupId><artifactId>forcefield</artifactId></dependency>
                    <dependency><groupId>org.molten</groupId><artifactId>integrators</artifactId></dependency>
                    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>%s</version>
                      <scope>test</scope></dependency>
                  </dependencies>
                  <build><plugins>
                    <plugin><artifactId>maven-compiler-plugin</artifactId><version>%s</version></plugin>
                    <plugin><artifactId>maven-resources-plugin</artifactId><version>%s</version></plugin>
                    <plugin><artifactId>maven-surefire-plugin</artifactId><version>%s</version></plugin>
                  </plugins></build>
                </project>
                """.formatted(version, tag(rootPom, "<junit.version>([^<]+)</junit.version>"),
                pluginVersion(rootPom, "maven-compiler-plugin"), pluginVersion(rootPom, "maven-resources-plugin"),
                pluginVersion(rootPom, "maven-surefire-plugin"));
    }

    private static String pluginVersion(String pom, String plugin) {
        return tag(pom, "<artifactId>" + plugin + "</artifactId><version>([^<]+)</version>");
    }

    private static String tag(String pom, String regex) {
        Matcher m = Pattern.compile(regex).matcher(pom);
        assertTrue(m.find(), "pom.xml has " + regex);
        return m.group(1);
    }

    /** A local repository holding links to every third-party directory of {@code m2} and an empty org/molten. */
    private static Path overlay(Path m2, Path repo) throws IOException {
        Files.createDirectories(repo.resolve("org"));
        try (Stream<Path> top = Files.list(m2)) {
            for (Path p : top.toList()) {
                if (!p.getFileName().toString().equals("org")) {
                    Files.createSymbolicLink(repo.resolve(p.getFileName().toString()), p);
                }
            }
        }
        try (Stream<Path> org = Files.list(m2.resolve("org"))) {
            for (Path p : org.toList()) {
                if (!p.getFileName().toString().equals("molten")) {
                    Files.createSymbolicLink(repo.resolve("org").resolve(p.getFileName().toString()), p);
                }
            }
        }
        return repo;
    }

    /** Every module's pom (the reactor reads them all) and the library modules' main sources. */
    private static void copySources(Path to) throws IOException {
        Files.createDirectories(to);
        Files.copy(ROOT.resolve("pom.xml"), to.resolve("pom.xml"));
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path m : modules.filter(p -> Files.isRegularFile(p.resolve("pom.xml"))).toList()) {
                Path target = to.resolve(m.getFileName().toString());
                Files.createDirectories(target);
                Files.copy(m.resolve("pom.xml"), target.resolve("pom.xml"));
                if (LIBRARY.contains(m.getFileName().toString()) && Files.isDirectory(m.resolve("src/main"))) {
                    copyTree(m.resolve("src/main"), target.resolve("src/main"));
                }
            }
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }

    private record Result(int status, String output) {
    }

    private static Result mvn(Path dir, List<String> command) throws Exception {
        Path log = Files.createTempFile(dir.getParent(), "mvn", ".log");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        boolean done = p.waitFor(8, TimeUnit.MINUTES);
        if (!done) {
            p.destroyForcibly();
        }
        return new Result(done ? p.exitValue() : -1, Files.readString(log, StandardCharsets.UTF_8));
    }
}
