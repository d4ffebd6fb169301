package org.molten.validation.stability;

/**
 * One replica's outcome and its MLIPAudit score. Frames are counted 1 … N, frame f being the state after f·T/N of
 * the run (T its length), as MLIPAudit's snapshot index f is the state after f snapshot intervals; an event is placed
 * at the first frame at which it is seen. MLIPAudit scores the explosion first: a replica that lost a hydrogen and
 * later exploded scores ½·f_e/N, not ½ + ½·f_h/N, so the run goes on after a hydrogen event looking for an
 * explosion.
 *
 * @param explosionFrame  frame of the explosion, or -1
 * @param detachmentFrame frame at which a hydrogen was first found beyond 2.5 Å from its bonded atom, or -1
 * @param frames          N, the frames of a complete run
 * @param framesDone      frames run so far (N when complete; fewer for an interrupted run, or after an explosion:
 *                        the explosion's frame)
 * @param detail          what was seen at the event (empty when stable)
 */
public record ReplicaStability(int explosionFrame, int detachmentFrame, int frames, int framesDone, String detail) {
    public ReplicaStability {
        if (frames < 1) {
            throw new IllegalArgumentException("a stability run has at least one frame: " + frames);
        }
        if (explosionFrame > frames || detachmentFrame > frames) {
            throw new IllegalArgumentException("event frame past the run's " + frames + " frames");
        }
    }

    /** The event that scores: the explosion when there is one, else a hydrogen detachment, else stable. */
    public StabilityEvent event() {
        if (explosionFrame >= 0) {
            return StabilityEvent.EXPLOSION;
        }
        return detachmentFrame >= 0 ? StabilityEvent.HYDROGEN_DETACHED : StabilityEvent.STABLE;
    }

    /** The frame of {@link #event()}, -1 when stable. */
    public int eventFrame() {
        return switch (event()) {
            case EXPLOSION -> explosionFrame;
            case HYDROGEN_DETACHED -> detachmentFrame;
            case STABLE -> -1;
        };
    }

    /**
     * MLIPAudit's score: ½·f/N on an explosion at frame f, ½ + ½·f/N on a hydrogen detachment at frame f, 1 when
     * stable. A replica stable so far in an unfinished run scores what it has earned: 1 only once all N frames ran
     * (stable up to frame f of an interrupted run is not yet a score: NaN).
     */
    public double score() {
        return switch (event()) {
            case EXPLOSION -> 0.5 * explosionFrame / frames;
            case HYDROGEN_DETACHED -> complete() ? 0.5 + 0.5 * detachmentFrame / frames : Double.NaN;
            case STABLE -> complete() ? 1.0 : Double.NaN;
        };
    }

    /** Whether the score is final: the run reached its last frame, or the replica exploded. */
    public boolean complete() {
        return framesDone >= frames || explosionFrame >= 0;
    }
}
