package org.molten.forcefield.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The kernels as PTX, committed under {@code resources/org/molten/forcefield/cuda/} so that the
 * jar runs on a machine without nvcc (the driver compiles PTX for the device it finds). The
 * first line records which sources it was made from:
 * <pre>// molten-ptx sources-sha256 &lt;hex&gt;</pre>
 * where the hash is SHA-256 over, for each {@code .cu}/{@code .cuh} file of
 * {@code forcefield/src/main/cuda} in byte order of its name: the name, a newline, the file's
 * bytes. {@code scripts/build-ptx.sh} regenerates the PTX; {@code PtxModuleTest} (no GPU needed)
 * fails when sources and PTX disagree.
 */
public final class PtxModule {
    /** Resource path of the committed PTX. */
    public static final String RESOURCE = "/org/molten/forcefield/cuda/molten_kernels.ptx";
    /** First-line prefix carrying the source hash. */
    public static final String HEADER = "// molten-ptx sources-sha256 ";

    private static volatile String text;

    private PtxModule() {
    }

    /** The PTX text (with its header line, a comment to ptxas). */
    public static String text() {
        String t = text;
        if (t == null) {
            try (InputStream in = PtxModule.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("PTX resource " + RESOURCE + " is missing from the jar");
                }
                t = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read PTX resource " + RESOURCE, e);
            }
            text = t;
        }
        return t;
    }

    /** The PTX bytes followed by a 0 byte, as cuModuleLoadData wants them. */
    static byte[] bytesWithTerminator() {
        byte[] b = text().getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[b.length + 1];
        System.arraycopy(b, 0, out, 0, b.length);
        return out;
    }

    /** The source hash recorded in the committed PTX's header line. */
    public static String recordedSourceHash() {
        String t = text();
        int nl = t.indexOf('\n');
        String first = nl < 0 ? t : t.substring(0, nl);
        if (!first.startsWith(HEADER)) {
            throw new IllegalStateException("PTX resource lacks its header line '" + HEADER + "<hex>'");
        }
        return first.substring(HEADER.length()).trim();
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
        files.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
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
