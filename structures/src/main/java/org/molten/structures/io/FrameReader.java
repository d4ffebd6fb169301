package org.molten.structures.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Frames read one at a time from an open structure file, so that a long trajectory never has to
 * fit in memory. Close it (try-with-resources) to release the file.
 */
public interface FrameReader extends AutoCloseable {
    /**
     * The next frame, or {@code null} after the last one.
     *
     * @throws StructureFormatException naming the file, line and problem for malformed input
     * @throws IOException              if the file cannot be read
     */
    Frame next() throws IOException;

    /** Every remaining frame. */
    default List<Frame> readRemaining() throws IOException {
        List<Frame> frames = new ArrayList<>();
        for (Frame f = next(); f != null; f = next()) {
            frames.add(f);
        }
        return frames;
    }

    @Override
    void close() throws IOException;
}
