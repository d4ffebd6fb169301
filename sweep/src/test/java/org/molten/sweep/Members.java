package org.molten.sweep;

import com.hazelcast.core.HazelcastInstance;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/** Hazelcast members for tests: loopback only, a cluster name of their own, a random port range. */
final class Members implements AutoCloseable {
    final String clusterName = "molten-sweep-test-" + UUID.randomUUID();
    final int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
    final List<HazelcastInstance> started = new ArrayList<>();

    /** A full member joining the first one (or starting the cluster). */
    HazelcastInstance member() {
        return start(false);
    }

    /** A lite member (holds no data), as a coordinator with --cluster. */
    HazelcastInstance lite() {
        return start(true);
    }

    String address() {
        return "127.0.0.1:" + port;
    }

    private HazelcastInstance start(boolean lite) {
        HazelcastInstance hz = new SweepMember(clusterName, "127.0.0.1", port, List.of(address()), lite, false).start();
        started.add(hz);
        return hz;
    }

    @Override
    public void close() {
        for (HazelcastInstance hz : started) {
            try {
                hz.getLifecycleService().terminate();
            } catch (RuntimeException e) {
                // already gone
            }
        }
    }
}
