package org.molten.forcefield.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The kernels as one fatbin, committed under {@code resources/org/molten/forcefield/cuda/} so that the jar runs
 * on a machine without nvcc: machine code for sm_80, sm_86, sm_89 and sm_90, which the driver loads at once, and
 * the PTX of compute_90, which a newer GPU's driver compiles (once; it caches the result). Built with nvcc 13.0,
 * so the driver must support CUDA 13.0 (Linux driver 580 or newer). Beside it, {@code molten_kernels.manifest}
 * records which sources it was made from ({@code sources-sha256}: SHA-256 over, for each {@code .cu}/{@code .cuh}
 * file of {@code platform-cuda/src/main/cuda} in byte order of its name, the name, a newline, the file's bytes), the
 * fatbin's own SHA-256, the architectures and the kernel entries. {@code scripts/build-kernels.sh} regenerates
 * both; {@code KernelImageTest} (no GPU needed) fails when sources, manifest and fatbin disagree.
 */
public final class KernelImage {
    /** Resource path of the committed fatbin. */
    public static final String FATBIN = "/org/molten/forcefield/cuda/molten_kernels.fatbin";
    /** Resource path of its manifest. */
    public static final String MANIFEST = "/org/molten/forcefield/cuda/molten_kernels.manifest";
    /** First four bytes of a fatbin (little-endian 0xBA55ED50). */
    static final int FATBIN_MAGIC = 0xBA55ED50;

    private static volatile byte[] fatbin;
    private static volatile Map<String, String> manifest;

    private KernelImage() {
    }

    /** The fatbin's bytes, as cuModuleLoadData takes them. */
    public static byte[] fatbin() {
        byte[] b = fatbin;
        if (b == null) {
            b = resource(FATBIN);
            fatbin = b;
        }
        return b;
    }

    /** The manifest's lines as key -> value (the text after the first space); comment lines skipped. */
    public static Map<String, String> manifest() {
        Map<String, String> m = manifest;
        if (m == null) {
            m = new LinkedHashMap<>();
            for (String line : new String(resource(MANIFEST), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int sp = line.indexOf(' ');
                m.put(sp < 0 ? line : line.substring(0, sp), sp < 0 ? "" : line.substring(sp + 1).trim());
            }
            manifest = m;
        }
        return m;
    }

    /** The source hash recorded in the manifest. */
    public static String recordedSourceHash() {
        return required("sources-sha256");
    }

    /** The kernel entries recorded in the manifest. */
    public static List<String> entries() {
        return Arrays.asList(required("entries").split(" "));
    }

    /** A one-line description for logs and {@code molten info}: architectures, nvcc, driver needed. */
    public static String describe() {
        return "kernels: machine code " + String.join(", ", required("sass").split(" ")) + ", PTX "
                + required("ptx") + " (nvcc " + required("nvcc") + "; needs a CUDA 13.0 driver, Linux 580+)";
    }

    /** Whether the fatbin holds machine code for compute capability {@code major.minor}. */
    static boolean hasMachineCodeFor(int major, int minor) {
        return Arrays.asList(required("sass").split(" ")).contains("sm_" + major + minor);
    }

    private static String required(String key) {
        String v = manifest().get(key);
        if (v == null || v.isEmpty()) {
            throw new IllegalStateException("kernel manifest " + MANIFEST + " lacks its '" + key + "' line");
        }
        return v;
    }

    private static byte[] resource(String path) {
        try (InputStream in = KernelImage.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("kernel resource " + path + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read kernel resource " + path, e);
        }
    }

    /**
     * One image of a fatbin: {@code ptx} true for PTX text, false for machine code (an ELF cubin); {@code arch} the
     * architecture number (90 for sm_90 or compute_90); {@code compressed} whether nvcc compressed it.
     */
    record Image(boolean ptx, int arch, boolean compressed) {
        /** "sm_90" for machine code, "compute_90" for PTX. */
        String name() {
            return (ptx ? "compute_" : "sm_") + arch;
        }
    }

    /**
     * The images of a fatbin, read from its headers (little-endian): a 16-byte header (magic, version, header size,
     * size of what follows), then per image a header of at least 64 bytes: kind (2 bytes: 1 PTX, 2 ELF), version (2),
     * header size (4), payload size (8), ..., architecture (4, at 28), ..., size once decompressed (8, at 56; 0
     * where the image is stored as it is). Layout as nvcc 13.0 writes it (the images read match its -gencode list).
     *
     * @throws IllegalArgumentException where the bytes are not a fatbin or an image runs past the end
     */
    static List<Image> images(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < 16 || b.getInt(0) != FATBIN_MAGIC) {
            throw new IllegalArgumentException("not a fatbin (magic " + (bytes.length < 4 ? "missing"
                    : String.format("0x%08X", b.getInt(0))) + ")");
        }
        int headerSize = Short.toUnsignedInt(b.getShort(6));
        long end = headerSize + b.getLong(8);
        if (end > bytes.length) {
            throw new IllegalArgumentException("fatbin of " + bytes.length + " bytes declares " + end);
        }
        List<Image> out = new ArrayList<>();
        long at = headerSize;
        while (at < end) {
            int p = Math.toIntExact(at);
            if (p + 64 > end) {
                throw new IllegalArgumentException("fatbin image header at byte " + p + " runs past the end");
            }
            int kind = Short.toUnsignedInt(b.getShort(p));
            long imageHeader = Integer.toUnsignedLong(b.getInt(p + 4));
            long size = b.getLong(p + 8);
            int arch = b.getInt(p + 28);
            long decompressed = b.getLong(p + 56);
            if (kind != 1 && kind != 2) {
                throw new IllegalArgumentException("fatbin image at byte " + p + " has unknown kind " + kind);
            }
            out.add(new Image(kind == 1, arch, decompressed > 0));
            at += imageHeader + size;
            if (at > end) {
                throw new IllegalArgumentException("fatbin image at byte " + p + " runs past the end");
            }
        }
        return out;
    }

    /** SHA-256 of bytes, in hex. */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The hash of the CUDA sources in {@code cudaDir}, as defined in the class comment. */
    public static String sourceHash(Path cudaDir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(cudaDir)) {
            s.filter(p -> {
                String n = p.getFileName().toString();
                return n.endsWith(".cu") || n.endsWith(".cuh");
            }).forEach(files::add);
        }
        files.sort((x, y) -> x.getFileName().toString().compareTo(y.getFileName().toString()));
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (Path p : files) {
                md.update((p.getFileName().toString() + "\n").getBytes(StandardCharsets.UTF_8));
                md.update(Files.readAllBytes(p));
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
