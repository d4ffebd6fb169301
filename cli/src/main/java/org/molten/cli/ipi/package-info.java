/**
 * Molten as a force engine for Python drivers: a client of the i-PI socket protocol (the one i-PI and ASE's
 * {@code SocketIOCalculator} serve, and LAMMPS's {@code fix ipi}, another client, speaks). {@link org.molten.cli.ipi.IpiWire}
 * is the byte layout, {@link org.molten.cli.ipi.IpiClient} the client's state machine around any
 * {@link org.molten.core.ForceField}, {@code org.molten.cli.ServeCommand} the {@code molten serve} command.
 * Nothing here depends on the rest of the command line, so the package can move to a module of its own.
 */
package org.molten.cli.ipi;
