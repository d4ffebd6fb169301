/** The {@code molten sweep} and {@code molten worker} subcommands. */
package org.molten.sweep.cli;
