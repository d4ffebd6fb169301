package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The kernel-variant properties: defaults, every value each takes, a misspelt one refused by name, and every
 * {@code molten.cuda.*} property described for {@code molten info}.
 */
class KernelChoicesTest {
    private static final String[] PROPERTIES = {KernelChoices.ROW_SPLIT_PROPERTY, KernelChoices.DENSE_TILES_PROPERTY,
        KernelChoices.LAUNCH_PROPERTY, KernelChoices.REPLICA_FORCES_PROPERTY, KernelChoices.GROUP_DENSE_PROPERTY};

    @AfterEach
    void clear() {
        for (String p : PROPERTIES) {
            System.clearProperty(p);
        }
    }

    /** Every default is the automatic or measured choice: since 2026-11-29 replica batches take the group kernel. */
    @Test
    void defaultsAreTheMeasuredChoices() {
        assertEquals(new KernelChoices(0, KernelChoices.DenseTiles.AUTO, KernelChoices.Launch.AUTO,
                KernelChoices.ReplicaForces.GROUP, KernelChoices.GroupDense.AUTO),
                KernelChoices.fromProperties());
    }

    @Test
    void everyValueIsRead() {
        System.setProperty(KernelChoices.ROW_SPLIT_PROPERTY, "2");
        System.setProperty(KernelChoices.DENSE_TILES_PROPERTY, "narrow");
        System.setProperty(KernelChoices.LAUNCH_PROPERTY, "plain");
        System.setProperty(KernelChoices.REPLICA_FORCES_PROPERTY, "stages");
        System.setProperty(KernelChoices.GROUP_DENSE_PROPERTY, "tc");
        assertEquals(new KernelChoices(2, KernelChoices.DenseTiles.NARROW, KernelChoices.Launch.PLAIN,
                KernelChoices.ReplicaForces.STAGES, KernelChoices.GroupDense.TC),
                KernelChoices.fromProperties());
        System.setProperty(KernelChoices.REPLICA_FORCES_PROPERTY, "group");
        System.setProperty(KernelChoices.GROUP_DENSE_PROPERTY, "simt");
        KernelChoices c = KernelChoices.fromProperties();
        assertEquals(KernelChoices.ReplicaForces.GROUP, c.replicaForces());
        assertEquals(KernelChoices.GroupDense.SIMT, c.groupDense());
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
        System.setProperty(KernelChoices.DENSE_TILES_PROPERTY, "WIDE");  // values are lower case, as documented
        assertThrows(IllegalArgumentException.class, KernelChoices::fromProperties);
    }

    /**
     * Every molten.cuda property the main sources read is described for molten info (what it selects, why it
     * exists), and the dropped variants' properties are gone.
     */
    @Test
    void everyPropertyIsDescribedForMoltenInfo() throws Exception {
        String report = GpuAvailability.propertiesReport();
        java.util.Set<String> read = new java.util.TreeSet<>();
        java.util.regex.Pattern p = java.util.regex.Pattern.compile("\"(molten\\.cuda\\.[A-Za-z0-9]+)\"");
        try (var files = java.nio.file.Files.walk(java.nio.file.Path.of("src/main/java"))) {
            for (java.nio.file.Path f : files.filter(x -> x.toString().endsWith(".java")).toList()) {
                java.util.regex.Matcher m = p.matcher(java.nio.file.Files.readString(f));
                while (m.find()) {
                    read.add(m.group(1));
                }
            }
        }
        assertTrue(read.size() >= 10, "properties found in the sources: " + read);
        for (String name : read) {
            assertTrue(report.contains("-D" + name + "="), name + " is not described for molten info:\n" + report);
        }
        for (String gone : new String[] {"messagePass", "backwardEdges", "filterLoads", "moleculeKernel",
            "groupVariant"}) {
            assertTrue(!report.contains("molten.cuda." + gone), gone + " is still described");
        }
        assertTrue(report.contains("sm_80, sm_86, sm_89, sm_90") && report.contains("compute_90"), report);
    }
}
