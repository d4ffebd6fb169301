package org.molten.validation.runs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.molten.core.Atoms;
import org.molten.structures.io.ExtendedXyzWriter;
import org.molten.structures.io.Frame;
import org.molten.structures.io.VelocityColumn;

/**
 * {@code --export-hard-frames FILE}: the frames of the student's own runs on which it is furthest
 * from its teacher (largest per-atom force error), labelled with the teacher's energy (eV) and
 * forces (eV/Å), as extended XYZ that ASE reads and the training recipe
 * (forcefield/training) takes as extra training data. Each frame's comment line says where it came
 * from: {@code system}, {@code replica}, {@code run}, {@code step}, {@code time_fs} and
 * {@code student_max_atom_force_error_eV_per_A}. A ".gz" name is written compressed.
 */
final class HardFrames {
    /** Default frames per system. */
    static final int DEFAULT_PER_SYSTEM = 20;

    private HardFrames() {}

    /** Writes the worst {@code perSystem} frames of every system; returns how many were written. */
    static int write(Path file, List<SystemSource> systems, ReplicaOutcome[][] outcomes, int perSystem) throws IOException {
        List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < systems.size(); i++) {
            List<Labelled> evaluated = new ArrayList<>();
            for (ReplicaOutcome r : outcomes[i]) {
                for (FrameEval e : r.teacherFrames()) {
                    if (e.failure() == null) {
                        evaluated.add(new Labelled(r, e));
                    }
                }
            }
            evaluated.sort(Comparator.comparingDouble((Labelled l) -> l.eval.maxAtomErrorEvPerA()).reversed());
            for (Labelled l : evaluated.subList(0, Math.min(perSystem, evaluated.size()))) {
                frames.add(frame(systems.get(i).name(), l.replica, l.eval));
            }
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            java.nio.file.Files.createDirectories(parent);
        }
        try (ExtendedXyzWriter w = ExtendedXyzWriter.create(file, VelocityColumn.NEVER)) {
            for (Frame f : frames) {
                w.write(f);
            }
        }
        return frames.size();
    }

    private record Labelled(ReplicaOutcome replica, FrameEval eval) {
    }

    private static Frame frame(String system, ReplicaOutcome r, FrameEval e) {
        Atoms atoms = r.start().copy();
        System.arraycopy(e.positionsA(), 0, atoms.positions(), 0, atoms.positions().length);
        java.util.Arrays.fill(atoms.velocities(), 0.0);
        Map<String, String> info = new LinkedHashMap<>();
        info.put("system", system);
        info.put("replica", Integer.toString(r.replica()));
        info.put("run", e.where().run());
        info.put("step", Long.toString(e.where().step()));
        info.put("time_fs", String.format(Locale.ROOT, "%.3f", e.where().timeFs()));
        info.put("student_max_atom_force_error_eV_per_A", String.format(Locale.ROOT, "%.6g", e.maxAtomErrorEvPerA()));
        info.put("source", "molten-validate");
        return Frame.of(atoms, e.teacherEnergyEv(), e.teacherForces()).withInfo(info);
    }
}
