/** The {@code molten} command line (picocli): one class per subcommand. */
package org.molten.cli;
