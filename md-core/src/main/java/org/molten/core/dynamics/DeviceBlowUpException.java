package org.molten.core.dynamics;

/** A replica on a device became non-finite: which replica, atom and step are in the message and fields. */
public class DeviceBlowUpException extends IllegalStateException {
    private final int replica;
    private final int atom;
    private final long step;

    public DeviceBlowUpException(String message, int replica, int atom, long step) {
        super(message);
        this.replica = replica;
        this.atom = atom;
        this.step = step;
    }

    /** The replica that blew up. */
    public int replica() {
        return replica;
    }

    /** The first atom found non-finite, index within its replica. */
    public int atom() {
        return atom;
    }

    /** The step at which it was found. */
    public long step() {
        return step;
    }
}
