package org.molten.cli.ipi;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The i-PI socket protocol's byte layout, both directions: 12-byte space-padded ASCII headers, then
 * raw little-endian int32 and float64 arrays (the layout of i-PI's {@code ipi/interfaces/sockets.py},
 * ASE's {@code ase/calculators/socketio.py} and i-PI's Fortran driver; all run on little-endian machines).
 * Values are passed through in the protocol's atomic units (Bohr, Hartree); {@link IpiClient} converts.
 * Reads block; an end of stream becomes {@link EOFException}, with {@link #bytesOfPartialRead()} telling
 * whether it came between messages or inside one.
 */
public final class IpiWire {
    /** Bytes of every header ("STATUS", "POSDATA", ... padded with spaces). */
    public static final int HEADER_BYTES = 12;

    private final InputStream in;
    private final OutputStream out;
    private final byte[] header = new byte[HEADER_BYTES];
    private int partial;

    /**
     * Over a connected socket, buffered both ways. On TCP under Linux the delayed acknowledgement is switched off
     * before every read (TCP_QUICKACK, which the kernel resets): drivers that send a message in several small
     * writes without TCP_NODELAY (ASE's server does) would otherwise wait for Molten's delayed ACK, ~40 ms per step.
     */
    public static IpiWire over(java.nio.channels.SocketChannel channel) {
        boolean quickAck;
        try {
            quickAck = channel.supportedOptions().contains(jdk.net.ExtendedSocketOptions.TCP_QUICKACK);
        } catch (LinkageError e) {
            quickAck = false;   // a JDK without jdk.net
        }
        InputStream raw = java.nio.channels.Channels.newInputStream(channel);
        if (quickAck) {
            InputStream plain = raw;
            raw = new java.io.FilterInputStream(plain) {
                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    channel.setOption(jdk.net.ExtendedSocketOptions.TCP_QUICKACK, true);
                    return plain.read(b, off, len);
                }
            };
        }
        return new IpiWire(new java.io.BufferedInputStream(raw, 1 << 16),
                new java.io.BufferedOutputStream(java.nio.channels.Channels.newOutputStream(channel), 1 << 16));
    }

    /** Over a connected socket's streams; {@code out} should be buffered ({@link #flush()} sends). */
    public IpiWire(InputStream in, OutputStream out) {
        this.in = in;
        this.out = out;
    }

    /**
     * The next header, trimmed ("POSDATA").
     *
     * @throws EOFException when the peer closed the connection (before or inside the header)
     */
    public String readHeader() throws IOException {
        readFully(header, HEADER_BYTES);
        return new String(header, StandardCharsets.US_ASCII).trim();
    }

    /** Sends {@code name} padded with spaces to 12 bytes (not flushed). */
    public void writeHeader(String name) throws IOException {
        byte[] b = name.getBytes(StandardCharsets.US_ASCII);
        if (b.length > HEADER_BYTES) {
            throw new IllegalArgumentException("i-PI header longer than 12 bytes: " + name);
        }
        byte[] padded = new byte[HEADER_BYTES];
        java.util.Arrays.fill(padded, (byte) ' ');
        System.arraycopy(b, 0, padded, 0, b.length);
        out.write(padded);
    }

    /** One little-endian int32. */
    public int readInt() throws IOException {
        byte[] b = new byte[4];
        readFully(b, 4);
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    /** {@code n} little-endian float64 values. */
    public double[] readDoubles(int n) throws IOException {
        byte[] b = new byte[8 * n];
        readFully(b, b.length);
        double[] v = new double[n];
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(v);
        return v;
    }

    /** {@code n} raw bytes. */
    public byte[] readBytes(int n) throws IOException {
        byte[] b = new byte[n];
        readFully(b, n);
        return b;
    }

    /** One little-endian int32 (not flushed). */
    public void writeInt(int v) throws IOException {
        out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array());
    }

    /** Little-endian float64 values (not flushed). */
    public void writeDoubles(double... v) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        b.asDoubleBuffer().put(v);
        out.write(b.array());
    }

    /** Raw bytes (not flushed). */
    public void writeBytes(byte[] b) throws IOException {
        out.write(b);
    }

    /** Sends what was written. */
    public void flush() throws IOException {
        out.flush();
    }

    /**
     * Bytes the last read had received when the stream ended: 0 when it ended cleanly between two
     * reads, more when it ended inside a header or an array.
     */
    public int bytesOfPartialRead() {
        return partial;
    }

    private void readFully(byte[] b, int n) throws IOException {
        int got = 0;
        while (got < n) {
            int r = in.read(b, got, n - got);
            if (r < 0) {
                partial = got;
                throw new EOFException("connection closed after " + got + " of " + n + " bytes");
            }
            got += r;
        }
    }
}
