package org.molten.integrators;

import java.util.Locale;
import org.molten.core.Atoms;
import org.molten.core.Element;

/**
 * A simulation stopped because its state became unphysical: the step, the atom and the cause
 * are in the message and in the accessors. Thrown after everything already written (log,
 * trajectory, last good checkpoint) has been flushed; the bad state is never checkpointed.
 */
public final class SimulationBlowUpException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Cause {
        NON_FINITE_POSITION("position is not finite"),
        NON_FINITE_VELOCITY("velocity is not finite"),
        NON_FINITE_FORCE("force is not finite"),
        NON_FINITE_ENERGY("potential energy is not finite"),
        FORCE_TOO_LARGE("force exceeds the bound"),
        SPEED_TOO_LARGE("speed exceeds the bound"),
        /** Found by a device platform inside a chunk of steps: positions or forces not finite. */
        NON_FINITE_ON_DEVICE("positions or forces became non-finite on the device"),
        /** A constraint (RATTLE or SETTLE) could not be satisfied: the atoms moved too far in one step. */
        CONSTRAINT_FAILED("a constraint could not be satisfied");

        private final String text;

        Cause(String text) {
            this.text = text;
        }

        /** A short phrase for messages. */
        public String text() {
            return text;
        }
    }

    private final long step;
    private final int atom;
    private final Element element;
    private final Cause cause;
    private final double value;

    SimulationBlowUpException(long step, double timeFs, int atom, Element element, Cause cause, double value,
                              String detail) {
        super(String.format(Locale.ROOT, "simulation blew up at step %d (t = %s fs): atom %d (%s): %s%s",
                step, timeFs, atom, element, cause.text(), detail));
        this.step = step;
        this.atom = atom;
        this.element = element;
        this.cause = cause;
        this.value = value;
    }

    /** A device's blow-up in the terms of the host guard: the replica is named in the message. */
    static SimulationBlowUpException fromDevice(org.molten.core.dynamics.DeviceBlowUpException e, Element element,
                                                double timestepFs, String platform, int replicas) {
        String where = replicas > 1 ? " (replica " + e.replica() + " on " + platform + ": " : " (on " + platform + ": ";
        boolean constraint = e instanceof org.molten.core.dynamics.DeviceConstraintFailureException;
        SimulationBlowUpException s = new SimulationBlowUpException(e.step(), e.step() * timestepFs, e.atom(), element,
                constraint ? Cause.CONSTRAINT_FAILED : Cause.NON_FINITE_ON_DEVICE, Double.NaN, where + e.getMessage() + ")"
                        + (constraint ? "; try a shorter --timestep or a looser --constraint-tolerance" : ""));
        s.initCause(e);
        return s;
    }

    /** A constraint that could not be met at {@code step}: both atoms are named in the message. */
    static SimulationBlowUpException constraintFailed(long step, double timeFs, Atoms atoms,
                                                      org.molten.integrators.constraints.ConstraintFailureException e) {
        SimulationBlowUpException s = new SimulationBlowUpException(step, timeFs, e.atomI(), atoms.element(e.atomI()),
                Cause.CONSTRAINT_FAILED, Double.NaN, ": " + e.getMessage()
                        + "; try a shorter --timestep or a looser --constraint-tolerance");
        s.initCause(e);
        return s;
    }

    /** The step at which the state was found bad. */
    public long step() {
        return step;
    }

    /** Index of the atom named as the culprit. */
    public int atom() {
        return atom;
    }

    /** Its element. */
    public Element element() {
        return element;
    }

    /** The cause. */
    public Cause blowUpCause() {
        return cause;
    }

    /** The offending value (eV/Å, Å/fs, Å or eV by cause). */
    public double value() {
        return value;
    }
}
