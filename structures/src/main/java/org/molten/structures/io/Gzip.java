package org.molten.structures.io;

import java.io.BufferedInputStream;
import java.io.BufferedWriter;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Transparent gzip for structure files. Reading looks at the first two bytes (the gzip magic
 * 1f 8b), so a compressed file is read whatever its name; writing compresses when the name ends
 * in ".gz", with sync flushes, so that every flushed frame of a trajectory survives a crash, and
 * reading accepts a stream whose end was never written (see {@link UnterminatedGzip}).
 * Text is UTF-8.
 */
final class Gzip {
    private static final int BUFFER = 1 << 16;

    private Gzip() {}

    /**
     * A gzip stream that may lack its end: a writer that sync-flushes each frame and then dies leaves
     * complete deflate blocks without the final block and trailer. {@code GZIPInputStream} then throws
     * EOFException, losing what it had decoded; this reads such a stream as ending there, so the
     * frames written before the crash can be read (a frame cut short is still reported by the parser).
     */
    private static final class UnterminatedGzip extends FilterInputStream {
        UnterminatedGzip(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (EOFException e) {
                return -1;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (EOFException e) {
                return -1;
            }
        }
    }

    /**
     * Sync-flushing gzip at deflate level 1: about 3x faster than the default level 6 on
     * coordinate text and about 18% larger, which suits trajectories written during a run.
     */
    private static final class FastGzipOutputStream extends GZIPOutputStream {
        FastGzipOutputStream(OutputStream out) throws IOException {
            super(out, BUFFER, true);
            def.setLevel(Deflater.BEST_SPEED);
        }
    }

    /** True when the file name ends in ".gz" (case-insensitive). */
    static boolean isGzName(Path path) {
        Path name = path.getFileName();
        return name != null && name.toString().toLowerCase(Locale.ROOT).endsWith(".gz");
    }

    /** A reader of the file's text, decompressing when it starts with the gzip magic. */
    static Reader openReader(Path path) throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(path), BUFFER);
        try {
            raw.mark(2);
            int b0 = raw.read();
            int b1 = raw.read();
            raw.reset();
            InputStream in = b0 == 0x1f && b1 == 0x8b ? new UnterminatedGzip(gzip(raw, path)) : raw;
            return new InputStreamReader(in, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /** The gzip stream of a file that starts with the magic; a damaged or cut header is the format's error. */
    private static GZIPInputStream gzip(InputStream raw, Path path) throws IOException {
        try {
            return new GZIPInputStream(raw, BUFFER);
        } catch (java.util.zip.ZipException | java.io.EOFException e) {
            throw new StructureFormatException(path.toString(), 1, "corrupt gzip header (" + e.getMessage()
                    + "): the file starts as gzip (1f 8b) but is not readable as one");
        }
    }

    /**
     * A writer to the file, compressing when its name ends in ".gz".
     *
     * @param append add to the end of an existing file (a new gzip member for ".gz", which every
     *               gzip reader concatenates) instead of replacing it
     */
    static Writer openWriter(Path path, boolean append) throws IOException {
        OutputStream raw = append
                ? Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE)
                : Files.newOutputStream(path);
        try {
            OutputStream out = isGzName(path) ? new FastGzipOutputStream(raw) : raw;
            return new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), BUFFER);
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }
}
