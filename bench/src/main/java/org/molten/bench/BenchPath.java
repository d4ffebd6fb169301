package org.molten.bench;

import org.molten.core.ForceField;
import org.molten.forcefield.student.OptimisedStudent;
import org.molten.forcefield.student.OptimisedStudent.DenseBackend;
import org.molten.forcefield.student.OptimisedStudent.Options;
import org.molten.forcefield.student.OptimisedStudent.Precision;
import org.molten.forcefield.student.ReferenceStudent;
import org.molten.forcefield.student.StudentWeights;

import java.util.Locale;

/** A force-field configuration the CPU benchmark can time; {@link #id} is its name in reports. */
public enum BenchPath {
    /** The float64 all-pairs oracle. */
    REFERENCE("reference"),
    /** The optimised path with its defaults (float64, all threads, ND4J from its measured crossover). */
    OPTIMISED("optimised"),
    /** The optimised path in float32. */
    OPTIMISED_F32("optimised-f32"),
    /** Float64, one thread (measures the threading threshold). */
    OPTIMISED_SERIAL("optimised-1thread"),
    /** Float64, dense layers always as Java loops. */
    OPTIMISED_LOOPS("optimised-loops"),
    /** Float64, dense layers always through ND4J. */
    OPTIMISED_ND4J("optimised-nd4j"),
    /** Float64 with a zero Verlet skin: the cell list is rebuilt on every call. */
    OPTIMISED_REBUILD("optimised-rebuild"),
    /** Float64, one thread, loops (with the next: the ND4J crossover in calling-thread CPU time). */
    OPTIMISED_SERIAL_LOOPS("optimised-1thread-loops"),
    /** Float64, one thread, ND4J. */
    OPTIMISED_SERIAL_ND4J("optimised-1thread-nd4j");

    /** The name used in tables, JSON and on the command line. */
    public final String id;

    BenchPath(String id) {
        this.id = id;
    }

    /** A fresh force field of this configuration. */
    public ForceField create(StudentWeights w) {
        Options d = Options.defaults();
        return switch (this) {
            case REFERENCE -> new ReferenceStudent(w);
            case OPTIMISED -> new OptimisedStudent(w, d);
            case OPTIMISED_F32 -> new OptimisedStudent(w, d.withPrecision(Precision.FLOAT32));
            case OPTIMISED_SERIAL -> new OptimisedStudent(w, d.withThreads(1));
            case OPTIMISED_LOOPS -> new OptimisedStudent(w, d.withDense(DenseBackend.LOOPS));
            case OPTIMISED_ND4J -> new OptimisedStudent(w, d.withDense(DenseBackend.ND4J));
            case OPTIMISED_REBUILD -> new OptimisedStudent(w, d.withSkinA(0.0));
            case OPTIMISED_SERIAL_LOOPS -> new OptimisedStudent(w, d.withThreads(1).withDense(DenseBackend.LOOPS));
            case OPTIMISED_SERIAL_ND4J -> new OptimisedStudent(w, d.withThreads(1).withDense(DenseBackend.ND4J));
        };
    }

    /**
     * The path called {@code id} ("optimised-f32").
     *
     * @throws IllegalArgumentException naming the unknown id and the known ones
     */
    public static BenchPath of(String id) {
        String s = id.trim().toLowerCase(Locale.ROOT);
        for (BenchPath p : values()) {
            if (p.id.equals(s)) {
                return p;
            }
        }
        StringBuilder known = new StringBuilder();
        for (BenchPath p : values()) {
            known.append(known.length() == 0 ? "" : ", ").append(p.id);
        }
        throw new IllegalArgumentException("unknown benchmark path '" + id + "' (known: " + known + ")");
    }
}
