package org.molten.forcefield.safetensors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

class SafetensorsFileTest {
    @TempDir
    Path dir;

    /** A raw file: 8-byte length, the header text as given, then the data bytes. */
    static Path raw(Path file, String header, byte[] data) throws IOException {
        byte[] h = header.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 + h.length + data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(h.length).put(h).put(data);
        Files.write(file, b.array());
        return file;
    }

    static byte[] floats(float... v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float x : v) {
            b.putFloat(x);
        }
        return b.array();
    }

    private String problem(Path f) {
        SafetensorsFormatException e = assertThrows(SafetensorsFormatException.class, () -> SafetensorsFile.read(f));
        assertTrue(e.getMessage().startsWith(f.toString()), "message names the file: " + e.getMessage());
        return e.getMessage();
    }

    @Test
    void roundTripF64IsExactAndF32RoundsToFloat() throws IOException {
        Map<String, Tensor> t = new LinkedHashMap<>();
        t.put("a", Tensor.of(Dtype.F64, new int[]{2, 3}, new double[]{1, -2.5, Math.PI, 1e-300, 7, 0.1}));
        t.put("b", Tensor.of(Dtype.F64, new int[]{1}, new double[]{Math.E}));
        t.put("empty", Tensor.of(Dtype.F64, new int[]{0, 4}, new double[0]));
        SafetensorsFile sf = SafetensorsFile.of(Map.of("k", "v", "species", "1,6"), t);
        Path p64 = dir.resolve("x64.safetensors");
        sf.write(p64, Dtype.F64);
        SafetensorsFile back = SafetensorsFile.read(p64);
        assertEquals(sf.metadata(), back.metadata());
        assertEquals(t.keySet(), back.tensors().keySet());
        assertArrayEquals(t.get("a").values(), back.tensor("a").values(), 0.0);
        assertArrayEquals(new int[]{2, 3}, back.tensor("a").shape());
        assertEquals(Dtype.F64, back.tensor("a").dtype());
        // Data section aligned to 8 bytes.
        long headerLen = ByteBuffer.wrap(Files.readAllBytes(p64)).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
        assertEquals(0, headerLen % 8);

        Path p32 = dir.resolve("x32.safetensors");
        sf.write(p32, Dtype.F32);
        SafetensorsFile b32 = SafetensorsFile.read(p32);
        assertEquals(Dtype.F32, b32.tensor("a").dtype());
        double[] a = t.get("a").values();
        for (int i = 0; i < a.length; i++) {
            assertEquals((double) (float) a[i], b32.tensor("a").value(i), 0.0);
        }
        assertEquals(8 + ByteBuffer.wrap(Files.readAllBytes(p32)).order(ByteOrder.LITTLE_ENDIAN).getLong(0) + 7 * 4,
                Files.size(p32));
    }

    @Test
    void readsHalfAndBfloat16() throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) 0x3c00).putShort((short) 0xc000); // F16 1.0, -2.0
        b.putShort((short) 0x3f80).putShort((short) 0x0001); // BF16 1.0 and the smallest BF16 subnormal
        Path f = raw(dir.resolve("h.safetensors"), "{\"h\":{\"dtype\":\"F16\",\"shape\":[2],\"data_offsets\":[0,4]},"
                + "\"b\":{\"dtype\":\"BF16\",\"shape\":[2],\"data_offsets\":[4,8]}}", b.array());
        SafetensorsFile sf = SafetensorsFile.read(f);
        assertArrayEquals(new double[]{1.0, -2.0}, sf.tensor("h").values(), 0.0);
        assertEquals(1.0, sf.tensor("b").value(0), 0.0);
        assertEquals(Float.intBitsToFloat(0x00010000), sf.tensor("b").value(1), 0.0);
        assertEquals(0x1p-24f, HalfFloats.halfToFloat((short) 1), 0.0);
        assertEquals(65504f, HalfFloats.halfToFloat((short) 0x7bff), 0.0);
        assertTrue(Float.isInfinite(HalfFloats.halfToFloat((short) 0xfc00)));
        assertThrows(IllegalArgumentException.class, () -> sf.write(dir.resolve("o"), Dtype.F16));
    }

    @Test
    void rejectsTruncatedFiles() throws IOException {
        Path tiny = dir.resolve("tiny.safetensors");
        Files.write(tiny, new byte[]{1, 2, 3});
        assertTrue(problem(tiny).contains("truncated"));

        Path good = raw(dir.resolve("g.safetensors"),
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,12]}}", floats(1, 2, 3));
        byte[] all = Files.readAllBytes(good);
        Path cut = dir.resolve("cut.safetensors");
        Files.write(cut, java.util.Arrays.copyOf(all, all.length - 2));
        String m = problem(cut);
        assertTrue(m.contains("'a'") && m.contains("past the end") && m.contains("truncated"), m);

        Path cutHeader = dir.resolve("cuthead.safetensors");
        Files.write(cutHeader, java.util.Arrays.copyOf(all, 20));
        m = problem(cutHeader);
        assertTrue(m.contains("header length") && m.contains("past the end"), m);
    }

    @Test
    void rejectsBadOffsets() throws IOException {
        String m = problem(raw(dir.resolve("ov.safetensors"),
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                        + "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}", floats(1, 2, 3)));
        assertTrue(m.contains("overlap") && m.contains("'a'") && m.contains("'b'"), m);

        m = problem(raw(dir.resolve("gap.safetensors"),
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", floats(1, 2)));
        assertTrue(m.contains("belong to no tensor"), m);

        m = problem(raw(dir.resolve("size.safetensors"),
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", floats(1, 2)));
        assertTrue(m.contains("need 12"), m);

        m = problem(raw(dir.resolve("neg.safetensors"),
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[8,4]}}", floats(1, 2)));
        assertTrue(m.contains("not a valid byte range"), m);

        m = problem(raw(dir.resolve("trail.safetensors"),
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", floats(1, 2)));
        assertTrue(m.contains("after the last tensor"), m);
    }

    @Test
    void rejectsUnknownDtypeAndBadHeaders() throws IOException {
        String m = problem(raw(dir.resolve("dt.safetensors"),
                "{\"a\":{\"dtype\":\"I64\",\"shape\":[1],\"data_offsets\":[0,8]}}", new byte[8]));
        assertTrue(m.contains("unsupported dtype 'I64'") && m.contains("'a'"), m);

        m = problem(raw(dir.resolve("json.safetensors"), "{\"a\":{\"dtype\":", new byte[0]));
        assertTrue(m.contains("not valid JSON"), m);

        m = problem(raw(dir.resolve("dup.safetensors"),
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                        + "\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}", floats(1)));
        assertTrue(m.contains("not valid JSON") && m.contains("a"), m);

        m = problem(raw(dir.resolve("md.safetensors"), "{\"__metadata__\":{\"k\":3}}", new byte[0]));
        assertTrue(m.contains("not a string"), m);

        Path huge = dir.resolve("huge.safetensors");
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(Long.MAX_VALUE).putLong(0);
        Files.write(huge, b.array());
        assertTrue(problem(huge).contains("not plausible"));
    }
}
