package org.molten.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.molten.core.Units;

/**
 * {@code molten serve} as a command: the exit status and message when the driver sends EXIT, when it
 * vanishes inside a step, when none listens, and for bad options. The driver here is a loopback socket
 * speaking the protocol by hand; ServeAsePeerTest runs the real ASE.
 */
class ServeCommandTest {

    /** A loopback driver: accepts one client and runs {@code script} on the connection. */
    private interface Script {
        void run(DataInputStream in, OutputStream out) throws Exception;
    }

    private static CompletableFuture<Void> driver(ServerSocket server, Script script) {
        return CompletableFuture.runAsync(() -> {
            try (Socket s = server.accept()) {
                script.run(new DataInputStream(s.getInputStream()), s.getOutputStream());
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
    }

    private static byte[] header(String h) {
        return String.format("%-12s", h).getBytes(StandardCharsets.US_ASCII);
    }

    /** POSDATA for the built-in water (3 atoms), no cell, positions in Bohr. */
    private static byte[] waterPositions() {
        ByteBuffer b = ByteBuffer.allocate(12 + 18 * 8 + 4 + 9 * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.put(header("POSDATA"));
        for (int k = 0; k < 18; k++) {
            b.putDouble(0);
        }
        b.putInt(3);
        double[] a = {0, 0, 0.12, 0, 0.76, -0.47, 0, -0.76, -0.47};
        for (double x : a) {
            b.putDouble(x / Units.BOHR_IN_A);
        }
        return b.array();
    }

    @Test
    void aDriverThatSendsExitEndsWithStatusZeroAndOneThatVanishesInsideAStepWithOne() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + server.getLocalPort();
            CompletableFuture<Void> d = driver(server, (in, out) -> {
                out.write(waterPositions());
                out.write(header("GETFORCE"));
                out.flush();
                byte[] reply = new byte[12];
                in.readFully(reply);
                assertEquals("FORCEREADY", new String(reply, StandardCharsets.US_ASCII).trim());
                in.readFully(new byte[8 + 4 + 9 * 8 + 9 * 8]);
                int extra = Integer.reverseBytes(in.readInt());
                in.readFully(new byte[extra]);
                out.write(header("EXIT"));
                out.flush();
            });
            CliRun r = CliRun.of("serve", "--ipi", address, "--system", "water", "--device", "cpu", "--wait", "10");
            d.get(30, TimeUnit.SECONDS);
            assertEquals(0, r.status(), r.err());
            assertTrue(r.out().contains("1 force evaluations; the driver sent EXIT"), r.out());

            d = driver(server, (in, out) -> {
                out.write(waterPositions());   // then gone before GETFORCE: a killed driver
                out.flush();
            });
            r = CliRun.of("serve", "--ipi", address, "--system", "water", "--device", "cpu", "--wait", "10");
            d.get(30, TimeUnit.SECONDS);
            assertEquals(1, r.status(), r.out());
            assertTrue(r.err().contains("molten serve: the driver closed the connection in the middle of a step "
                    + "(positions received, forces not collected) after 1 evaluations"), r.err());
        }
    }

    @Test
    void noDriverListeningIsNamedAfterWait() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        CliRun r = CliRun.of("serve", "--ipi", "localhost:" + port, "--system", "water", "--device", "cpu", "--wait", "0.3");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("no i-PI driver answered at localhost:" + port + " within 0.3 s"), r.err());
        r = CliRun.of("serve", "--ipi", "unix:molten-nobody-" + ProcessHandle.current().pid(), "--system", "water",
                "--wait", "0");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("(/tmp/ipi_molten-nobody-"), r.err());
    }

    @Test
    void badOptionsAreNamed() {
        CliRun r = CliRun.of("serve", "--ipi", "localhost", "--system", "water");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("--ipi localhost: expected HOST:PORT"), r.err());
        r = CliRun.of("serve", "--ipi", "localhost:1", "--system", "water", "--virial", "exact");
        assertTrue(r.err().contains("--virial: unknown mode 'exact'; choose auto or none"), r.err());
        r = CliRun.of("serve", "--ipi", "localhost:1", "--system", "water", "--force-field", "classical",
                "--precision", "float32", "--wait", "0");
        assertTrue(r.err().contains("--precision applies to the student force field, not classical"), r.err());
        r = CliRun.of("serve", "--system", "water");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--ipi"), r.err());
    }

    @Test
    void theFirstStructureTheDriverSendsIsCheckedAgainstTheStudentsDomainOnce(@TempDir Path dir) throws Exception {
        Path acn = DomainWarningTest.acetonitrile(dir);
        double[] positions = org.molten.structures.io.StructureFiles.read(acn).positions();
        try (LoopbackDriver driver = new LoopbackDriver()) {
            CompletableFuture<Void> d = CompletableFuture.runAsync(() -> {
                try {
                    driver.accept();
                    driver.evaluate(positions);
                    driver.evaluate(positions);   // a second step: still one warning
                    driver.exit();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            CliRun r = CliRun.of("serve", "--ipi", driver.address(), "--structure", acn.toString(), "--model", "v5",
                    "--device", "cpu", "--wait", "10");
            d.get(30, TimeUnit.SECONDS);
            assertEquals(0, r.status(), r.err());
            assertEquals(1, DomainWarningTest.count(r.err(), "molten serve: warning: " + acn + " "
                    + DomainWarningTest.NITRILE_WARNING), r.err());
        }
    }
}
