package org.molten.validation.stability;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.molten.structures.io.Frame;
import org.molten.structures.io.StructureFiles;

/**
 * The molecules of a stability run, read from structure files (XYZ, extended XYZ, PDB; gzip-compressed or not):
 * every frame one molecule, named by its {@code name=} key or else "file#index" (index from 0). Frames can be
 * selected by key=value pairs of their comment line ({@code --select conformer=0}: the first conformer of each
 * molecule of organic/starts.test.xyz.gz). A name met twice gets "#2", "#3", … so that every row is one molecule.
 */
public final class StabilityMolecules {
    private StabilityMolecules() {}

    /**
     * @param files    the structure files, in order
     * @param select   key → value that a frame's comment must carry (all of them); empty: every frame
     * @throws IOException              naming the file that cannot be read
     * @throws IllegalArgumentException naming the file and frame of a structure the protocol cannot run, or when
     *                                  nothing is left after the selection
     */
    public static List<StabilityMolecule> read(List<Path> files, Map<String, String> select) throws IOException {
        List<StabilityMolecule> out = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (Path file : files) {
            List<Frame> frames = StructureFiles.readAll(file);
            for (int i = 0; i < frames.size(); i++) {
                Frame f = frames.get(i);
                if (!select.entrySet().stream().allMatch(e -> e.getValue().equals(f.info().get(e.getKey())))) {
                    continue;
                }
                String base = f.info().getOrDefault("name", file.getFileName() + "#" + i);
                int n = seen.merge(base, 1, Integer::sum);
                String name = n == 1 ? base : base + "#" + n;
                out.add(new StabilityMolecule(name, file + " frame " + i, f.atoms()));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no molecule in " + files + (select.isEmpty() ? "" : " with " + select));
        }
        return out;
    }
}
