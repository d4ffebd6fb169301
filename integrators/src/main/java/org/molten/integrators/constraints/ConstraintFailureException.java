package org.molten.integrators.constraints;

/**
 * A constraint that could not be satisfied: RATTLE did not converge within its iterations, or
 * SETTLE met a geometry it has no solution for (a water torn apart). Names the two atoms of the
 * worst constraint; the {@link org.molten.integrators.Simulation} turns it into a blow-up at the
 * step where it happened.
 */
public final class ConstraintFailureException extends IllegalStateException {
    private static final long serialVersionUID = 1L;
    private final int atomI;
    private final int atomJ;

    ConstraintFailureException(int atomI, int atomJ, String message) {
        super(message);
        this.atomI = atomI;
        this.atomJ = atomJ;
    }

    /** The first atom of the constraint that failed. */
    public int atomI() {
        return atomI;
    }

    /** The second atom of the constraint that failed. */
    public int atomJ() {
        return atomJ;
    }
}
