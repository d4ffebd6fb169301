"""Unit constants shared by the training recipe (CODATA 2018, as md-core's org.molten.core.Units)."""

HARTREE_IN_EV = 27.211386245988   # 1 Hartree in eV
BOHR_IN_A = 0.529177210903        # 1 Bohr in Å
AUT_IN_FS = 2.4188843265857e-2    # atomic unit of time in fs (for xtb's mdrestart velocities)
BOLTZMANN_EV_PER_K = 8.617333262e-5
# Acceleration in Å/fs² of 1 amu under 1 eV/Å (see Units.ACCEL_A_PER_FS2).
ACCEL_A_PER_FS2 = 1.602176634e-19 / (1e-10 * 1.66053906660e-27) * 1e10 / 1e30

SYMBOLS = {1: "H", 6: "C", 7: "N", 8: "O"}
NUMBERS = {v: k for k, v in SYMBOLS.items()}
MASSES_AMU = {1: 1.008, 6: 12.011, 7: 14.007, 8: 15.999}
