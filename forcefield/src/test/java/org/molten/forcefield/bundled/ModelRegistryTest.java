package org.molten.forcefield.bundled;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The bundled versions are reachable by name, short name and family name; a path stays a path. */
class ModelRegistryTest {
    @Test
    void v5IsReachableByItsNameItsShortNameAndAsTheDefault() throws IOException {
        ModelRegistry.Version v5 = ModelRegistry.find("student-gfn2-v5").orElseThrow();
        assertEquals("v5", v5.alias());
        assertSame(v5, ModelRegistry.find("V5").orElseThrow());
        assertSame(ModelRegistry.defaultVersion(), ModelRegistry.find(BundledModel.NAME).orElseThrow());
        assertSame(BundledModel.weights("v5"), BundledModel.weights(Path.of("student-gfn2-v5")));
        assertEquals(BundledModel.weights().fingerprint(), BundledModel.weights(ModelRegistry.defaultVersion().name())
                .fingerprint());
        try (InputStream in = BundledModel.class.getResourceAsStream(BundledModel.WEIGHTS_RESOURCE)) {
            assertNotNull(in, BundledModel.WEIGHTS_RESOURCE);
        }
        assertTrue(BundledModel.domain().known(), "the default version carries its domain");
        for (ModelRegistry.Version v : ModelRegistry.versions()) {
            assertTrue(BundledModel.weights(v.name()).metadata().containsKey("domain"), v.name() + " carries its domain");
        }
    }

    @Test
    void aPathOrAnUnknownNameIsNotABundledVersion() {
        assertFalse(BundledModel.named(Path.of("./v5")).isPresent());
        assertFalse(BundledModel.named(Path.of("v5.safetensors")).isPresent());
        assertFalse(BundledModel.named(Path.of("/tmp/v5")).isPresent());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BundledModel.weights("v99"));
        assertTrue(e.getMessage().contains("student-gfn2-v5 (v5, default)"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BundledModel.weights(Path.of("v99")));
        assertTrue(e.getMessage().startsWith("'v99' is neither a weight file nor a bundled model; bundled: student-gfn2-v5"),
                e.getMessage());
    }
}
