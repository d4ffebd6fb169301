package org.molten.validation.plots;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;

/**
 * Writes charts as PNG so that a failure leaves no file behind: drawn into a temporary file next
 * to the target, moved into place when complete, deleted otherwise. When drawing fails because
 * the machine cannot render text or images (no fonts, no AWT libraries), that is remembered and
 * every later plot is refused at once with the same {@link PlotsUnavailableException}.
 */
final class PngFiles {
    /** Draws charts into a stream; replaceable in tests to simulate a machine without fonts. */
    interface Encoder {
        void encode(List<XYChart> charts, int rows, int columns, OutputStream out) throws IOException;
    }

    static final Encoder XCHART = (charts, rows, columns, out) -> {
        if (charts.size() == 1) {
            BitmapEncoder.saveBitmap(charts.get(0), out, BitmapEncoder.BitmapFormat.PNG);
        } else {
            BitmapEncoder.saveBitmap(charts, rows, columns, out, BitmapEncoder.BitmapFormat.PNG);
        }
    };

    static volatile Encoder encoder = XCHART;
    private static volatile PlotsUnavailableException unavailable;

    private PngFiles() {}

    /**
     * Writes {@code charts} in a {@code rows} × {@code columns} grid to {@code file}.
     *
     * @throws PlotsUnavailableException when this machine cannot draw (then and on every later call)
     * @throws IOException               when the file cannot be written (nothing is left behind)
     */
    static void write(List<XYChart> charts, int rows, int columns, Path file) throws IOException {
        PlotsUnavailableException known = unavailable;
        if (known != null) {
            throw known;
        }
        Path target = file.toAbsolutePath();
        // not Files.createTempFile: its 0600 permissions would stay on the plot
        Path temp = target.resolveSibling("." + target.getFileName() + "." + Long.toHexString(System.nanoTime()) + ".part");
        boolean done = false;
        try {
            try (OutputStream out = Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                encoder.encode(charts, rows, columns, out);
            }
            try {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            done = true;
        } catch (RuntimeException | Error e) {
            if (!cannotDraw(e)) {
                throw e;
            }
            PlotsUnavailableException u = new PlotsUnavailableException("plots skipped: this machine cannot draw them ("
                    + e + "); install fonts (Debian: fontconfig fonts-dejavu-core) to get them", e);
            unavailable = u;
            throw u;
        } finally {
            if (!done) {
                Files.deleteIfExists(temp);
            }
        }
    }

    /** Forgets an earlier failure (tests). */
    static void reset() {
        unavailable = null;
        encoder = XCHART;
    }

    /**
     * True for failures of the machine's graphics stack rather than of the data: errors (a missing
     * native library, InternalError, AWTError) and exceptions thrown inside the font or AWT code.
     */
    static boolean cannotDraw(Throwable e) {
        if (e instanceof Error) {
            return !(e instanceof AssertionError);
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            for (StackTraceElement f : t.getStackTrace()) {
                String c = f.getClassName();
                if (c.startsWith("sun.font.") || c.startsWith("sun.awt.") || c.startsWith("java.awt.Font")
                        || c.startsWith("java.awt.GraphicsEnvironment")) {
                    return true;
                }
            }
        }
        return false;
    }
}
