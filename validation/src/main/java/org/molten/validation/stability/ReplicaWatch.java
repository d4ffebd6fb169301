package org.molten.validation.stability;

import java.util.Locale;
import java.util.Optional;
import org.molten.core.Atoms;
import org.molten.validation.metrics.StructuralIntegrity;

/**
 * What the stability protocol sees of one replica, frame after frame: the explosion rule on its kinetic temperature
 * and non-finite positions, and the hydrogen rule of {@link StructuralIntegrity#detachedHydrogen} (bonds perceived
 * once in the start), or under {@link HydrogenRule#DRIFT} MLIPAudit's drift ({@link HydrogenDrift}). The first
 * hydrogen event is kept and the replica watched on for an explosion, which scores instead (MLIPAudit scores the
 * explosion first). Not thread-safe.
 */
final class ReplicaWatch {
    private final StructuralIntegrity hydrogens;
    private final HydrogenDrift drift;   // null under the bonded rule
    private final ExplosionRule explosion;
    private final int frames;
    private final double frameFs;
    private int explosionFrame = -1;
    private int detachmentFrame = -1;
    private int framesDone;
    private String detail = "";

    /**
     * @param start    the molecule's starting structure (its bonds)
     * @param targetK  thermostat temperature, K
     * @param initialK kinetic temperature at the start, K
     * @param frames   N
     * @param frameFs  fs between two frames
     */
    ReplicaWatch(Atoms start, double targetK, double initialK, int frames, double frameFs) {
        this(start, targetK, initialK, frames, frameFs, HydrogenRule.BONDED);
    }

    /** As above, scoring the hydrogen event of {@code rule}. */
    ReplicaWatch(Atoms start, double targetK, double initialK, int frames, double frameFs, HydrogenRule rule) {
        this.hydrogens = StructuralIntegrity.of(start);
        this.drift = rule == HydrogenRule.DRIFT ? new HydrogenDrift(start) : null;
        this.explosion = new ExplosionRule(targetK, initialK);
        this.frames = frames;
        this.frameFs = frameFs;
    }

    /** Checks frame {@code frame}; returns true when the replica exploded there (it then stops counting). */
    boolean observe(int frame, Atoms atoms, double temperatureK) {
        framesDone = frame;
        for (double x : atoms.positions()) {
            if (!Double.isFinite(x)) {
                return explode(frame, "non-finite coordinate " + x + " Å");
            }
        }
        Optional<String> hot = explosion.check(temperatureK);
        if (hot.isPresent()) {
            return explode(frame, hot.get());
        }
        if (drift != null) {
            drift.observe(frame, atoms);
        } else if (detachmentFrame < 0) {
            Optional<String> far = hydrogens.detachedHydrogen(atoms);
            if (far.isPresent()) {
                detachmentFrame = frame;
                detail = far.get() + String.format(Locale.ROOT, " at %.3f ps", frame * frameFs / 1000);
            }
        }
        return false;
    }

    /** The replica blew up between frames {@code frame - 1} and {@code frame} (the integrator's guard stopped it). */
    boolean explode(int frame, String why) {
        explosionFrame = frame;
        framesDone = frame;
        detail = why + String.format(Locale.ROOT, " at %.3f ps", frame * frameFs / 1000)
                + (detachmentFrame >= 0 ? "; earlier: " + detail : "");
        return true;
    }

    boolean exploded() {
        return explosionFrame >= 0;
    }

    ReplicaStability result() {
        if (drift != null) {
            int f = drift.frame();
            String text = f < 0 ? "" : drift.describe() + String.format(Locale.ROOT, " (%.3f ps)", f * frameFs / 1000);
            return new ReplicaStability(explosionFrame, f, frames, framesDone,
                    explosionFrame >= 0 ? detail : text);
        }
        return new ReplicaStability(explosionFrame, detachmentFrame, frames, framesDone, detail);
    }
}
