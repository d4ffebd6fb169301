package org.molten.cli.ipi;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * Where the i-PI driver listens: {@code HOST:PORT} (TCP) or {@code unix:NAME}, the UNIX socket
 * {@code /tmp/ipi_NAME} as i-PI and ASE name it ({@code unix:/absolute/path} is taken as it is).
 *
 * @param text the address as given
 * @param socket the socket address to connect to
 */
public record IpiAddress(String text, SocketAddress socket) {

    /** The prefix i-PI and ASE put before a UNIX socket's name. */
    public static final String UNIX_SOCKET_PREFIX = "/tmp/ipi_";

    /**
     * Parses {@code HOST:PORT} or {@code unix:NAME}.
     *
     * @throws IllegalArgumentException naming the address and what is wrong with it
     */
    public static IpiAddress parse(String text) {
        String t = text.trim();
        if (t.startsWith("unix:")) {
            String name = t.substring("unix:".length());
            if (name.isEmpty()) {
                throw new IllegalArgumentException("--ipi " + text + ": no socket name after 'unix:' (e.g. unix:molten, "
                        + "the socket " + UNIX_SOCKET_PREFIX + "molten)");
            }
            Path path = name.startsWith("/") ? Path.of(name) : Path.of(UNIX_SOCKET_PREFIX + name);
            return new IpiAddress(t, UnixDomainSocketAddress.of(path));
        }
        int colon = t.lastIndexOf(':');
        if (colon <= 0 || colon == t.length() - 1) {
            throw new IllegalArgumentException("--ipi " + text + ": expected HOST:PORT (e.g. localhost:31415) or unix:NAME");
        }
        String host = t.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);   // [::1]:31415
        }
        int port;
        try {
            port = Integer.parseInt(t.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--ipi " + text + ": the port '" + t.substring(colon + 1) + "' is not a number");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("--ipi " + text + ": the port " + port + " is outside 1..65535");
        }
        return new IpiAddress(t, InetSocketAddress.createUnresolved(host, port));
    }

    /**
     * Connects, retrying every 100 ms for up to {@code waitSeconds} while nothing listens yet (the driver
     * may start after Molten).
     *
     * @throws IOException naming the address when no driver answered in time
     */
    public SocketChannel connect(double waitSeconds) throws IOException {
        long deadline = System.nanoTime() + (long) (waitSeconds * 1e9);
        while (true) {
            SocketChannel ch = socket instanceof UnixDomainSocketAddress
                    ? SocketChannel.open(StandardProtocolFamily.UNIX) : SocketChannel.open();
            try {
                SocketAddress target = socket instanceof InetSocketAddress inet && inet.isUnresolved()
                        ? new InetSocketAddress(inet.getHostString(), inet.getPort()) : socket;
                ch.connect(target);
                if (!(socket instanceof UnixDomainSocketAddress)) {
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);   // one small message per step: no Nagle delay
                }
                return ch;
            } catch (IOException e) {
                ch.close();
                if (System.nanoTime() > deadline) {
                    throw new IOException("no i-PI driver answered at " + text + describeUnix() + " within " + waitSeconds
                            + " s (" + e.getMessage() + "); start the driver first, e.g. ASE's SocketIOCalculator", e);
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for the driver at " + text, ie);
                }
            }
        }
    }

    private String describeUnix() {
        return socket instanceof UnixDomainSocketAddress u ? " (" + u.getPath() + ")" : "";
    }
}
