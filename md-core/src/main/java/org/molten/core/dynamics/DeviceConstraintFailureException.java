package org.molten.core.dynamics;

/**
 * A constraint a device could not meet (RATTLE not converged, or a rigid water SETTLE has no
 * solution for): the replica, both atoms (indices within the replica) and the step are in the
 * message and fields; the device's state is that of the last good boundary.
 */
public final class DeviceConstraintFailureException extends DeviceBlowUpException {
    private final int otherAtom;

    public DeviceConstraintFailureException(String message, int replica, int atom, int otherAtom, long step) {
        super(message, replica, atom, step);
        this.otherAtom = otherAtom;
    }

    /** The constraint's second atom, index within its replica. */
    public int otherAtom() {
        return otherAtom;
    }
}
