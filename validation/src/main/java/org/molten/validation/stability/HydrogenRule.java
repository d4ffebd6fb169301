package org.molten.validation.stability;

import com.fasterxml.jackson.annotation.JsonValue;

/** Which hydrogen event the protocol scores (docs/validation.md, "MLIPAudit stability protocol"). */
public enum HydrogenRule {
    /**
     * MLIPAudit's documentation and issue 27: the first frame at which a hydrogen bonded to a heavy atom at the start
     * is farther than 2.5 Å from that atom ({@link org.molten.validation.metrics.StructuralIntegrity#detachedHydrogen}).
     */
    BONDED("bonded"),
    /**
     * MLIPAudit's code ({@code detect_hydrogen_drift}): the first frame from which a hydrogen bonded at the start is
     * farther than 2.5 Å from every heavy atom and stays so to the last frame; a hydrogen that swings out and back,
     * or hops to another heavy atom, does not count. Known only once the run ends.
     */
    DRIFT("drift");

    private final String id;

    HydrogenRule(String id) {
        this.id = id;
    }

    /** The command-line and JSON name. */
    @JsonValue
    public String id() {
        return id;
    }

    /** The rule named {@code name}, refused naming {@code --hydrogen-rule} and the choices. */
    public static HydrogenRule parse(String name) {
        for (HydrogenRule r : values()) {
            if (r.id.equalsIgnoreCase(name.trim())) {
                return r;
            }
        }
        throw new IllegalArgumentException("--hydrogen-rule must be bonded or drift: " + name);
    }
}
