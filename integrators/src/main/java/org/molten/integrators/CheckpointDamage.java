package org.molten.integrators;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What is wrong with a checkpoint whose CRC-32 does not match, in words a user can act on: a file
 * shorter than the fields its header declares need is <em>truncated</em> (an interrupted copy, a
 * full disk while copying); otherwise its bytes were changed after it was written
 * (<em>corrupted</em>) or cut after its fixed-size fields. Either way it is refused: a restart
 * from damaged positions or random-stream state would silently continue another trajectory.
 */
final class CheckpointDamage {
    /** Bytes of the header before the atom count: magic and version. */
    private static final int HEADER = 12;

    private CheckpointDamage() {}

    /**
     * The message for {@code file} (its bytes {@code all}) whose recorded CRC {@code stored} differs from the
     * {@code computed} one.
     */
    static String describe(Path file, byte[] all, long stored, long computed) {
        long need = smallestSize(all);
        if (need > all.length) {
            return String.format(Locale.ROOT, "checkpoint %s is truncated: it has %d bytes, but a checkpoint of the %d atoms its "
                    + "header declares has at least %d (an interrupted copy, or a disk that filled up?); restart from an "
                    + "earlier checkpoint", file, all.length, ByteBuffer.wrap(all, HEADER, 4).getInt(), need);
        }
        return String.format(Locale.ROOT, "checkpoint %s is corrupted or truncated: its CRC-32 check fails (the file records "
                + "%08x, its %d bytes of contents give %08x): it was changed or cut after it was written; restart from an "
                + "earlier checkpoint", file, stored, all.length - 8, computed);
    }

    /**
     * The fewest bytes a checkpoint of the atom count in its header can have (empty strings, no cell,
     * no random state, no integrator state, no outputs), or 0 when the count is unreadable.
     */
    static long smallestSize(byte[] all) {
        if (all.length < HEADER + 4) {
            return 0;
        }
        long n = ByteBuffer.wrap(all, HEADER, 4).getInt();
        if (n <= 0) {
            return 0;
        }
        long perAtom = 4 + 8 + 3 * 3 * 8;       // atomic number, mass, positions, velocities, forces
        long fixed = HEADER + 4                  // atom count
                + 1                              // cell flag
                + 3 * 2                          // force field, fingerprint, integrator (UTF lengths; version 3 adds the platform)
                + 4 + 1 + 8 + 8 + 8 + 8          // dof, seed flag and seed, step, time, energy
                + 1 + 4 + 4                      // random-state flag, integrator-state length, output count
                + 8;                             // CRC
        return fixed + n * perAtom;
    }
}
