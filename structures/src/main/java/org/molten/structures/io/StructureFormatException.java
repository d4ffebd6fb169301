package org.molten.structures.io;

import java.io.IOException;

/**
 * A structure file that cannot be read: the message is {@code <file>:<line>: <problem>}, as
 * compilers report errors, so that a chemist can open the file at the line and see the problem
 * ("water.xyz:7: non-numeric y coordinate '0.12.3'"). Line numbers start at 1.
 */
public final class StructureFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long line;
    private final String problem;

    /**
     * @param file    the file or source name as the user knows it
     * @param line    1-based line number of the problem
     * @param problem what is wrong, quoting the offending token
     */
    public StructureFormatException(String file, long line, String problem) {
        super(file + ":" + line + ": " + problem);
        this.file = file;
        this.line = line;
        this.problem = problem;
    }

    /** The file or source name. */
    public String file() {
        return file;
    }

    /** The 1-based line of the problem. */
    public long line() {
        return line;
    }

    /** The problem without file and line. */
    public String problem() {
        return problem;
    }
}
