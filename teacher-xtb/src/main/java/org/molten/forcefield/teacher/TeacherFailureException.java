package org.molten.forcefield.teacher;

/**
 * The teacher could not give a trustworthy energy and forces for a geometry: xtb reported an error (most often
 * "Self consistent charge iterator did not converge"). Never a silently wrong force: a failed call writes nothing
 * a caller could mistake for a result.
 *
 * <p>The message is one sentence without a location, so that a caller can prefix the step or frame:
 * {@code "frame 12: " + e.getMessage()}. {@link #xtbError()} is xtb's own error stack, verbatim.
 */
public class TeacherFailureException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final String xtbError;

    /**
     * @param message  one sentence saying what failed and why
     * @param xtbError xtb's error text as it reported it ("" if none)
     */
    public TeacherFailureException(String message, String xtbError) {
        super(message);
        this.xtbError = xtbError == null ? "" : xtbError;
    }

    /** xtb's error stack as it reported it (lines "-n- source: text"), or "" if the failure was not xtb's. */
    public String xtbError() {
        return xtbError;
    }
}
