package org.molten.validation.observables;

import java.util.List;
import org.molten.core.Atoms;
import org.molten.core.Cell;

/**
 * Fills the histograms of an {@link ObservableSet} frame by frame and keeps the raw values (up
 * to {@link SampleReservoir#DEFAULT_CAPACITY} per observable) for the exact 1-Wasserstein
 * distance. Frames of several replicas are pooled by adding them all to one accumulator, or by
 * accumulating each replica separately (one accumulator per thread) and merging with
 * {@link #addAll}. Not thread-safe.
 *
 * <p>For the periodic O–O g(r) it also sums, over frames, the number of O–O pairs per volume
 * N_O(N_O − 1)/(2V) (1/Å³), the ideal-gas normalisation: g(r) in a shell [r, r + Δr) is the
 * observed pair count over that sum times the shell volume 4π/3((r + Δr)³ − r³). With this
 * (N − 1) convention uniformly random points give g = 1 exactly in expectation.
 */
public final class ObservableAccumulator {
    private final ObservableSet set;
    private final Histogram[] histograms;
    private final SampleReservoir[] samples;
    private final int needed;             // 3 × (highest atom index used + 1)
    private long frames;
    private double idealPairDensitySum;   // Σ_frames N_O (N_O - 1) / (2 V), 1/Å³

    /** An empty accumulator with the default reservoir capacity. */
    public ObservableAccumulator(ObservableSet set) {
        this(set, SampleReservoir.DEFAULT_CAPACITY);
    }

    /** An empty accumulator keeping at most {@code reservoirCapacity} raw values per observable. */
    public ObservableAccumulator(ObservableSet set, int reservoirCapacity) {
        this.set = set;
        List<Observable> obs = set.observables();
        int need = 0;
        for (Observable o : obs) {
            for (int[] t : o.tuplesUnsafe()) {
                for (int a : t) {
                    need = Math.max(need, 3 * (a + 1));
                }
            }
        }
        this.needed = need;
        histograms = new Histogram[obs.size()];
        samples = new SampleReservoir[obs.size()];
        for (int k = 0; k < obs.size(); k++) {
            histograms[k] = obs.get(k).emptyHistogram();
            // A fixed seed per observable: the same frames always give the same kept values.
            samples[k] = new SampleReservoir(reservoirCapacity, 0x6d6f6c74656eL ^ obs.get(k).name().hashCode());
        }
    }

    /** Adds a frame given as an {@link Atoms} (its positions and cell). */
    public void add(Atoms frame) {
        add(frame.positions(), frame.cellOrNull());
    }

    /**
     * Adds one frame.
     *
     * @param positionsA flat positions [x0, y0, z0, x1, ...] in Å, at least as many atoms as the start
     * @param cell       the frame's cell, or null for an isolated system
     * @throws IllegalArgumentException for too few or non-finite positions, a missing or too small
     *                                  periodic cell for the g(r), or a collinear dihedral; the
     *                                  message names the frame (0-based count of frames added)
     */
    public void add(double[] positionsA, Cell cell) {
        String where = "frame " + frames;
        List<Observable> obs = set.observables();
        if (positionsA.length < needed) {
            throw new IllegalArgumentException(where + ": " + positionsA.length / 3 + " atoms, the observables need " + needed / 3);
        }
        for (int i = 0; i < positionsA.length; i++) {
            if (!Double.isFinite(positionsA[i])) {
                throw new IllegalArgumentException(where + ": position of atom " + i / 3 + " is not finite: " + positionsA[i]);
            }
        }
        if (set.needsPeriodicCell()) {
            if (cell == null || !(cell.periodic(0) && cell.periodic(1) && cell.periodic(2))) {
                throw new IllegalArgumentException(where + ": the O-O g(r) needs a cell periodic along a, b and c, got " + cell);
            }
        }
        // Measure everything first, then count: a frame that fails leaves the accumulator untouched.
        double[][] values = new double[obs.size()][];
        for (int k = 0; k < obs.size(); k++) {
            Observable o = obs.get(k);
            if (o.kind() == ObservableKind.OO_RADIAL_DISTRIBUTION && o.upper() > 0.5 * cell.minPeriodicWidth() + 1e-9) {
                throw new IllegalArgumentException(where + ": the cell's smallest width " + cell.minPeriodicWidth()
                        + " Å is below twice the g(r) range " + o.upper() + " Å");
            }
            values[k] = new double[o.tuplesUnsafe().length];
            try {
                measure(o, o.tuplesUnsafe(), positionsA, cell, values[k]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ", " + o.name() + ": " + e.getMessage(), e);
            }
        }
        for (int k = 0; k < obs.size(); k++) {
            for (double v : values[k]) {
                histograms[k].add(v);
                samples[k].add(v);
            }
            if (obs.get(k).kind() == ObservableKind.OO_RADIAL_DISTRIBUTION) {
                idealPairDensitySum += values[k].length / cell.volume();
            }
        }
        frames++;
    }

    private static void measure(Observable o, int[][] tuples, double[] x, Cell cell, double[] out) {
        switch (o.kind()) {
            case BOND_LENGTH, OO_RADIAL_DISTRIBUTION, OO_DISTANCE -> {
                for (int t = 0; t < tuples.length; t++) {
                    out[t] = InternalCoordinates.distance(x, cell, tuples[t][0], tuples[t][1]);
                }
            }
            case BOND_ANGLE -> {
                for (int t = 0; t < tuples.length; t++) {
                    out[t] = InternalCoordinates.angle(x, cell, tuples[t][0], tuples[t][1], tuples[t][2]);
                }
            }
            case BACKBONE_DIHEDRAL -> {
                for (int t = 0; t < tuples.length; t++) {
                    int[] q = tuples[t];
                    out[t] = InternalCoordinates.dihedral(x, cell, q[0], q[1], q[2], q[3]);
                }
            }
        }
    }

    /**
     * Adds everything {@code other} accumulated (frames, counts, kept values, g(r) normalisation).
     *
     * @throws IllegalArgumentException when {@code other} measures a different observable set
     */
    public void addAll(ObservableAccumulator other) {
        if (!set.equals(other.set)) {
            throw new IllegalArgumentException("accumulators of different observable sets cannot be merged: "
                    + set + " vs " + other.set);
        }
        for (int k = 0; k < histograms.length; k++) {
            histograms[k].addAll(other.histograms[k]);
            samples[k].addAll(other.samples[k]);
        }
        frames += other.frames;
        idealPairDensitySum += other.idealPairDensitySum;
    }

    /** The observables measured. */
    public ObservableSet observables() {
        return set;
    }

    /** Frames added. */
    public long frames() {
        return frames;
    }

    /** The histogram of {@code o}, a copy. */
    public Histogram histogram(Observable o) {
        return histograms[index(o)].copy();
    }

    /** The raw values of {@code o} kept for W1 (all of them while {@link #exactSamples(Observable)}), a copy. */
    public double[] samples(Observable o) {
        return samples[index(o)].values();
    }

    /** Values of {@code o} measured so far (tuples × frames). */
    public long sampleCount(Observable o) {
        return samples[index(o)].seen();
    }

    /** True when every measured value of {@code o} is kept, so W1 is exact. */
    public boolean exactSamples(Observable o) {
        return samples[index(o)].exact();
    }

    /**
     * The O–O radial distribution function g(r) per bin of {@code o} (an
     * {@link ObservableKind#OO_RADIAL_DISTRIBUTION}), normalised by the ideal-gas pair density
     * (see the class comment); all zero before any frame.
     *
     * @throws IllegalArgumentException for an observable of another kind
     */
    public double[] radialDistribution(Observable o) {
        if (o.kind() != ObservableKind.OO_RADIAL_DISTRIBUTION) {
            throw new IllegalArgumentException(o.name() + " is not a periodic O-O g(r) but " + o.kind().key());
        }
        return RadialNormalisation.gOfR(histograms[index(o)], idealPairDensitySum);
    }

    private int index(Observable o) {
        int k = set.observables().indexOf(o);
        if (k < 0) {
            throw new IllegalArgumentException("observable " + o.name() + " is not in " + set);
        }
        return k;
    }
}
