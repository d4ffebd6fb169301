package org.molten.cli;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.molten.core.Units;

/**
 * A minimal i-PI driver on loopback TCP for tests of {@code molten serve}: sends positions (Å, converted to
 * Bohr; no cell), collects energy (eV) and forces (eV/Å), sends EXIT. The byte layout is ASE's.
 */
final class LoopbackDriver implements AutoCloseable {
    /** Energy (eV) and forces (eV/Å) as the client returned them. */
    record Answer(double energyEv, double[] forcesEvPerA) {
    }

    private final ServerSocket server;
    private Socket socket;
    private DataInputStream in;
    private OutputStream out;

    LoopbackDriver() throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    }

    /** What to pass to {@code molten serve --ipi}. */
    String address() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** Waits for the client. */
    void accept() throws IOException {
        socket = server.accept();
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** One step: POSDATA, GETFORCE, the answer. */
    Answer evaluate(double[] positionsA) throws IOException {
        int n = positionsA.length / 3;
        ByteBuffer b = ByteBuffer.allocate(12 + 18 * 8 + 4 + positionsA.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.put(header("POSDATA"));
        for (int k = 0; k < 18; k++) {
            b.putDouble(0);
        }
        b.putInt(n);
        for (double x : positionsA) {
            b.putDouble(x / Units.BOHR_IN_A);
        }
        out.write(b.array());
        out.write(header("GETFORCE"));
        out.flush();
        byte[] reply = new byte[12];
        in.readFully(reply);
        if (!"FORCEREADY".equals(new String(reply, StandardCharsets.US_ASCII).trim())) {
            throw new IOException("expected FORCEREADY, got " + new String(reply, StandardCharsets.US_ASCII));
        }
        double e = doubles(1)[0] * Units.HARTREE_IN_EV;
        int nat = ints(1)[0];
        double[] f = doubles(3 * nat);
        for (int k = 0; k < f.length; k++) {
            f[k] *= Units.HARTREE_IN_EV / Units.BOHR_IN_A;
        }
        doubles(9);
        in.readFully(new byte[ints(1)[0]]);
        return new Answer(e, f);
    }

    /** Sends EXIT. */
    void exit() throws IOException {
        out.write(header("EXIT"));
        out.flush();
    }

    private double[] doubles(int n) throws IOException {
        byte[] raw = new byte[8 * n];
        in.readFully(raw);
        double[] v = new double[n];
        ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(v);
        return v;
    }

    private int[] ints(int n) throws IOException {
        byte[] raw = new byte[4 * n];
        in.readFully(raw);
        int[] v = new int[n];
        ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(v);
        return v;
    }

    private static byte[] header(String h) {
        return String.format("%-12s", h).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        if (socket != null) {
            socket.close();
        }
        server.close();
    }
}
