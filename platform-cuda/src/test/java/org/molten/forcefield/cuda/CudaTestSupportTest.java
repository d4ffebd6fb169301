package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** Without a device or emulator the GPU tests skip locally and fail under CI=true (as PeerTool's peers). */
class CudaTestSupportTest {
    @Test
    void noDeviceNorEmulatorFailsUnderCi() {
        AssertionFailedError e = assertThrows(AssertionFailedError.class,
                () -> CudaTestSupport.skipUnlessCi("no CUDA device and no emulator (g++ missing)", "true"));
        assertTrue(e.getMessage().contains("g++ missing") && e.getMessage().contains("CI=true"), e.getMessage());
    }

    @Test
    void noDeviceNorEmulatorSkipsElsewhere() {
        assertFalse(CudaTestSupport.skipUnlessCi("no CUDA device and no emulator", null));
        assertFalse(CudaTestSupport.skipUnlessCi("no CUDA device and no emulator", "false"));
    }
}
