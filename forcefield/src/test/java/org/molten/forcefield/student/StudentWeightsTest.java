package org.molten.forcefield.student;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Atoms;
import org.molten.forcefield.safetensors.Dtype;
import org.molten.forcefield.safetensors.SafetensorsFile;
import org.molten.forcefield.safetensors.SafetensorsFormatException;
import org.molten.forcefield.safetensors.Tensor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.*;

class StudentWeightsTest {
    @TempDir
    Path dir;

    static StudentWeights small() {
        return StudentWeights.random(7, new int[]{1, 6, 7, 8}, 8, 2, 6, 4.0, 10.0);
    }

    @Test
    void saveLoadRoundTripKeepsEverything() throws IOException {
        StudentWeights w = small();
        Path f = dir.resolve("w.safetensors");
        w.save(f, Dtype.F64);
        StudentWeights back = StudentWeights.load(f);
        assertArrayEquals(w.species(), back.species());
        assertEquals(8, back.hidden());
        assertEquals(2, back.layers());
        assertEquals(6, back.nRbf());
        assertEquals(4.0, back.cutoffA());
        assertEquals(10.0, back.gammaPerA2());
        assertEquals(w.metadata(), back.metadata());
        assertEquals("none (random weights)", back.provenance().get("teacher"));
        assertFalse(back.provenance().containsKey("hidden"));
        for (String name : StudentWeights.tensorNames(2)) {
            assertArrayEquals(w.tensor(name), back.tensor(name), 0.0, name);
        }
        // The file holds exactly the spec's tensors in spec order with spec shapes.
        SafetensorsFile sf = SafetensorsFile.read(f);
        assertEquals(StudentWeights.tensorNames(2), java.util.List.copyOf(sf.tensors().keySet()));
        assertArrayEquals(new int[]{24, 6}, sf.tensor("interactions.1.filter.weight").shape());
        assertArrayEquals(new int[]{8, 16}, sf.tensor("updates.0.mlp.0.weight").shape());
        assertArrayEquals(new int[]{1, 4}, sf.tensor("readout.2.weight").shape());
        assertArrayEquals(new int[]{1}, sf.tensor("scale").shape());
        assertEquals("painn", sf.metadata().get("architecture"));
        assertEquals("1,6,7,8", sf.metadata().get("species"));

        Path f32 = dir.resolve("w32.safetensors");
        w.save(f32, Dtype.F32);
        StudentWeights b32 = StudentWeights.load(f32);
        double[] e = w.embedding();
        double[] e32 = b32.embedding();
        for (int i = 0; i < e.length; i++) {
            assertEquals((float) e[i], e32[i], 0.0);
        }
        // fingerprint: the values decide, not the file: equal after a float64 round trip, different
        // once float32 has rounded them, different for other weights, stable across instances
        assertEquals(64, w.fingerprint().length());
        assertEquals(w.fingerprint(), back.fingerprint());
        assertNotEquals(w.fingerprint(), b32.fingerprint());
        assertNotEquals(w.fingerprint(), StudentWeights.random(99, new int[]{1, 6, 7, 8}, 8, 2, 6, 4.0, 10.0).fingerprint());
        assertEquals(StudentWeights.load(f32).fingerprint(), b32.fingerprint());
    }

    @Test
    void randomIsDeterministicAndShaped() {
        StudentWeights a = StudentWeights.random(3);
        StudentWeights b = StudentWeights.random(3);
        StudentWeights c = StudentWeights.random(4);
        assertArrayEquals(a.phi2Weight(2), b.phi2Weight(2), 0.0);
        assertFalse(Arrays.equals(a.phi2Weight(2), c.phi2Weight(2)));
        assertEquals(128 * 128, a.updateU(0).length);
        assertEquals(3 * 128 * 20, a.filterWeight(1).length);
        assertEquals(64 * 128, a.readout0Weight().length);
        assertEquals(64, a.readout2Weight().length);
        assertEquals(0.25, a.rbfCentreA(1) * 19 / 5.0 / 4, 1e-15);
        assertThrows(IndexOutOfBoundsException.class, () -> a.phi0Weight(3));
    }

    @Test
    void speciesIndexNamesTheUnsupportedElement() {
        StudentWeights w = small();
        assertEquals(0, w.speciesIndex(1));
        assertEquals(3, w.speciesIndex(8));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.speciesIndex(17));
        assertEquals("element Cl (Z=17) is not supported by this model (supports H, C, N, O)", e.getMessage());
        Atoms atoms = Atoms.of(new int[]{8, 1, 16}, new double[]{0, 0, 0, 1, 0, 0, 0, 2, 0}, null);
        e = assertThrows(IllegalArgumentException.class, () -> w.speciesIndices(atoms));
        assertTrue(e.getMessage().startsWith("atom 2: element S (Z=16) is not supported"), e.getMessage());
    }

    /** Writes the small model with one edit applied to its tensors and metadata. */
    private Path edited(String name, Consumer<Map<String, Tensor>> tensorEdit, Consumer<Map<String, String>> mdEdit)
            throws IOException {
        Path good = dir.resolve("good.safetensors");
        small().save(good, Dtype.F32);
        SafetensorsFile sf = SafetensorsFile.read(good);
        Map<String, Tensor> t = new LinkedHashMap<>(sf.tensors());
        Map<String, String> md = new LinkedHashMap<>(sf.metadata());
        tensorEdit.accept(t);
        mdEdit.accept(md);
        Path bad = dir.resolve(name);
        SafetensorsFile.of(md, t).write(bad, Dtype.F32);
        return bad;
    }

    private static String problem(Path f) {
        SafetensorsFormatException e = assertThrows(SafetensorsFormatException.class, () -> StudentWeights.load(f));
        assertTrue(e.getMessage().startsWith(f.toString()), e.getMessage());
        return e.getMessage();
    }

    @Test
    void missingTensorIsNamed() throws IOException {
        String m = problem(edited("missing.safetensors", t -> t.remove("updates.1.V.weight"), md -> { }));
        assertTrue(m.contains("missing tensor 'updates.1.V.weight'"), m);
    }

    @Test
    void wrongShapeNamesTensorExpectedAndFound() throws IOException {
        String m = problem(edited("shape.safetensors", t -> t.put("interactions.0.filter.weight",
                Tensor.of(Dtype.F32, new int[]{6, 24}, new double[144])), md -> { }));
        assertTrue(m.contains("tensor 'interactions.0.filter.weight' has shape [6, 24], expected [24, 6]"), m);
    }

    @Test
    void unexpectedTensorAndBadMetadataAreRefused() throws IOException {
        String m = problem(edited("extra.safetensors", t -> t.put("interactions.2.phi.0.weight",
                Tensor.of(Dtype.F32, new int[]{8, 8}, new double[64])), md -> { }));
        assertTrue(m.contains("unexpected tensor") && m.contains("interactions.2.phi.0.weight"), m);
        m = problem(edited("nohidden.safetensors", t -> { }, md -> md.remove("hidden")));
        assertTrue(m.contains("missing metadata key 'hidden'"), m);
        m = problem(edited("arch.safetensors", t -> { }, md -> md.put("architecture", "schnet")));
        assertTrue(m.contains("architecture is 'schnet'"), m);
        m = problem(edited("species.safetensors", t -> { }, md -> md.put("species", "1,6,x")));
        assertTrue(m.contains("species"), m);
        m = problem(edited("layers.safetensors", t -> { }, md -> md.put("layers", "3")));
        assertTrue(m.contains("missing tensor 'interactions.2.phi.0.weight'"), m);
        m = problem(edited("nan.safetensors", t -> t.put("scale", Tensor.of(Dtype.F32, new int[]{1},
                new double[]{Double.NaN})), md -> { }));
        assertTrue(m.contains("'scale'") && m.contains("non-finite"), m);
    }

    @Test
    void unknownDtypeIsRefused() throws IOException {
        Path good = dir.resolve("good.safetensors");
        small().save(good, Dtype.F32);
        byte[] all = Files.readAllBytes(good);
        long hl = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
        String header = new String(all, 8, (int) hl, StandardCharsets.UTF_8);
        // Same byte length: "F32" -> "U32" in the scale tensor's entry only.
        int at = header.indexOf("\"scale\"");
        String edited = header.substring(0, at) + header.substring(at).replaceFirst("\"F32\"", "\"U32\"");
        System.arraycopy(edited.getBytes(StandardCharsets.UTF_8), 0, all, 8, (int) hl);
        Path bad = dir.resolve("dtype.safetensors");
        Files.write(bad, all);
        String m = problem(bad);
        assertTrue(m.contains("tensor 'scale'") && m.contains("unsupported dtype 'U32'"), m);
    }

    @Test
    void truncatedFileIsRefused() throws IOException {
        Path good = dir.resolve("good.safetensors");
        small().save(good, Dtype.F64);
        byte[] all = Files.readAllBytes(good);
        Path bad = dir.resolve("cut.safetensors");
        Files.write(bad, Arrays.copyOf(all, all.length - 100));
        String m = problem(bad);
        assertTrue(m.contains("truncated"), m);
    }
}
