package org.molten.forcefield.torchscript;

import ai.djl.engine.Engine;
import ai.djl.engine.EngineException;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.engine.PtNDManager;
import ai.djl.pytorch.engine.PtSymbolBlock;
import ai.djl.pytorch.jni.IValue;
import ai.djl.pytorch.jni.IValueUtils;
import ai.djl.pytorch.jni.JniUtils;
import org.molten.core.Atoms;
import org.molten.core.Cell;
import org.molten.core.Checks;
import org.molten.core.Element;
import org.molten.core.ForceField;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;

/**
 * A force field backed by a TorchScript module run through DJL's PyTorch engine (libtorch).
 *
 * <p>The module's contract (what forcefield/training/export.py writes):
 * {@code forward(atomic_numbers int64 [N], positions float64 [N,3] Å) -> (energy [] eV,
 * forces [N,3] eV/Å)} with the forces from {@code torch.autograd.grad} inside forward, plus the
 * exported methods {@code species() -> List[int]} and {@code cutoff() -> float} (Å). The bundled
 * module ({@link #bundled()}) is the shipped student in float64: the baseline model.
 *
 * <p>Non-periodic systems only: the scripted module has no minimum image, so a state with a
 * periodic axis is refused. DJL is used offline ({@code ai.djl.offline=true} is set if absent), the
 * module's weights are loaded with gradients enabled and every call runs with libtorch's gradient
 * mode on (it is thread-local and off on DJL's inference path). Not thread-safe, like every
 * {@link ForceField}; calls are serialised on the instance.
 */
public final class TorchScriptForceField implements ForceField {
    /** Class-path location of the bundled TorchScript export of the shipped student. */
    public static final String BUNDLED_RESOURCE = "/org/molten/forcefield/torchscript/student-gfn2.pt";
    /** Default number of libtorch intra-op threads (small molecules: more threads only cost). */
    public static final int DEFAULT_THREADS = 1;

    private final String name;
    private final NDManager manager;
    private final PtSymbolBlock block;
    private final int[] species;
    private final double cutoffA;
    private boolean closed;

    private TorchScriptForceField(String name, Path file, int threads) throws IOException {
        Checks.requirePositive(threads, "threads");
        if (System.getProperty("ai.djl.offline") == null) {
            System.setProperty("ai.djl.offline", "true");   // Molten never downloads native libraries
        }
        this.name = name;
        Engine engine;
        try {
            engine = Engine.getEngine("PyTorch");
        } catch (RuntimeException e) {
            throw new IllegalStateException("DJL's PyTorch engine could not start (is pytorch-native-cpu "
                    + "linux-x86_64 on the class path?): " + e.getMessage(), e);
        }
        JniUtils.setNumThreads(threads);
        this.manager = engine.newBaseManager();
        try {
            // trainParam = true: parameters outside inference mode, so autograd can save them.
            this.block = JniUtils.loadModule((PtNDManager) manager, file, false, new String[0], new String[0], true);
            this.species = readSpecies(block);
            this.cutoffA = readCutoff(block);
        } catch (EngineException | IllegalArgumentException e) {
            manager.close();
            throw new IOException(file + ": not a Molten TorchScript force field (forward(atomic_numbers, "
                    + "positions) with species() and cutoff()): " + e.getMessage(), e);
        }
    }

    /**
     * Loads a TorchScript file.
     *
     * @param file    the .pt file written by export.py (torch.jit.save)
     * @param threads libtorch intra-op threads, at least 1
     * @throws IOException if the file is missing or is not such a module
     */
    public static TorchScriptForceField load(Path file, int threads) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + ": no such TorchScript file");
        }
        return new TorchScriptForceField("torchscript:" + file.getFileName(), file, threads);
    }

    /** {@link #load(Path, int)} with {@link #DEFAULT_THREADS}. */
    public static TorchScriptForceField load(Path file) throws IOException {
        return load(file, DEFAULT_THREADS);
    }

    /** The bundled baseline: the shipped student exported to TorchScript (float64). */
    public static TorchScriptForceField bundled() throws IOException {
        try (InputStream in = TorchScriptForceField.class.getResourceAsStream(BUNDLED_RESOURCE)) {
            if (in == null) {
                throw new IOException("bundled TorchScript model " + BUNDLED_RESOURCE + " is not on the class path");
            }
            Path tmp = Files.createTempFile("molten-student-gfn2-", ".pt");
            try {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                return new TorchScriptForceField("torchscript:student-gfn2", tmp, DEFAULT_THREADS);
            } finally {
                Files.deleteIfExists(tmp);   // libtorch has read the whole module by now
            }
        }
    }

    private static int[] readSpecies(PtSymbolBlock block) {
        try (IValue v = IValueUtils.runMethod(block, "species")) {
            long[] z = v.toLongArray();
            int[] out = new int[z.length];
            for (int k = 0; k < z.length; k++) {
                out[k] = Math.toIntExact(z[k]);
            }
            return out;
        }
    }

    private static double readCutoff(PtSymbolBlock block) {
        try (IValue v = IValueUtils.runMethod(block, "cutoff")) {
            return v.toDouble();
        }
    }

    @Override
    public String name() {
        return name;
    }

    /** Atomic numbers the model accepts. */
    public int[] species() {
        return species.clone();
    }

    /** The model's cutoff radius in Å. */
    public double cutoffA() {
        return cutoffA;
    }

    @Override
    public synchronized double energyAndForces(Atoms atoms, double[] forces) {
        if (closed) {
            throw new IllegalStateException(name + " is closed");
        }
        int n = atoms.size();
        if (forces.length != 3 * n) {
            throw new IllegalArgumentException("forces array has length " + forces.length + ", expected 3N = " + 3 * n);
        }
        Cell cell = atoms.cellOrNull();
        if (cell != null && cell.anyPeriodic()) {
            throw new IllegalArgumentException(name + " supports non-periodic systems only (the TorchScript "
                    + "module has no minimum image); got a periodic cell");
        }
        long[] z = new long[n];
        for (int i = 0; i < n; i++) {
            int zi = atoms.atomicNumber(i);
            if (Arrays.stream(species).noneMatch(s -> s == zi)) {
                throw new IllegalArgumentException(name + " has no parameters for element "
                        + Element.ofAtomicNumber(zi).symbol() + " (atom " + i + "); it knows Z = "
                        + Arrays.toString(species));
            }
            z[i] = zi;
        }
        double[] pos = atoms.positions();
        for (int k = 0; k < 3 * n; k++) {
            Checks.requireFinite(pos[k], "position component " + k);
        }
        boolean gradMode = JniUtils.isGradMode();
        try (NDManager call = manager.newSubManager()) {
            NDArray zArr = call.create(z);
            NDArray pArr = call.create(pos.clone(), new Shape(n, 3));
            JniUtils.setGradMode(true);          // thread-local in libtorch; DJL leaves it off
            NDList out = IValueUtils.forward(block, new NDList(zArr, pArr), true);
            NDArray f = out.get(1);
            if (f.getDataType() != DataType.FLOAT64) {
                f = f.toType(DataType.FLOAT64, false);
            }
            double[] fv = f.toDoubleArray();
            System.arraycopy(fv, 0, forces, 0, 3 * n);
            NDArray e = out.get(0);
            return e.getDataType() == DataType.FLOAT64 ? e.toDoubleArray()[0] : e.toType(DataType.FLOAT64, false).toDoubleArray()[0];
        } catch (EngineException e) {
            throw new IllegalStateException(name + ": libtorch failed: " + firstLine(e.getMessage()), e);
        } finally {
            JniUtils.setGradMode(gradMode);
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "(no message)";
        }
        String[] lines = s.strip().split("\n");
        return lines[lines.length - 1].strip();
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            block.close();
            manager.close();
        }
    }
}
