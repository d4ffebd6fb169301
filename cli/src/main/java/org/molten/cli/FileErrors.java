package org.molten.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import org.molten.structures.io.StructureFormatException;

/**
 * The JDK reports file problems tersely ({@code NoSuchFileException: missing.xyz}, an
 * {@code IOException: Is a directory} without the path). These messages name the file, what the
 * command wanted to do with it and the problem in words:
 * {@code cannot read structure file 'missing.xyz': no such file or directory}.
 */
final class FileErrors {
    private FileErrors() {}

    /**
     * An exception whose message says that {@code action} (e.g. "read structure file") failed on
     * {@code file} and why. An exception whose message already names the file (a
     * {@link StructureFormatException} names file and line) is returned as it is.
     */
    static IOException describe(String action, Path file, IOException e) {
        if (e instanceof StructureFormatException
                || !(e instanceof FileSystemException) && e.getMessage() != null && e.getMessage().contains(file.toString())) {
            return e; // already names the file
        }
        String problem;
        if (Files.isDirectory(file) && !(e instanceof FileAlreadyExistsException)) {
            problem = "is a directory, not a file";
        } else if (e instanceof FileSystemException f && f.getFile() != null && !Path.of(f.getFile()).equals(file)) {
            // the problem is another path, typically a parent directory that could not be made
            problem = e instanceof FileAlreadyExistsException && !Files.isDirectory(Path.of(f.getFile()))
                    ? "'" + f.getFile() + "' is a file, not a directory"
                    : "'" + f.getFile() + "': " + problem(e);
        } else {
            problem = problem(e);
        }
        return new IOException("cannot " + action + " '" + file + "': " + problem, e);
    }

    /**
     * A one-line message for a file problem that reached the command line without context; null
     * when {@code e} is not a file-system problem (then its own message is used).
     */
    static String message(Throwable e) {
        if (e instanceof FileSystemException f && f.getFile() != null) {
            String other = f.getOtherFile() != null ? " (and '" + f.getOtherFile() + "')" : "";
            return "cannot access '" + f.getFile() + "'" + other + ": " + problem(f);
        }
        return null;
    }

    /** The problem in words, lower case, without the path. */
    static String problem(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "already exists";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "directory not empty";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return lowerFirst(f.getReason());
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : lowerFirst(m);
    }

    private static String lowerFirst(String s) {
        return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }
}
