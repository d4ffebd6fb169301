package org.molten.validation.reports;

/** Which side of the comparison a run belongs to. */
public enum ModelRole {
    /** The model under test: the optimised student on the chosen device. */
    OPTIMISED,
    /** The model it is compared with (TorchScript export or the reference student). */
    BASELINE
}
