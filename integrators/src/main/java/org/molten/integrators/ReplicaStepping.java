package org.molten.integrators;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.molten.core.dynamics.DeviceBlowUpException;
import org.molten.core.dynamics.DeviceDynamics;

/**
 * The one stepping loop of every simulation, alone or in a {@link ReplicaSet}, on the host or a
 * device: advance every member to the next step at which one of its reporters (or, on a device,
 * the guard) acts, then let the reporters of that step run, member by member in index order.
 * On the host each member integrates its own steps (in parallel on a pool when one is given; the
 * members share nothing, so the result does not depend on the number of threads) with the guard
 * after every step; on a device the binding advances all members in one call.
 */
final class ReplicaStepping {
    private ReplicaStepping() {}

    static void advance(List<Simulation> members, DeviceDynamics device, ExecutorService pool, int steps) {
        if (steps < 0) {
            throw new IllegalArgumentException("number of steps must be zero or positive: " + steps);
        }
        try {
            for (Simulation m : members) {
                m.reportInitialStateOnce();
            }
            long now = members.get(0).stepCount();
            long end = now + steps;
            while (now < end) {
                long next = end;
                for (Simulation m : members) {
                    next = Math.min(next, m.nextStop(now));
                }
                int chunk = (int) (next - now);
                if (device != null) {
                    advanceDevice(members, device, chunk);
                } else {
                    advanceHost(members, pool, chunk);
                }
                for (Simulation m : members) {
                    m.reportDue();
                }
                now = next;
            }
        } catch (IOException e) {
            flushAll(members, e);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            flushAll(members, e);
            throw e;
        }
    }

    private static void advanceDevice(List<Simulation> members, DeviceDynamics device, int chunk) {
        try {
            device.advance(chunk);
        } catch (DeviceBlowUpException e) {
            Simulation m = members.get(e.replica());
            throw SimulationBlowUpException.fromDevice(e, m.atoms().element(e.atom()), m.integrator().timestepFs(),
                    device.platformName(), members.size());
        }
        for (Simulation m : members) {
            m.deviceAdvanced(chunk);
        }
        for (Simulation m : members) {
            m.pullIfDue();
        }
    }

    private static void advanceHost(List<Simulation> members, ExecutorService pool, int chunk) {
        if (pool == null || members.size() == 1) {
            for (Simulation m : members) {
                for (int k = 0; k < chunk; k++) {
                    m.hostStep();
                }
            }
            return;
        }
        List<Future<?>> done = new ArrayList<>(members.size());
        for (Simulation m : members) {
            done.add(pool.submit(() -> {
                for (int k = 0; k < chunk; k++) {
                    m.hostStep();
                }
            }));
        }
        RuntimeException first = null;
        for (Future<?> f : done) {   // every member finishes its chunk; the lowest-index failure is thrown
            try {
                f.get();
            } catch (ExecutionException e) {
                RuntimeException cause = e.getCause() instanceof RuntimeException r ? r
                        : new IllegalStateException(e.getCause());
                if (first == null) {
                    first = cause;
                } else {
                    first.addSuppressed(cause);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while replicas were stepping", e);
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static void flushAll(List<Simulation> members, Exception cause) {
        for (Simulation m : members) {
            m.flushQuietly(cause);
        }
    }
}
