package org.molten.forcefield.safetensors;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The contents of one safetensors file: string metadata ({@code __metadata__}) and named tensors
 * in file order. Immutable.
 *
 * <p>Layout (all integers little-endian): {@code u64 N}, then N bytes of UTF-8 JSON
 * {@code {"__metadata__": {"k": "v"}, "name": {"dtype": "F32", "shape": [3, 4],
 * "data_offsets": [begin, end]}, ...}} (padded with spaces), then the data section, in which
 * each tensor occupies {@code [begin, end)} bytes, row-major, little-endian. The reader is as
 * strict as the reference implementation: tensors must tile the data section exactly (no
 * overlap, no gap, nothing after the last one), and each byte range must match dtype × shape.
 */
public final class SafetensorsFile {
    /** The header key holding string metadata. */
    public static final String METADATA_KEY = "__metadata__";
    /** Headers larger than this are refused as corrupt (the reference implementation uses 100 MB). */
    static final long MAX_HEADER_BYTES = 100L << 20;

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private final Map<String, String> metadata;
    private final Map<String, Tensor> tensors;

    private SafetensorsFile(Map<String, String> metadata, Map<String, Tensor> tensors) {
        this.metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        this.tensors = Collections.unmodifiableMap(new LinkedHashMap<>(tensors));
    }

    /** A file's contents from metadata and tensors (kept in the iteration order given). */
    public static SafetensorsFile of(Map<String, String> metadata, Map<String, Tensor> tensors) {
        for (String name : tensors.keySet()) {
            if (METADATA_KEY.equals(name)) {
                throw new IllegalArgumentException("'" + METADATA_KEY + "' is reserved and cannot name a tensor");
            }
        }
        return new SafetensorsFile(metadata, tensors);
    }

    /** The string metadata, unmodifiable, in file order. */
    public Map<String, String> metadata() {
        return metadata;
    }

    /** The tensors by name, unmodifiable, in file order. */
    public Map<String, Tensor> tensors() {
        return tensors;
    }

    /** The tensor called {@code name}, or {@code null}. */
    public Tensor tensor(String name) {
        return tensors.get(name);
    }

    /**
     * Reads and validates a safetensors file.
     *
     * @throws SafetensorsFormatException naming the file and the problem (truncated file, header
     *                                    length past the end, bad JSON, unknown dtype, offsets out
     *                                    of range or overlapping, size not matching the shape)
     * @throws IOException                if the file cannot be read
     */
    public static SafetensorsFile read(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString(), null, "weight file not found");
        }
        return parse(bytes, file.toString());
    }

    /**
     * Parses the bytes of a safetensors file (from a class-path resource, say); {@code source}
     * names it in error messages.
     *
     * @throws SafetensorsFormatException naming the source and the problem
     */
    public static SafetensorsFile parse(byte[] bytes, String source) throws SafetensorsFormatException {
        String file = source;
        if (bytes.length < 8) {
            throw new SafetensorsFormatException(file, "truncated: " + bytes.length
                    + " bytes, shorter than the 8-byte header length");
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long headerLen = buf.getLong(0);
        if (headerLen < 2 || headerLen > MAX_HEADER_BYTES) {
            throw new SafetensorsFormatException(file, "header length " + headerLen
                    + " bytes is not plausible (expected 2.." + MAX_HEADER_BYTES + "): not a safetensors file?");
        }
        if (headerLen > bytes.length - 8L) {
            throw new SafetensorsFormatException(file, "header length " + headerLen
                    + " bytes runs past the end of the file (" + bytes.length + " bytes): truncated file?");
        }
        int dataStart = 8 + (int) headerLen;
        long dataLen = bytes.length - (long) dataStart;
        if (bytes[8] != '{') {
            throw new SafetensorsFormatException(file, "header does not start with '{': not a safetensors file?");
        }
        JsonNode root;
        try {
            root = JSON.readTree(new String(bytes, 8, (int) headerLen, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new SafetensorsFormatException(file, "header is not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new SafetensorsFormatException(file, "header is not a JSON object");
        }

        Map<String, String> metadata = new LinkedHashMap<>();
        List<Entry> entries = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (METADATA_KEY.equals(f.getKey())) {
                readMetadata(file, f.getValue(), metadata);
            } else {
                entries.add(parseEntry(file, f.getKey(), f.getValue()));
            }
        }

        // Offsets: each in range, and together tiling [0, dataLen) exactly.
        for (Entry e : entries) {
            if (e.end > dataLen) {
                throw new SafetensorsFormatException(file, "tensor '" + e.name + "' data_offsets [" + e.begin + ", "
                        + e.end + "] run past the end of the data section (" + dataLen + " bytes): truncated file?");
            }
        }
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort((a, b) -> a.begin != b.begin ? Long.compare(a.begin, b.begin) : Long.compare(a.end, b.end));
        long pos = 0;
        Entry prev = null;
        for (Entry e : sorted) {
            if (e.begin < pos) {
                throw new SafetensorsFormatException(file, "tensors '" + prev.name + "' [" + prev.begin + ", "
                        + prev.end + "] and '" + e.name + "' [" + e.begin + ", " + e.end + "] overlap");
            }
            if (e.begin > pos) {
                throw new SafetensorsFormatException(file, "bytes " + pos + ".." + e.begin
                        + " of the data section belong to no tensor (gap before '" + e.name + "')");
            }
            pos = e.end;
            prev = e;
        }
        if (pos != dataLen) {
            throw new SafetensorsFormatException(file, "data section has " + (dataLen - pos)
                    + " bytes after the last tensor (" + dataLen + " bytes, tensors end at " + pos + ")");
        }

        Map<String, Tensor> tensors = new LinkedHashMap<>();
        for (Entry e : entries) {
            double[] v = decode(buf, dataStart + (int) e.begin, e.dtype, (int) ((e.end - e.begin) / e.dtype.bytes));
            tensors.put(e.name, Tensor.of(e.dtype, e.shape, v));
        }
        return new SafetensorsFile(metadata, tensors);
    }

    /**
     * Writes this file atomically (to a temporary file beside {@code file}, then renamed), every
     * tensor in {@code dtype}. The header is padded with spaces to a multiple of 8 bytes so that
     * the data section is aligned.
     *
     * @throws IllegalArgumentException if {@code dtype} cannot be written (F16, BF16)
     */
    public void write(Path file, Dtype dtype) throws IOException {
        if (!dtype.writable()) {
            throw new IllegalArgumentException("cannot write dtype " + dtype + " (write F64 or F32)");
        }
        ObjectNode header = JSON.createObjectNode();
        if (!metadata.isEmpty()) {
            ObjectNode m = header.putObject(METADATA_KEY);
            metadata.forEach(m::put);
        }
        long offset = 0;
        for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
            Tensor t = e.getValue();
            ObjectNode o = header.putObject(e.getKey());
            o.put("dtype", dtype.headerName());
            ArrayNode shape = o.putArray("shape");
            for (int s : t.shape()) {
                shape.add(s);
            }
            long len = (long) t.size() * dtype.bytes;
            o.putArray("data_offsets").add(offset).add(offset + len);
            offset += len;
        }
        byte[] json = JSON.writeValueAsBytes(header);
        int padded = (json.length + 7) / 8 * 8;
        if (offset > Integer.MAX_VALUE - padded - 8) {
            throw new IllegalArgumentException("tensors too large for one file: " + offset + " bytes");
        }
        ByteBuffer out = ByteBuffer.allocate(8 + padded + (int) offset).order(ByteOrder.LITTLE_ENDIAN);
        out.putLong(padded);
        out.put(json);
        for (int i = json.length; i < padded; i++) {
            out.put((byte) ' ');
        }
        for (Tensor t : tensors.values()) {
            for (int i = 0; i < t.size(); i++) {
                if (dtype == Dtype.F64) {
                    out.putDouble(t.value(i));
                } else {
                    out.putFloat((float) t.value(i));
                }
            }
        }
        Path abs = file.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Path tmp = Files.createTempFile(dir, abs.getFileName().toString(), ".tmp");
        try {
            try (OutputStream os = Files.newOutputStream(tmp)) {
                os.write(out.array());
            }
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void readMetadata(String file, JsonNode node, Map<String, String> out) throws SafetensorsFormatException {
        if (!node.isObject()) {
            throw new SafetensorsFormatException(file, "'" + METADATA_KEY + "' is not a JSON object");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> m = it.next();
            if (!m.getValue().isTextual()) {
                throw new SafetensorsFormatException(file, "metadata value '" + m.getKey()
                        + "' is not a string: " + m.getValue());
            }
            out.put(m.getKey(), m.getValue().asText());
        }
    }

    private static Entry parseEntry(String file, String name, JsonNode node) throws SafetensorsFormatException {
        String where = "tensor '" + name + "'";
        if (!node.isObject()) {
            throw new SafetensorsFormatException(file, where + ": header entry is not a JSON object");
        }
        JsonNode dt = node.get("dtype");
        if (dt == null || !dt.isTextual()) {
            throw new SafetensorsFormatException(file, where + ": missing or non-string 'dtype'");
        }
        Dtype dtype;
        try {
            dtype = Dtype.ofHeaderName(dt.asText());
        } catch (IllegalArgumentException e) {
            throw new SafetensorsFormatException(file, where + ": " + e.getMessage());
        }
        JsonNode sh = node.get("shape");
        if (sh == null || !sh.isArray()) {
            throw new SafetensorsFormatException(file, where + ": missing or non-array 'shape'");
        }
        int[] shape = new int[sh.size()];
        long count = 1;
        for (int i = 0; i < shape.length; i++) {
            JsonNode d = sh.get(i);
            if (!d.canConvertToInt() || !d.isIntegralNumber() || d.asInt() < 0) {
                throw new SafetensorsFormatException(file, where + ": bad dimension " + d + " in shape " + sh);
            }
            shape[i] = d.asInt();
            count *= shape[i];
            if (count > Integer.MAX_VALUE) {
                throw new SafetensorsFormatException(file, where + ": shape " + sh + " is too large");
            }
        }
        JsonNode off = node.get("data_offsets");
        if (off == null || !off.isArray() || off.size() != 2 || !off.get(0).isIntegralNumber()
                || !off.get(1).isIntegralNumber()) {
            throw new SafetensorsFormatException(file, where + ": 'data_offsets' must be [begin, end] integers, got " + off);
        }
        long begin = off.get(0).asLong();
        long end = off.get(1).asLong();
        if (begin < 0 || end < begin) {
            throw new SafetensorsFormatException(file, where + ": data_offsets [" + begin + ", " + end
                    + "] are not a valid byte range");
        }
        if (end - begin != count * dtype.bytes) {
            throw new SafetensorsFormatException(file, where + ": data_offsets [" + begin + ", " + end + "] hold "
                    + (end - begin) + " bytes but dtype " + dtype + " and shape " + Arrays.toString(shape)
                    + " need " + count * dtype.bytes);
        }
        return new Entry(name, dtype, shape, begin, end);
    }

    private static double[] decode(ByteBuffer buf, int at, Dtype dtype, int n) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            int p = at + i * dtype.bytes;
            switch (dtype) {
                case F64 -> v[i] = buf.getDouble(p);
                case F32 -> v[i] = buf.getFloat(p);
                case F16 -> v[i] = HalfFloats.halfToFloat(buf.getShort(p));
                case BF16 -> v[i] = Float.intBitsToFloat((buf.getShort(p) & 0xffff) << 16);
                default -> throw new AssertionError(dtype);
            }
        }
        return v;
    }

    private record Entry(String name, Dtype dtype, int[] shape, long begin, long end) {
    }
}
