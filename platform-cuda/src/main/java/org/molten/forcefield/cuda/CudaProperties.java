package org.molten.forcefield.cuda;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;

/**
 * Every {@code molten.cuda.*} system property the GPU path reads, with the values it takes, what it selects and
 * why it exists (for {@code molten info}), and the refusal of any other name under that prefix: a misspelt or
 * removed option ({@code -Dmolten.cuda.tileRow=8}, {@code -Dmolten.cuda.denseMath=tf32x3}) would otherwise be
 * ignored in silence and a benchmark would time the default while its user believes otherwise.
 */
public final class CudaProperties {
    static final String PREFIX = "molten.cuda.";
    /** Read only by the tests' set-up (CudaTestSupport): the CPU emulator of the driver. */
    static final String EMULATOR = "molten.cuda.emulator";

    private CudaProperties() {
    }

    /** Name, values, what it selects and why: one entry per property, in {@code molten info}'s order. */
    static List<String[]> all() {
        List<String[]> all = new ArrayList<>();
        all.add(new String[] {"molten.cuda.disable", "true|false", "keep the student on the CPU even where a GPU"
                + " is usable (comparisons, a faulty driver)"});
        all.add(new String[] {GpuAvailability.DRIVER_LIBRARY, "path", "a libcuda.so.1 outside the loader's path, or"
                + " the CPU emulator of the tests"});
        all.addAll(CudaOptions.PROPERTIES);
        all.addAll(KernelChoices.PROPERTIES);
        all.add(new String[] {DenseSplit.PROPERTY, "auto|1.." + DenseSplit.MAX_SPLITS, "K splits of the tiled"
                + " dense layers; auto minimises a measured cost model; to time fixed splits"});
        all.add(new String[] {EMULATOR, "path", "tests only: the CPU emulator of the driver that the CUDA tests"
                + " load where no GPU is"});
        return all;
    }

    /**
     * Refuses a {@code molten.cuda.*} name in {@code props} that is none of {@link #all()}.
     *
     * @throws IllegalArgumentException naming the unknown properties and the known ones
     */
    static void refuseUnknown(Properties props) {
        TreeSet<String> known = new TreeSet<>();
        for (String[] p : all()) {
            known.add(p[0]);
        }
        TreeSet<String> unknown = new TreeSet<>();
        for (String name : props.stringPropertyNames()) {
            if (name.startsWith(PREFIX) && !known.contains(name)) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown system propert" + (unknown.size() == 1 ? "y -D" : "ies -D")
                    + String.join(", -D", unknown) + " (misspelt or removed); the GPU path reads " + String.join(", ",
                    known) + " (molten info says what each selects)");
        }
    }
}
