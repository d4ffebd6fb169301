package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** A CUDA emulator that cannot be built skips the GPU CLI tests locally and fails them under CI=true. */
class EmulatedCudaTest {
    @Test
    void anEmulatorThatCannotBeBuiltFailsUnderCi() {
        AssertionFailedError e = assertThrows(AssertionFailedError.class,
                () -> EmulatedCuda.unavailable("building the CUDA emulator failed (g++?): g++: not found", "true"));
        assertTrue(e.getMessage().contains("g++: not found") && e.getMessage().contains("CI=true"), e.getMessage());
    }

    @Test
    void anEmulatorThatCannotBeBuiltSkipsElsewhere() {
        assertNull(EmulatedCuda.unavailable("building the CUDA emulator failed", null));
    }
}
