package org.molten.validation;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.molten.core.ForceField;
import org.molten.forcefield.cuda.GpuAvailability;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.StudentWeights;

/** Where the student computes its forces ({@code --device} of {@code molten run} and {@code molten validate}). */
public enum DeviceChoice {
    /** CUDA when a usable GPU is present, else the CPU (with one warning in the report). */
    AUTO("auto"),
    /** The optimised CPU implementation. */
    CPU("cpu"),
    /** The CUDA implementation; falls back to the CPU with a warning when no GPU can be used. */
    CUDA("cuda");

    private final String id;

    DeviceChoice(String id) {
        this.id = id;
    }

    /** Command-line and report name. */
    public String id() {
        return id;
    }

    /**
     * The student force field for this choice: the optimised CPU path for {@link #CPU}; for
     * {@link #AUTO} the GPU when the CUDA probe finds one and the CPU silently otherwise; for
     * {@link #CUDA} the GPU, or (with one warning, counted in the GPU status) the CPU when no GPU
     * can be used.
     */
    public ForceField student(StudentWeights weights) {
        return switch (this) {
            case CPU -> new OptimisedStudent(weights);
            case AUTO -> GpuAvailability.available() ? GpuAvailability.studentForceField(weights)
                    : new OptimisedStudent(weights);
            case CUDA -> GpuAvailability.studentForceField(weights);
        };
    }

    /**
     * The device named {@code name} (case-insensitive).
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static DeviceChoice parse(String name) {
        for (DeviceChoice k : values()) {
            if (k.id.equalsIgnoreCase(name.trim())) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown device '" + name + "'; choose one of "
                + Arrays.stream(values()).map(DeviceChoice::id).collect(Collectors.joining(", ")));
    }

    @com.fasterxml.jackson.annotation.JsonValue
    @Override
    public String toString() {
        return id;
    }
}
