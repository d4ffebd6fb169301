package org.molten.integrators;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a file with new contents so that a crash, a full disk or a removed directory never
 * leaves it half-written: the bytes go to a temporary file in the same folder, are forced to disk,
 * renamed over the target in one step, and the folder's entry is forced too. When any step fails
 * the temporary file is removed and the previous file is left as it was.
 */
public final class AtomicFileWrite {
    private AtomicFileWrite() {}

    /**
     * Writes {@code bytes} to {@code file} atomically (its folder is created if missing).
     *
     * @throws IOException naming the file when it cannot be written; the previous file is intact
     */
    public static void write(Path file, byte[] bytes) throws IOException {
        Path target = file.toAbsolutePath().normalize();
        Path dir = target.getParent();
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            // never rename over a device or a folder (/dev/full given as a checkpoint would replace the device node)
            throw new java.nio.file.FileSystemException(target.toString(), null, "not a regular file: it cannot be replaced");
        }
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Path tmp = Files.createTempFile(dir, target.getFileName().toString() + ".", ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer b = ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            forceDirectory(dir);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Checks, before a long run, that files can be created in {@code dir} (made if missing): writes, forces and
     * removes a small temporary file there, so that an unwritable folder or a full disk is refused at once rather
     * than after hours of work.
     *
     * @param what how the folder is named in the message ("the report folder --out")
     * @throws IOException "cannot write in {what} 'dir': problem"
     */
    public static void requireWritableFolder(Path dir, String what) throws IOException {
        try {
            Files.createDirectories(dir);
            Path probe = Files.createTempFile(dir, ".molten-write-check", ".tmp");
            try (FileChannel ch = FileChannel.open(probe, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[4096]));
                ch.force(true);
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException e) {
            String problem = e instanceof java.nio.file.FileSystemException f && f.getFile() != null && !Path.of(f.getFile()).equals(dir)
                    && !f.getFile().contains(".molten-write-check") ? "'" + f.getFile() + "': " + OutputWriteException.problem(e)
                    : OutputWriteException.problem(e);
            throw new IOException("cannot write in " + what + " '" + dir + "': " + problem, e);
        }
    }

    /**
     * As {@link #write(Path, byte[])}, with an error that names the file: "cannot write {what} 'file': problem".
     */
    public static void write(Path file, byte[] bytes, String what) throws IOException {
        try {
            write(file, bytes);
        } catch (IOException e) {
            throw new IOException("cannot write " + what + " '" + file + "': " + OutputWriteException.problem(e), e);
        }
    }

    /** Forces a folder's entries to disk, so that the rename survives a power cut (best effort: not every system allows it). */
    private static void forceDirectory(Path dir) {
        if (dir == null) {
            return;
        }
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // Windows and some file systems refuse to open a folder: the rename itself is still atomic.
        }
    }
}
