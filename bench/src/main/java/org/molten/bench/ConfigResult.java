package org.molten.bench;

/**
 * One benchmarked configuration (a device, a path, a system size) with its speed, memory and
 * accuracy. Times in µs; throughput from the median MD-step time at {@link BenchSuite#MD_DT_FS} fs;
 * memory in MiB; energy in eV, forces in eV/Å. Fields that do not apply (an energy+forces latency
 * for the device-resident integrator, device memory on the CPU) are null, written as JSON null
 * and as "n/a" in tables.
 *
 * @param device                 "cpu" or "cuda"
 * @param config                 the configuration's id ("optimised-f64", "cuda-md-graphs")
 * @param precision              arithmetic precision, which sets the force-error bound
 * @param atoms                  number of atoms
 * @param system                 what the system is
 * @param periodic               whether it has a periodic cell
 * @param status                 ok, skipped (cannot run here, with the reason) or failed (with the reason)
 * @param reason                 why skipped or failed, else ""
 * @param energyForces           latency per energy+forces call on perturbed positions, or null
 * @param mdStep                 latency per velocity-Verlet MD step, or null
 * @param stepsPerSecond         1e6 / median MD-step µs
 * @param atomStepsPerSecond     atoms × steps per second
 * @param nsPerDay               simulated ns per day at {@link BenchSuite#MD_DT_FS} fs
 * @param peakHeapMiB            peak Java heap (sum of the heap pools' peaks since this configuration began)
 * @param heapKbPerAtom          Java heap the model keeps (live after a full GC, with it evaluated and
 *                               its buffers grown, minus before it was built), KB per atom (for small systems mostly the weights);
 *                               null where not measured (device MD)
 * @param deviceMemoryUsedMiB    device memory in use at the end of the run (cuMemGetInfo, whole device), or null
 * @param accuracyReference      what the forces were compared with
 * @param energyDiffEv           |E − E_ref| on the same positions
 * @param forceRmseEvPerA        RMS over the 3N components of F − F_ref
 * @param referenceForceRmsEvPerA RMS of F_ref (the scale of the bound)
 * @param forceRmseBoundEvPerA   the precision's allowed force RMSE at this geometry
 * @param freshInputCalls        timed calls proven to have seen new positions and returned a new answer
 */
public record ConfigResult(String device, String config, Precision precision, int atoms, String system, boolean periodic,
                           Status status, String reason, SampleStats energyForces, SampleStats mdStep,
                           Double stepsPerSecond, Double atomStepsPerSecond, Double nsPerDay,
                           Double peakHeapMiB, Double heapKbPerAtom, Double deviceMemoryUsedMiB, String accuracyReference,
                           Double energyDiffEv, Double forceRmseEvPerA, Double referenceForceRmsEvPerA,
                           Double forceRmseBoundEvPerA, long freshInputCalls) {

    /** Outcome of a configuration. */
    public enum Status { ok, skipped, failed }

    /** A configuration that did not run here, and why. */
    public static ConfigResult notRun(String device, String config, Precision precision, int atoms, String system,
                                      boolean periodic, Status status, String reason) {
        return new ConfigResult(device, config, precision, atoms, system, periodic, status, reason, null, null,
                null, null, null, null, null, null, null, null, null, null, null, 0);
    }

    /** Key that identifies the configuration across runs: device/config/atoms. */
    public String key() {
        return device + "/" + config + "/" + atoms;
    }

    /** The median that regressions are judged on: MD step if measured, else energy+forces; NaN if neither. */
    public double headlineMedianUs() {
        if (mdStep != null) {
            return mdStep.medianUs();
        }
        return energyForces != null ? energyForces.medianUs() : Double.NaN;
    }

    /** Whether the force error is within the precision's bound (false if not measured). */
    public boolean accurate() {
        return forceRmseEvPerA != null && forceRmseBoundEvPerA != null && forceRmseEvPerA <= forceRmseBoundEvPerA;
    }
}
