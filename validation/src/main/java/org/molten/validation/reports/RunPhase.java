package org.molten.validation.reports;

/** What a run is for. */
public enum RunPhase {
    /** Langevin equilibration before production: only completion and integrity are judged. */
    EQUILIBRATION,
    /** NVE or NVT production: every criterion of its ensemble is judged. */
    PRODUCTION
}
