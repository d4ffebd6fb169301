package org.molten.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The independent test set of issue 14 (forcefield/training/testset-independent: other conformers, 300 K and 600 K):
 * {@code molten accuracy --testset} on it reproduces the bundled model's per-family table of docs/model-card.md, one
 * row per file {@code <system>_<family>_<T>K}, and every family the card names is there.
 */
class IndependentTestSetTest {
    static final Path TESTSET = Path.of("..", "forcefield", "training", "testset-independent");

    /** Card rows between the independent-table markers: system, family, T, frames, F MAE bundled, ..., E MAE bundled. */
    static List<String[]> cardRows() throws IOException {
        List<String> lines = Files.readAllLines(AccuracyCommandTest.MODEL_CARD);
        int begin = lines.indexOf("<!-- independent-table:begin -->");
        int end = lines.indexOf("<!-- independent-table:end -->");
        assertTrue(begin >= 0 && end > begin, "model card lacks the independent-table markers");
        List<String[]> rows = new ArrayList<>();
        for (String line : lines.subList(begin + 1, end)) {
            if (!line.startsWith("|") || line.contains("---") || line.contains("family")) {
                continue;
            }
            String[] c = line.substring(1, line.lastIndexOf('|')).split("\\|");
            for (int k = 0; k < c.length; k++) {
                c[k] = c[k].strip();
            }
            rows.add(c);
        }
        return rows;
    }

    @Test
    void reproducesTheModelCardFamilyTable(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("acc.json");
        CliRun run = CliRun.of("accuracy", "--testset", TESTSET.toString(), "--device", "cpu", "--json", json.toString());
        assertEquals(0, run.status(), run.out() + run.err());
        JsonNode systems = new ObjectMapper().readTree(json.toFile()).get("systems");
        List<String[]> card = cardRows();
        assertEquals(36, card.size(), "families x temperatures in the card");
        int models = (card.get(0).length - 4) / 2;   // columns: 4 keys, then F MAE and E MAE per model (bundled first)
        for (String[] c : card) {
            String key = c[0] + "_" + c[1] + "_" + c[2];
            JsonNode s = systems.get(key);
            assertNotNull(s, "command did not report " + key);
            assertEquals(Integer.parseInt(c[3]), s.get("frames").asInt(), key + " frames");
            assertEquals(Double.parseDouble(c[4]), s.get("force_mae_ev_per_a").asDouble(), AccuracyCommandTest.halfUlp(c[4]), key + " F MAE");
            assertEquals(Double.parseDouble(c[4 + models]), s.get("energy_mae_mev_per_atom").asDouble(),
                    AccuracyCommandTest.halfUlp(c[4 + models]), key + " E MAE");
        }
        // both temperatures of every family, and the cis amides of both peptides
        for (String peptide : List.of("alanine-dipeptide", "ace-ala5-nme")) {
            for (String t : List.of("300K", "600K")) {
                assertNotNull(systems.get(peptide + "_cis-pII_" + t), peptide + " cis amide at " + t);
            }
        }
    }
}
