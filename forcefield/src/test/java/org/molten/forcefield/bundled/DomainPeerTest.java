package org.molten.forcefield.bundled;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;
import org.molten.core.Bonds;
import org.molten.forcefield.domain.AtomEnvironment;
import org.molten.forcefield.domain.AtomEnvironments;
import org.molten.forcefield.domain.EnvironmentPair;
import org.molten.structures.io.Frame;
import org.molten.structures.io.StructureFiles;

/**
 * The two implementations of an atom environment agree atom for atom: forcefield/training/domain.py (which wrote the
 * domain into the weights) and {@link AtomEnvironments} (which checks structures against it), on the built-in
 * molecules, a nitrile, a nitro compound, ethylene, propene and training frames at 300 to 1000 K (stretched bonds, transient
 * contacts); and the same for every bond's {@link EnvironmentPair}, bond by bond. Needs /usr/bin/python3 with numpy; skipped without it, failing under CI=true ({@link PeerTool}).
 */
class DomainPeerTest {
    private static final String PYTHON = PeerTool.PYTHON;

    static final Path MOLECULES = Path.of("../structures/src/main/resources/org/molten/structures/molecules");
    static final Path OUTSIDE = Path.of("src/test/resources/org/molten/forcefield/domain");
    static final Path DATA = Path.of("training/data");
    static final List<Path> FILES = List.of(MOLECULES.resolve("ethanol.xyz"), MOLECULES.resolve("alanine-dipeptide.xyz"),
            MOLECULES.resolve("ace-ala5-nme.xyz"), OUTSIDE.resolve("acetonitrile.xyz"), OUTSIDE.resolve("nitromethane.xyz"),
            OUTSIDE.resolve("ethylene.xyz"), OUTSIDE.resolve("propene.xyz"),
            DATA.resolve("ethanol.active-r2.val.xyz.gz"), DATA.resolve("water-clusters.active-r3.val.xyz.gz"),
            DATA.resolve("ace-ala5-nme.active-r1.val.xyz.gz"));

    /** domain.py's JSON output for {@code mode} (--atoms, --bonds) over FILES. */
    static JsonNode python(String mode) throws Exception {
        PeerTool.require(PeerTool.pythonHas("numpy"), PYTHON + " with numpy (the training recipe)", "apt-get install python3-numpy");
        List<String> cmd = new ArrayList<>(List.of(PYTHON, "training/domain.py", mode));
        FILES.forEach(f -> cmd.add(f.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "domain.py did not end");
        assertEquals(0, p.exitValue(), "domain.py " + mode + " failed:\n" + err);
        return new ObjectMapper().readTree(out);
    }

    @Test
    void javaAndPythonGiveEveryBondTheSamePair() throws Exception {
        JsonNode python = python("--bonds");
        int bonds = 0;
        for (Path f : FILES) {
            JsonNode frames = python.get(f.toString());
            List<Frame> java = StructureFiles.readAll(f);
            assertEquals(java.size(), frames.size(), f + ": frames");
            for (int k = 0; k < java.size(); k++) {
                Atoms a = java.get(k).atoms();
                List<Bonds.Bond> b = AtomEnvironments.bonds(a);
                List<EnvironmentPair> pairs = AtomEnvironments.pairs(AtomEnvironments.of(a, b), b);
                List<String> mine = new ArrayList<>();
                for (int e = 0; e < b.size(); e++) {
                    mine.add(b.get(e).i() + " " + b.get(e).j() + " " + pairs.get(e).canonical());
                }
                List<String> theirs = new ArrayList<>();
                frames.get(k).forEach(n -> theirs.add(n.get(0).asInt() + " " + n.get(1).asInt() + " " + n.get(2).asText()));
                assertEquals(theirs, mine, f + " frame " + k);
                bonds += mine.size();
            }
        }
        assertTrue(bonds > 3_000, "compared " + bonds + " bonds");
    }

    @Test
    void javaAndPythonGiveEveryAtomTheSameEnvironment() throws Exception {
        JsonNode python = python("--atoms");
        List<Path> files = FILES;
        int atoms = 0;
        for (Path f : files) {
            JsonNode frames = python.get(f.toString());
            List<Frame> java = StructureFiles.readAll(f);
            assertEquals(java.size(), frames.size(), f + ": frames");
            for (int k = 0; k < java.size(); k++) {
                List<String> mine = AtomEnvironments.of(java.get(k).atoms()).stream().map(AtomEnvironment::canonical).toList();
                List<String> theirs = new ArrayList<>();
                frames.get(k).forEach(n -> theirs.add(n.asText()));
                assertEquals(theirs, mine, f + " frame " + k);
                atoms += mine.size();
            }
        }
        assertTrue(atoms > 3_000, "compared " + atoms + " atoms");
    }
}
