package org.molten.validation.stability;

import com.fasterxml.jackson.annotation.JsonValue;

/** What ended a replica's stability, as MLIPAudit scores it; ordered from best to worst. */
public enum StabilityEvent {
    /** No event in the N frames: score 1. */
    STABLE("stable"),
    /** A hydrogen first farther than 2.5 Å from the heavy atom it was bonded to at the start: ½ + ½·f/N. */
    HYDROGEN_DETACHED("hydrogen-detached"),
    /** The run blew up (MLIPAudit's temperature rule, or a non-finite state): ½·f/N. */
    EXPLOSION("explosion");

    private final String id;

    StabilityEvent(String id) {
        this.id = id;
    }

    /** The name in stability.json / .csv and on the table. */
    @JsonValue
    public String id() {
        return id;
    }
}
