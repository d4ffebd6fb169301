package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * CudaOptions.fromSystemProperties: each property overrides its default; a bad value is refused by name, and so is
 * an unknown molten.cuda.* name (a misspelt or removed option), while every property molten info lists is taken.
 */
class CudaOptionsTest {
    private static final String[] KEYS = {"molten.cuda.mode", "molten.cuda.graphs", "molten.cuda.stepsPerLaunch",
        "molten.cuda.fp32State", "molten.cuda.largeSystemAtoms", "molten.cuda.tileRows", "molten.cuda.denseMath",
        "molten.cuda.launch", "molten.cuda.denseSplit", "molten.cuda.rowSplit", "molten.cuda.denseTiles"};

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

    @Test
    void anUnknownNameIsRefusedNamingItAndTheKnownOnes() {
        System.setProperty("molten.cuda.tileRows", "8");    // a property of a variant that was measured and removed
        System.setProperty("molten.cuda.denseMath", "tf32x3");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, CudaOptions::fromSystemProperties);
        assertTrue(e.getMessage().contains("-Dmolten.cuda.denseMath, -Dmolten.cuda.tileRows"), e.getMessage());
        assertTrue(e.getMessage().contains("molten.cuda.largeSystemAtoms"), e.getMessage());
        assertTrue(GpuAvailability.propertiesReport().contains("refused: unknown system properties"));
    }

    @Test
    void everyListedPropertyIsAccepted() {
        for (String k : new String[] {"molten.cuda.launch", "molten.cuda.denseSplit", "molten.cuda.rowSplit",
            "molten.cuda.denseTiles"}) {
            System.setProperty(k, "auto");
        }
        assertEquals(CudaOptions.DEFAULT_MODE, CudaOptions.fromSystemProperties().mode());
        assertTrue(!GpuAvailability.propertiesReport().contains("refused"));
    }
}
