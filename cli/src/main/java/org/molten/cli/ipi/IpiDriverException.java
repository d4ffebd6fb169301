package org.molten.cli.ipi;

import java.io.IOException;

/** The i-PI driver vanished inside a step or broke the protocol; the message says which, and after how many steps. */
public final class IpiDriverException extends IOException {
    public IpiDriverException(String message) {
        super(message);
    }

    public IpiDriverException(String message, Throwable cause) {
        super(message, cause);
    }
}
