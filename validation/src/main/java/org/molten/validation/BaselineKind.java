package org.molten.validation;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The baseline model the optimised student is compared with. */
public enum BaselineKind {
    /** The TorchScript export of the bundled model, run by libtorch through DJL. */
    TORCHSCRIPT("torchscript"),
    /** The reference (plain Java, float64) implementation of the student model. */
    REFERENCE("reference"),
    /**
     * The teacher itself (GFN2-xTB): the same protocol driven by the teacher from the identical
     * starting states, and the structural observables of both compared.
     */
    TEACHER("teacher");

    private final String id;

    BaselineKind(String id) {
        this.id = id;
    }

    /** Command-line and report name. */
    public String id() {
        return id;
    }

    /**
     * The baseline named {@code name} (case-insensitive).
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static BaselineKind parse(String name) {
        for (BaselineKind k : values()) {
            if (k.id.equalsIgnoreCase(name.trim())) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown baseline '" + name + "'; choose one of "
                + Arrays.stream(values()).map(BaselineKind::id).collect(Collectors.joining(", ")));
    }

    @com.fasterxml.jackson.annotation.JsonValue
    @Override
    public String toString() {
        return id;
    }
}
