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
import org.molten.forcefield.domain.AtomEnvironment;
import org.molten.forcefield.domain.AtomEnvironments;
import org.molten.structures.io.Frame;
import org.molten.structures.io.StructureFiles;

/**
 * The two implementations of an atom environment agree atom for atom: forcefield/training/domain.py (which wrote the
 * domain into the weights) and {@link AtomEnvironments} (which checks structures against it), on the built-in
 * molecules, a nitrile, a nitro compound and training frames at 300 to 1000 K (stretched bonds, transient
 * contacts). Needs /usr/bin/python3 with numpy; skipped without it, failing under CI=true ({@link PeerTool}).
 */
class DomainPeerTest {
    private static final String PYTHON = PeerTool.PYTHON;

    @Test
    void javaAndPythonGiveEveryAtomTheSameEnvironment() throws Exception {
        PeerTool.require(PeerTool.pythonHas("numpy"), PYTHON + " with numpy (the training recipe)", "apt-get install python3-numpy");
        Path molecules = Path.of("../structures/src/main/resources/org/molten/structures/molecules");
        Path outside = Path.of("src/test/resources/org/molten/forcefield/domain");
        Path data = Path.of("training/data");
        List<Path> files = List.of(molecules.resolve("ethanol.xyz"), molecules.resolve("alanine-dipeptide.xyz"),
                molecules.resolve("ace-ala5-nme.xyz"), outside.resolve("acetonitrile.xyz"), outside.resolve("nitromethane.xyz"),
                data.resolve("ethanol.active-r2.val.xyz.gz"), data.resolve("water-clusters.active-r3.val.xyz.gz"),
                data.resolve("ace-ala5-nme.active-r1.val.xyz.gz"));
        List<String> cmd = new ArrayList<>(List.of(PYTHON, "training/domain.py", "--atoms"));
        files.forEach(f -> cmd.add(f.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "domain.py did not end");
        assertEquals(0, p.exitValue(), "domain.py --atoms failed:\n" + err);
        JsonNode python = new ObjectMapper().readTree(out);
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
