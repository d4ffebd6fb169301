"""xtb's C API (libxtb.so.6, API 6.5.1) through ctypes: GFN2-xTB labels and GFN-FF sampling in-process.

In-process calls cost 0.1-0.3 ms (GFN-FF) and 2-30 ms (GFN2-xTB) per energy + gradient for 9-33 atoms,
against 12-25 ms of start-up per call of the `xtb` program (teacher.py), so the organic data set of
thousands of molecules is labelled through this binding. One `XtbCalculator` holds one environment,
molecule, calculator and results (libxtb keeps its state per environment): use one per process.
Units at this boundary: Å and eV, eV/Å; libxtb itself works in Bohr and Hartree.
"""
import ctypes
import ctypes.util
import os
import tempfile

import numpy as np

from units import BOHR_IN_A, HARTREE_IN_EV

_LIB = None


def library():
    """The loaded libxtb (LIBXTB names a file; else the system's libxtb.so.6)."""
    global _LIB
    if _LIB is None:
        name = os.environ.get("LIBXTB") or ctypes.util.find_library("xtb") or "libxtb.so.6"
        lib = ctypes.CDLL(name)
        vp = ctypes.c_void_p
        lib.xtb_newEnvironment.restype = vp
        lib.xtb_newCalculator.restype = vp
        lib.xtb_newResults.restype = vp
        lib.xtb_newMolecule.restype = vp
        lib.xtb_newMolecule.argtypes = [vp, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                                        ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double),
                                        ctypes.POINTER(ctypes.c_int), vp, vp]
        lib.xtb_updateMolecule.argtypes = [vp, vp, ctypes.POINTER(ctypes.c_double), vp]
        lib.xtb_checkEnvironment.argtypes = [vp]
        lib.xtb_checkEnvironment.restype = ctypes.c_int
        lib.xtb_getError.argtypes = [vp, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
        lib.xtb_setVerbosity.argtypes = [vp, ctypes.c_int]
        lib.xtb_setOutput.argtypes = [vp, ctypes.c_char_p]
        for f in ("xtb_loadGFN2xTB", "xtb_loadGFNFF"):
            getattr(lib, f).argtypes = [vp, vp, vp, ctypes.c_char_p]
        lib.xtb_setAccuracy.argtypes = [vp, vp, ctypes.c_double]
        lib.xtb_setMaxIter.argtypes = [vp, vp, ctypes.c_int]
        lib.xtb_singlepoint.argtypes = [vp, vp, vp, vp]
        lib.xtb_getEnergy.argtypes = [vp, vp, ctypes.POINTER(ctypes.c_double)]
        lib.xtb_getGradient.argtypes = [vp, vp, ctypes.POINTER(ctypes.c_double)]
        for f in ("xtb_delResults", "xtb_delCalculator", "xtb_delMolecule", "xtb_delEnvironment"):
            getattr(lib, f).argtypes = [ctypes.POINTER(vp)]
        _LIB = lib
    return _LIB


class XtbFailure(RuntimeError):
    """The SCF did not converge or libxtb reported another error for this geometry."""


class XtbCalculator:
    """Energy (eV) and forces (eV/Å) of one molecule's geometries with GFN2-xTB ('gfn2') or GFN-FF ('gfnff').

    Neutral and closed-shell (charge 0, uhf 0), non-periodic, default accuracy (1.0), electronic
    temperature 300 K, as the teacher of the bundled model (docs/teacher.md).
    """

    def __init__(self, numbers, positions, method="gfn2", max_iter=250):
        self.lib = lib = library()
        self.n = len(numbers)
        self.method = method
        self.env = ctypes.c_void_p(lib.xtb_newEnvironment())
        # GFN-FF prints its topology and writes gfnff_* files into the working directory even at
        # verbosity 0: keep both out of the caller's folder.
        self._dir = tempfile.mkdtemp(prefix="molten-xtb-")
        lib.xtb_setOutput(self.env, os.path.join(self._dir, "xtb.out").encode())
        lib.xtb_setVerbosity(self.env, 0)
        z = (ctypes.c_int * self.n)(*[int(a) for a in numbers])
        xyz, keep = self._bohr(positions)
        nat, charge, uhf = ctypes.c_int(self.n), ctypes.c_double(0.0), ctypes.c_int(0)
        self.mol = ctypes.c_void_p(lib.xtb_newMolecule(self.env, ctypes.byref(nat), z, xyz, ctypes.byref(charge),
                                                       ctypes.byref(uhf), None, None))
        self._check("molecule")
        self.calc = ctypes.c_void_p(lib.xtb_newCalculator())
        self.res = ctypes.c_void_p(lib.xtb_newResults())
        cwd = os.getcwd()
        try:
            os.chdir(self._dir)
            if method == "gfn2":
                lib.xtb_loadGFN2xTB(self.env, self.mol, self.calc, None)
            elif method == "gfnff":
                lib.xtb_loadGFNFF(self.env, self.mol, self.calc, None)
            else:
                raise ValueError(f"unknown method {method!r} (gfn2 or gfnff)")
        finally:
            os.chdir(cwd)
        self._check("load " + method)
        if method == "gfn2":
            lib.xtb_setMaxIter(self.env, self.calc, max_iter)
        self._grad = (ctypes.c_double * (3 * self.n))()

    def _bohr(self, positions):
        p = np.ascontiguousarray(np.asarray(positions, dtype=np.float64).reshape(self.n, 3) / BOHR_IN_A)
        return p.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), p  # keep the array alive with the pointer

    def _check(self, what):
        if self.lib.xtb_checkEnvironment(self.env):
            buf = ctypes.create_string_buffer(512)
            size = ctypes.c_int(512)
            self.lib.xtb_getError(self.env, buf, ctypes.byref(size))
            # the error stays on the environment: a fresh one is needed for the next call
            raise XtbFailure(f"{what}: {buf.value.decode(errors='replace').strip()}")

    def compute(self, positions):
        """(energy eV, forces eV/Å [n,3]) at `positions` (Å); raises XtbFailure on a failed SCF."""
        ptr, keep = self._bohr(positions)
        self.lib.xtb_updateMolecule(self.env, self.mol, ptr, None)
        self.lib.xtb_singlepoint(self.env, self.mol, self.calc, self.res)
        self._check("singlepoint")
        e = ctypes.c_double()
        self.lib.xtb_getEnergy(self.env, self.res, ctypes.byref(e))
        self.lib.xtb_getGradient(self.env, self.res, self._grad)
        grad = np.ctypeslib.as_array(self._grad).reshape(self.n, 3)
        del keep
        return e.value * HARTREE_IN_EV, -grad * (HARTREE_IN_EV / BOHR_IN_A)

    def close(self):
        lib = self.lib
        for h, f in ((self.res, lib.xtb_delResults), (self.calc, lib.xtb_delCalculator),
                     (self.mol, lib.xtb_delMolecule), (self.env, lib.xtb_delEnvironment)):
            if h:
                f(ctypes.byref(h))
        for name in os.listdir(self._dir):
            os.remove(os.path.join(self._dir, name))
        os.rmdir(self._dir)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
