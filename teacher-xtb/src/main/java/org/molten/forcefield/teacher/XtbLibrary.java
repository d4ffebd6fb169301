package org.molten.forcefield.teacher;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;

/**
 * The xtb C API (libxtb 6.5.1, {@code /usr/include/xtb.h}, API version 1.0.0) as a JNA interface, and its loading.
 * Handles are opaque pointers; lengths in Bohr, energies in Hartree, gradients in Hartree/Bohr. Every call that
 * takes an environment reports failures through it ({@link #xtb_checkEnvironment}, {@link #xtb_getError}).
 *
 * <p>{@link XtbLoader} loads it (never throwing).
 */
interface XtbLibrary extends Library {
    /** xtb.h: {@code XTB_VERBOSITY_MUTED}. */
    int VERBOSITY_MUTED = 0;

    int xtb_getAPIVersion();

    Pointer xtb_newEnvironment();

    void xtb_delEnvironment(PointerByReference env);

    int xtb_checkEnvironment(Pointer env);

    void xtb_getError(Pointer env, byte[] buffer, int[] bufferSize);

    void xtb_setVerbosity(Pointer env, int verbosity);

    Pointer xtb_newMolecule(Pointer env, int[] natoms, int[] numbers, double[] positionsBohr, double[] charge,
                            int[] uhf, double[] latticeBohr, byte[] periodic);

    void xtb_delMolecule(PointerByReference mol);

    void xtb_updateMolecule(Pointer env, Pointer mol, double[] positionsBohr, double[] latticeBohr);

    Pointer xtb_newCalculator();

    void xtb_delCalculator(PointerByReference calc);

    void xtb_loadGFN2xTB(Pointer env, Pointer mol, Pointer calc, String parameterFile);

    void xtb_setAccuracy(Pointer env, Pointer calc, double accuracy);

    void xtb_setElectronicTemp(Pointer env, Pointer calc, double temperatureK);

    void xtb_setMaxIter(Pointer env, Pointer calc, int iterations);

    Pointer xtb_newResults();

    void xtb_delResults(PointerByReference res);

    void xtb_singlepoint(Pointer env, Pointer mol, Pointer calc, Pointer res);

    void xtb_getEnergy(Pointer env, Pointer res, double[] energyHartree);

    void xtb_getGradient(Pointer env, Pointer res, double[] gradientHartreePerBohr);

    /**
     * The OpenMP runtime libxtb is linked against (GNU libgomp): {@code omp_set_num_threads} sets the number of
     * threads of the <em>calling</em> thread's parallel regions, so each caller of the teacher runs xtb on one
     * thread and parallelism comes from the callers.
     */
    interface OpenMp extends Library {
        void omp_set_num_threads(int threads);
    }
}
