package org.molten.validation.plots;

import java.io.IOException;

/**
 * This machine cannot draw plots (typically no fonts: "Fontconfig head is null", or no AWT
 * libraries). The message is the same for every plot, so that a caller collecting warnings can
 * keep one.
 */
public final class PlotsUnavailableException extends IOException {
    private static final long serialVersionUID = 1L;

    PlotsUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
