package org.molten.bench;

/** A timed call did not compute from new inputs: its timing would measure a cache, not the model. */
public final class StaleResultException extends IllegalStateException {
    /** With the reason, naming the call. */
    public StaleResultException(String message) {
        super(message);
    }
}
