package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.forcefield.safetensors.Dtype;
import org.molten.forcefield.safetensors.SafetensorsFile;
import org.molten.validation.reports.JsonReportWriter;

/**
 * molten run, minimize and validate say, once per structure, when a structure lies outside what the student was
 * distilled on, naming the atom by index and environment: acetonitrile's nitrile carbon, C(C,N), is atom 1 and no
 * v5 training frame holds it. A structure the model was distilled on (ethanol) gets no warning; weights without a
 * domain entry get "domain unknown" once. molten info lists the bundled versions and the domain.
 */
class DomainWarningTest {
    /** Acetonitrile, CH3-C#N (RDKit ETKDG + MMFF94), Å: the nitrile carbon is atom 1. */
    static final String ACETONITRILE = """
            6
            acetonitrile
            C     -0.484988    -0.035965    -0.001032
            C      0.972921     0.072146     0.002071
            N      2.129989     0.157949     0.004533
            H     -0.800799    -1.023523    -0.350195
            H     -0.888017     0.113722     1.004992
            H     -0.929107     0.715670    -0.660370
            """;
    static final String NITRILE_WARNING = "lies outside the domain of student-gfn2-v5: 1 of 6 atoms in environments absent "
            + "from the training data: C(C,N) (atom 1)";

    static Path acetonitrile(Path dir) throws Exception {
        Path f = dir.resolve("acetonitrile.xyz");
        Files.writeString(f, ACETONITRILE);
        return f;
    }

    static int count(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }

    @Test
    void runNamesTheNitrileCarbonOnceAndStaysQuietOnEthanol(@TempDir Path dir) throws Exception {
        Path acn = acetonitrile(dir);
        CliRun r = CliRun.of("run", "--structure", acn.toString(), "--model", "v5", "--steps", "2", "--seed", "1",
                "--device", "cpu", "--replicas", "2");
        assertEquals(0, r.status(), r.err());
        assertEquals(1, count(r.err(), "molten run: warning: " + acn + " " + NITRILE_WARNING), r.err());
        CliRun ethanol = CliRun.of("run", "--system", "ethanol", "--steps", "2", "--seed", "1", "--device", "cpu");
        assertEquals(0, ethanol.status(), ethanol.err());
        assertFalse(ethanol.err().contains("domain"), ethanol.err());
    }

    @Test
    void weightsWithoutADomainSayDomainUnknownOnce(@TempDir Path dir) throws Exception {
        CliRun r = CliRun.of("run", "--structure", acetonitrile(dir).toString(), "--model",
                ValidateWithStudentTest.randomWeights(dir).toString(), "--steps", "1", "--seed", "1", "--device", "cpu",
                "--replicas", "2");
        assertEquals(0, r.status(), r.err());
        assertEquals(1, count(r.err(), "domain unknown"), r.err());
        assertFalse(r.err().contains("atom 1"), r.err());
    }

    @Test
    void minimizeNamesIt(@TempDir Path dir) throws Exception {
        Path acn = acetonitrile(dir);
        CliRun r = CliRun.of("minimize", "--structure", acn.toString(), "--model", "v5", "--max-steps", "1", "--device", "cpu", "--out",
                dir.resolve("relaxed.xyz").toString());
        assertEquals(1, count(r.err(), "molten minimize: warning: " + acn + " " + NITRILE_WARNING), r.err());
    }

    @Test
    void validatesReportCarriesIt(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("report");
        CliRun r = CliRun.of("validate", "--weights", "student-gfn2-v5", "--baseline", "reference", "--structure",
                acetonitrile(dir).toString(), "--systems", "water", "--steps", "64", "--equilibration-steps", "0",
                "--sample-interval", "4", "--replicas", "1", "--teacher-frames", "0", "--device", "cpu", "--out", out.toString());
        assertEquals(1, count(r.out(), "warning: acetonitrile lies outside the model's domain: 1 of 6 atoms"), r.out() + r.err());
        JsonNode domain = JsonReportWriter.mapper().readTree(out.resolve("report.json").toFile()).path("domain");
        assertEquals(2, domain.size(), domain.toString());
        JsonNode water = domain.get(0).path("system").asText().equals("water") ? domain.get(0) : domain.get(1);
        JsonNode acn = domain.get(0) == water ? domain.get(1) : domain.get(0);
        assertEquals(0, water.path("unseen").size(), water.toString());
        assertEquals(2, acn.path("unseen").size(), acn.toString());   // and the nitrile N, N(C), strained frames only
        assertEquals(1, acn.path("unseen").get(0).path("index").asInt());
        assertEquals("C(C,N)", acn.path("unseen").get(0).path("environment").asText());
        assertEquals(0, acn.path("unseen").get(0).path("seen_atom_frames").asInt());
        String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.contains("- **Domain warning** (not a criterion): acetonitrile: 1 of 6 atoms in environments absent "
                + "from the training data: C(C,N) (atom 1)"), md);
        assertTrue(md.contains("## Model domain") && md.contains("| water | 3 | none |"), md);
    }

    @Test
    void infoListsTheBundledVersionsAndTheDomain() {
        CliRun r = CliRun.of("info", "--model", "v5");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("models   bundled: student-gfn2-organic-preview (preview), student-gfn2-v5 (v5, default); "
                + "active: student-gfn2-v5"), r.out());
        assertTrue(r.out().contains("domain   elements C, H, N, O; 6 training molecules (ace-ala5-nme, alanine-dipeptide, "
                + "benzene, ethanol, water, water-clusters); 22677 frames; 59 atom environments"), r.out());
        assertTrue(r.out().contains("typical of a training molecule (13):"), r.out());
        assertTrue(r.out().contains("C(C,H,H,O) [3370]") && r.out().contains("N(C,H,H) [18]"), r.out());
        assertTrue(r.out().contains("seen only in strained frames (46;"), r.out());
    }

    /**
     * Random weights carrying the domain of ethane and propene with its bonded pairs (the JSON domain.py writes for
     * them): ethylene's atoms are all in known environments, but its C=C joins two C(C,H,H), never bonded there.
     */
    static Path weightsWithPairs(Path dir) throws Exception {
        SafetensorsFile sf = SafetensorsFile.read(ValidateWithStudentTest.randomWeights(dir));
        Map<String, String> meta = new LinkedHashMap<>(sf.metadata());
        meta.put("domain", "{\"frames\":2,\"molecule_count\":2,\"molecules\":[\"ethane\",\"propene\"],\"environments\":"
                + "{\"C(C,C,H)\":1,\"C(C,H,H)\":1,\"C(C,H,H,H)\":3,\"H(C)\":14},\"pairs_source\":\"frames\",\"pairs\":"
                + "{\"C(C,C,H)-C(C,H,H)\":1,\"C(C,C,H)-C(C,H,H,H)\":1,\"C(C,C,H)-H(C)\":1,\"C(C,H,H)-H(C)\":2,"
                + "\"C(C,H,H,H)-C(C,H,H,H)\":1,\"C(C,H,H,H)-H(C)\":9}}");
        Path file = dir.resolve("pairs.safetensors");
        SafetensorsFile.of(meta, sf.tensors()).write(file, Dtype.F64);
        return file;
    }

    @Test
    void minimizeNamesABondBetweenEnvironmentsNeverBondedAndInfoCountsThePairs(@TempDir Path dir) throws Exception {
        Path w = weightsWithPairs(dir);
        Path ethylene = Path.of("../forcefield/src/test/resources/org/molten/forcefield/domain/ethylene.xyz");
        CliRun r = CliRun.of("minimize", "--structure", ethylene.toString(), "--model", w.toString(), "--max-steps", "1",
                "--device", "cpu", "--out", dir.resolve("relaxed.xyz").toString());
        assertEquals(1, count(r.err(), "molten minimize: warning: " + ethylene + " lies outside the domain of " + w
                + ": 1 bond between environments never bonded in the training data: C(C,H,H)-C(C,H,H) (atoms 0-1)"), r.err());
        CliRun info = CliRun.of("info", "--model", w.toString());
        assertEquals(0, info.status(), info.err());
        assertTrue(info.out().contains("6 bonded pairs of environments (from frames; a structure's bond"), info.out());
        assertFalse(CliRun.of("info", "--model", "v5").out().contains("bonded pairs"), "v5's entry has no pairs");
    }
}
