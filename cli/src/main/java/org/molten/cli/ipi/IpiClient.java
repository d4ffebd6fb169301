package org.molten.cli.ipi;

import java.io.EOFException;
import java.io.IOException;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.ForceField;
import org.molten.core.Units;

/**
 * The client side of the i-PI socket protocol around a {@link ForceField}: the driver (i-PI or ASE's
 * {@code SocketIOCalculator}, the server) sends positions and cell, this answers with the
 * energy, forces and virial, for as many steps as the driver asks.
 *
 * <p>States as in i-PI's reference driver: {@code NEEDINIT} until the first {@code INIT}, then
 * {@code READY}; {@code HAVEDATA} from a {@code POSDATA} (evaluated at once) until its {@code GETFORCE}.
 * {@code POSDATA} is accepted without a prior {@code INIT}, as ASE's client does.
 *
 * <p>The species, masses and periodicity come from a template structure (the protocol sends positions
 * only). For a periodic template the cell the driver sends each step is used; for an isolated one it is
 * ignored (i-PI sends a box even for a molecule in vacuum).
 *
 * <p>Units on the wire: Bohr, Hartree, Hartree/Bohr ({@link Units#BOHR_IN_A}, {@link Units#HARTREE_IN_EV});
 * the force field sees Å and returns eV, eV/Å. Matrices travel as the protocol states: the 9 numbers of the
 * cell are h with the lattice vectors as columns, row by row (ASE sends {@code cell.T}); the virial likewise.
 */
public final class IpiClient {

    /** How a session ended without error. */
    public enum Ending {
        /** The driver sent EXIT. */
        EXIT,
        /**
         * The driver closed the connection between two steps without EXIT (ASE's {@code SocketIOCalculator}
         * ends every session this way).
         */
        CLOSED
    }

    /** A finished session: the force evaluations served and how it ended. */
    public record Result(long evaluations, Ending ending) {
    }

    /** Called after each evaluation, with the evaluated atoms (Å), energy (eV) and forces (eV/Å). */
    @FunctionalInterface
    public interface Observer {
        void evaluated(long evaluation, Atoms atoms, double energyEv, double[] forcesEvPerA);
    }

    private final ForceField forceField;
    private final Atoms template;
    private final VirialMode virialMode;
    private Observer observer = (k, a, e, f) -> { };

    /**
     * @param forceField evaluates each structure; not closed here
     * @param template   the atoms in the driver's order: species, masses and whether (and along which axes) periodic
     * @param virialMode how the virial is computed
     */
    public IpiClient(ForceField forceField, Atoms template, VirialMode virialMode) {
        this.forceField = forceField;
        this.template = template.copy();
        this.virialMode = virialMode;
    }

    /** Sets the observer of each evaluation (logging, tests). */
    public IpiClient observer(Observer o) {
        this.observer = o;
        return this;
    }

    /**
     * Serves the driver on {@code wire} until it sends EXIT or closes the connection between steps.
     *
     * @throws IpiDriverException when the driver vanishes inside a step (positions sent, forces not collected,
     *                            a message cut short, a reset connection) or breaks the protocol (an unknown or
     *                            misplaced message, an atom count other than the template's); the message says which
     * @throws IllegalArgumentException when the force field refuses a structure (naming why)
     */
    public Result serve(IpiWire wire) throws IOException {
        boolean initialised = false;
        boolean haveData = false;
        long evaluations = 0;
        int n = template.size();
        double[] forces = new double[3 * n];
        double energyEv = 0;
        double[][] virialEv = null;
        Atoms atoms = template.copy();
        Cell periodic = template.cellOrNull() != null && template.cellOrNull().anyPeriodic() ? template.cellOrNull() : null;
        while (true) {
            String header;
            try {
                header = wire.readHeader();
            } catch (EOFException e) {
                if (haveData || wire.bytesOfPartialRead() > 0) {
                    throw new IpiDriverException("the driver closed the connection in the middle of a step ("
                            + (haveData ? "positions received, forces not collected" : "a message cut after "
                            + wire.bytesOfPartialRead() + " bytes") + ") after " + evaluations + " evaluations", e);
                }
                return new Result(evaluations, Ending.CLOSED);
            }
            try {
                switch (header) {
                    case "STATUS" -> {
                        wire.writeHeader(haveData ? "HAVEDATA" : initialised ? "READY" : "NEEDINIT");
                        wire.flush();
                    }
                    case "INIT" -> {
                        wire.readInt();                       // bead (replica) index: one structure per client here
                        int len = wire.readInt();
                        if (len < 0) {
                            throw new IpiDriverException("INIT with a negative parameter length: " + len);
                        }
                        wire.readBytes(len);                  // initialisation string: Molten takes its settings from options
                        initialised = true;
                    }
                    case "POSDATA" -> {
                        if (haveData) {
                            throw new IpiDriverException("POSDATA while the forces of the previous one were not collected");
                        }
                        double[] h = wire.readDoubles(9);
                        wire.readDoubles(9);                  // h^-1: recomputed from h
                        int nat = wire.readInt();
                        if (nat != n) {
                            throw new IpiDriverException("the driver sent " + nat + " atoms; the structure Molten serves has "
                                    + n + " (" + template.formula() + ")");
                        }
                        double[] posBohr = wire.readDoubles(3 * nat);
                        double[] r = atoms.positions();
                        for (int k = 0; k < 3 * n; k++) {
                            r[k] = posBohr[k] * Units.BOHR_IN_A;
                        }
                        if (periodic != null) {
                            Cell sent = cellOf(h, periodic.pbc());
                            if (!sent.equals(atoms.cellOrNull())) {
                                atoms = atoms.withCell(sent);
                            }
                        }
                        energyEv = forceField.energyAndForces(atoms, forces);
                        virialEv = virialMode.virialEv(forceField, atoms, forces);
                        evaluations++;
                        observer.evaluated(evaluations, atoms, energyEv, forces);
                        haveData = true;
                    }
                    case "GETFORCE" -> {
                        if (!haveData) {
                            throw new IpiDriverException("GETFORCE before any POSDATA");
                        }
                        sendForces(wire, energyEv, forces, virialEv);
                        haveData = false;
                    }
                    case "EXIT" -> {
                        return new Result(evaluations, Ending.EXIT);
                    }
                    default -> throw new IpiDriverException("unknown message from the driver: '" + printable(header)
                            + "' (expected STATUS, INIT, POSDATA, GETFORCE or EXIT)");
                }
            } catch (EOFException e) {
                throw new IpiDriverException("the driver closed the connection inside its " + header + " message after "
                        + evaluations + " evaluations", e);
            } catch (IpiDriverException e) {
                throw e;
            } catch (IOException e) {
                throw new IpiDriverException("the connection to the driver failed during " + header + " after "
                        + evaluations + " evaluations: " + e.getMessage(), e);
            }
        }
    }

    private static void sendForces(IpiWire wire, double energyEv, double[] forcesEvPerA, double[][] virialEv)
            throws IOException {
        double[] f = new double[forcesEvPerA.length];
        double perForce = Units.BOHR_IN_A / Units.HARTREE_IN_EV;
        for (int k = 0; k < f.length; k++) {
            f[k] = forcesEvPerA[k] * perForce;
        }
        double[] w = new double[9];
        for (int a = 0; a < 3; a++) {
            for (int b = 0; b < 3; b++) {
                w[3 * a + b] = virialEv[b][a] / Units.HARTREE_IN_EV;   // transposed, as the cell
            }
        }
        // the extra string: one zero byte, as ASE's own client sends (ASE 3.22's server fails on a longer one,
        // testing a numpy array's truth; i-PI, finding no JSON in it, ignores it)
        byte[] extra = {0};
        wire.writeHeader("FORCEREADY");
        wire.writeDoubles(energyEv / Units.HARTREE_IN_EV);
        wire.writeInt(forcesEvPerA.length / 3);
        wire.writeDoubles(f);
        wire.writeDoubles(w);
        wire.writeInt(extra.length);
        wire.writeBytes(extra);
        wire.flush();
    }

    /** The cell whose lattice vectors are the columns of the 9 numbers sent row by row (Bohr), in Å. */
    static Cell cellOf(double[] hBohr, boolean[] pbc) {
        double[][] rows = new double[3][3];
        for (int vector = 0; vector < 3; vector++) {
            for (int component = 0; component < 3; component++) {
                rows[vector][component] = hBohr[3 * component + vector] * Units.BOHR_IN_A;
            }
        }
        return Cell.of(rows, pbc);
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : s.toCharArray()) {
            b.append(c >= 32 && c < 127 ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return b.toString();
    }
}
