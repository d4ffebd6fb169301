package org.molten.sweep;

import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.util.List;

/**
 * How a JVM joins the sweep's Hazelcast cluster, and the member it starts. Multicast discovery
 * and phone-home are off; members find each other over TCP/IP at the addresses given only;
 * Hazelcast's own logging is off unless {@code hazelcast.logging.type} is set (it logs through
 * java.util.logging by default, chatty at INFO).
 *
 * @param clusterName  members join only a cluster of the same name (tests use a unique one each)
 * @param bindAddress  the interface to listen on and to announce ("127.0.0.1" keeps it on this machine)
 * @param port         first port to try (Hazelcast tries the next ones when it is taken)
 * @param join         addresses (HOST:PORT) of existing members to join; empty to start a new cluster
 * @param lite         a lite member holds no data (the coordinator of a sweep with {@code --cluster})
 * @param standalone   a cluster of this member alone (an embedded sweep): no joining, a quick start
 */
public record SweepMember(String clusterName, String bindAddress, int port, List<String> join, boolean lite,
                          boolean standalone) {
    /** Default cluster name. */
    public static final String DEFAULT_CLUSTER = "molten-sweep";
    /** Default first port (Hazelcast's usual one). */
    public static final int DEFAULT_PORT = 5701;

    /** Checks the fields. */
    public SweepMember {
        if (clusterName == null || clusterName.isBlank()) {
            throw new IllegalArgumentException("empty cluster name");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not between 1 and 65535");
        }
        join = List.copyOf(join);
        for (String a : join) {
            if (!a.matches("[^:\\s]+:\\d{1,5}")) {
                throw new IllegalArgumentException("'" + a + "' is not HOST:PORT");
            }
        }
    }

    /** A member of a new, single-machine cluster on loopback. */
    public static SweepMember embedded(String clusterName, int port) {
        return new SweepMember(clusterName, "127.0.0.1", port, List.of(), false, true);
    }

    /** The Hazelcast configuration this describes. */
    public Config config() {
        if (System.getProperty("hazelcast.logging.type") == null) {
            System.setProperty("hazelcast.logging.type", "none");
        }
        Config c = new Config();
        c.setClusterName(clusterName);
        c.setLiteMember(lite);
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.shutdownhook.enabled", "false");
        // Quicker detection of a member that stops answering than the 60 s default; a member that
        // closes its connections is noticed at once anyway.
        c.setProperty("hazelcast.max.no.heartbeat.seconds", "20");
        c.getJetConfig().setEnabled(false);
        NetworkConfig net = c.getNetworkConfig();
        net.setPort(port).setPortAutoIncrement(true).setPortCount(100);
        net.getInterfaces().setEnabled(true).addInterface(bindAddress);
        c.setProperty("hazelcast.socket.bind.any", "false");
        JoinConfig j = net.getJoin();
        j.getMulticastConfig().setEnabled(false);
        j.getAutoDetectionConfig().setEnabled(false);
        if (standalone) {
            // No join at all: the member starts at once instead of looking for others for seconds.
            j.getTcpIpConfig().setEnabled(false);
        } else {
            j.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(2).setMembers(join.isEmpty() ? List.of(bindAddress) : join);
            c.setProperty("hazelcast.wait.seconds.before.join", "1");
        }
        // One synchronous backup of every task record and payload: a member's death loses none. Task records are
        // kept as objects, so the board's queries (pending? done?) do not deserialize every record each time.
        c.addMapConfig(new MapConfig(TaskBoard.TASKS).setBackupCount(1).setInMemoryFormat(InMemoryFormat.OBJECT));
        c.addMapConfig(new MapConfig(TaskBoard.RESULTS).setBackupCount(1));
        return c;
    }

    /** Starts the member. */
    public HazelcastInstance start() {
        return Hazelcast.newHazelcastInstance(config());
    }
}
