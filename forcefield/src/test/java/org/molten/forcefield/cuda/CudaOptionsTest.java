package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** CudaOptions.fromSystemProperties: each property overrides its default; a bad value is refused by name. */
class CudaOptionsTest {
    private static final String[] KEYS = {"molten.cuda.mode", "molten.cuda.graphs", "molten.cuda.stepsPerLaunch",
        "molten.cuda.fp32State", "molten.cuda.largeSystemAtoms"};

    @AfterEach
    void clear() {
        for (String k : KEYS) {
            System.clearProperty(k);
        }
    }

    @Test
    void propertiesOverrideTheDefaults() {
        CudaOptions d = CudaOptions.fromSystemProperties();
        assertEquals(CudaOptions.DEFAULT_LARGE_SYSTEM_ATOMS, d.largeSystemAtoms());
        assertEquals(CudaOptions.DEFAULT_STEPS_PER_LAUNCH, d.stepsPerLaunch());
        System.setProperty("molten.cuda.largeSystemAtoms", "400");
        System.setProperty("molten.cuda.stepsPerLaunch", " 25 ");
        System.setProperty("molten.cuda.mode", "stages");
        CudaOptions o = CudaOptions.fromSystemProperties();
        assertEquals(400, o.largeSystemAtoms());
        assertEquals(25, o.stepsPerLaunch());
        assertEquals(CudaOptions.Mode.STAGES, o.mode());
    }

    @Test
    void badValuesAreRefusedWithTheirKey() {
        for (String[] kv : new String[][] {{"molten.cuda.largeSystemAtoms", "many"},
            {"molten.cuda.largeSystemAtoms", "0"}, {"molten.cuda.stepsPerLaunch", "-3"},
            {"molten.cuda.graphs", "perhaps"}, {"molten.cuda.mode", "warp"}}) {
            clear();
            System.setProperty(kv[0], kv[1]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, CudaOptions::fromSystemProperties,
                    kv[0] + "=" + kv[1]);
            assertTrue(e.getMessage().contains(kv[0]) && e.getMessage().contains(kv[1]), e.getMessage());
        }
    }
}
