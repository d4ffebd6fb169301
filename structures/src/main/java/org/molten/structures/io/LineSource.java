package org.molten.structures.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;

/** Lines of a text source with their numbers, for parsers that report {@code file:line: problem}. */
final class LineSource implements AutoCloseable {
    private final BufferedReader reader;
    private final String source;
    private long lineNumber;      // number of the line last returned by next()
    private String pushedBack;

    LineSource(Reader reader, String source) {
        this.reader = reader instanceof BufferedReader b ? b : new BufferedReader(reader, 1 << 16);
        this.source = source;
    }

    /** The next line, or null at the end of the source. */
    String next() throws IOException {
        if (pushedBack != null) {
            String l = pushedBack;
            pushedBack = null;
            lineNumber++;
            return l;
        }
        String l;
        try {
            l = reader.readLine();
        } catch (java.util.zip.ZipException e) {
            // A compressed file whose data is damaged: the format's own error, at the line that could not be read.
            throw error(lineNumber + 1, "corrupt gzip data (" + e.getMessage() + ") after line " + lineNumber);
        }
        if (l != null) {
            lineNumber++;
        }
        return l;
    }

    /** Hands the line last returned by {@link #next()} back, to be returned again. */
    void pushBack(String line) {
        pushedBack = line;
        lineNumber--;
    }

    /** Number of the line last returned (0 before the first). */
    long lineNumber() {
        return lineNumber;
    }

    String source() {
        return source;
    }

    /** An exception for the line last returned. */
    StructureFormatException error(String problem) {
        return new StructureFormatException(source, Math.max(1, lineNumber), problem);
    }

    /** An exception for a given line. */
    StructureFormatException error(long line, String problem) {
        return new StructureFormatException(source, Math.max(1, line), problem);
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
