package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The kernel-variant properties: defaults, every value each takes, and a misspelt one refused by name. */
class KernelChoicesTest {
    private static final String[] PROPERTIES = {KernelChoices.MESSAGE_PASS_PROPERTY, KernelChoices.ROW_SPLIT_PROPERTY,
        KernelChoices.DENSE_TILES_PROPERTY, KernelChoices.BACKWARD_EDGES_PROPERTY, KernelChoices.FILTER_LOADS_PROPERTY,
        KernelChoices.MOLECULE_KERNEL_PROPERTY, KernelChoices.LAUNCH_PROPERTY};

    @AfterEach
    void clear() {
        for (String p : PROPERTIES) {
            System.clearProperty(p);
        }
    }

    @Test
    void defaultsAreTheMeasuredChoices() {
        KernelChoices c = KernelChoices.fromProperties();
        assertEquals(new KernelChoices(KernelChoices.MessagePass.AUTO, 0, KernelChoices.DenseTiles.AUTO,
                KernelChoices.BackwardEdges.AUTO, KernelChoices.FilterLoads.SHARED, "k_small_c16",
                KernelChoices.Launch.AUTO), c);
    }

    @Test
    void everyValueIsRead() {
        System.setProperty(KernelChoices.MESSAGE_PASS_PROPERTY, "block");
        System.setProperty(KernelChoices.ROW_SPLIT_PROPERTY, "2");
        System.setProperty(KernelChoices.DENSE_TILES_PROPERTY, "narrow");
        System.setProperty(KernelChoices.BACKWARD_EDGES_PROPERTY, "both");
        System.setProperty(KernelChoices.FILTER_LOADS_PROPERTY, "slot");
        System.setProperty(KernelChoices.MOLECULE_KERNEL_PROPERTY, "k_small_bar_c16");
        System.setProperty(KernelChoices.LAUNCH_PROPERTY, "plain");
        assertEquals(new KernelChoices(KernelChoices.MessagePass.BLOCK, 2, KernelChoices.DenseTiles.NARROW,
                KernelChoices.BackwardEdges.BOTH, KernelChoices.FilterLoads.SLOT, "k_small_bar_c16",
                KernelChoices.Launch.PLAIN),
                KernelChoices.fromProperties());
    }

    @Test
    void aMisspeltValueIsRefusedWithThePropertyAndItsValues() {
        for (String p : PROPERTIES) {
            System.setProperty(p, "Sideways");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, KernelChoices::fromProperties);
            assertTrue(e.getMessage().startsWith(p + " must be ") && e.getMessage().endsWith(", not Sideways"),
                    e.getMessage());
            System.clearProperty(p);
        }
        System.setProperty(KernelChoices.MESSAGE_PASS_PROPERTY, "ROWS");  // values are lower case, as documented
        assertThrows(IllegalArgumentException.class, KernelChoices::fromProperties);
    }
}
