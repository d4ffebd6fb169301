package org.molten.forcefield.teacher;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads libxtb through JNA, never throwing: the binding, or the one reason it could not be had. Tried once per
 * library name; the system property {@value #LIBRARY_PROPERTY} overrides the name (a soname or a path), so a test
 * can simulate a missing library without uninstalling it.
 */
final class XtbLoader {
    /** System property naming the library to load; default {@value #DEFAULT_LIBRARY}. */
    static final String LIBRARY_PROPERTY = "molten.xtb.library";
    /** The soname of xtb 6.x's shared library (Debian package libxtb6). */
    static final String DEFAULT_LIBRARY = "libxtb.so.6";
    /** What a user reads when the library is missing. */
    static final String MISSING = DEFAULT_LIBRARY + " not found: install libxtb6 (apt-get install libxtb6)";

    private static final Map<String, XtbLoader> CACHE = new ConcurrentHashMap<>();

    /** The binding, or null when {@link #unavailableReason} is set. */
    final XtbLibrary api;
    /** GNU OpenMP of the process, or null where libxtb was built without it. */
    final XtbLibrary.OpenMp openMp;
    /** The library's version, e.g. "6.5.1". */
    final String version;
    /** "" when loaded, else why not. */
    final String unavailableReason;

    private XtbLoader(XtbLibrary api, XtbLibrary.OpenMp openMp, String version, String unavailableReason) {
        this.api = api;
        this.openMp = openMp;
        this.version = version;
        this.unavailableReason = unavailableReason;
    }

    /** The library named by {@value #LIBRARY_PROPERTY} (or the default), loaded once per name. */
    static XtbLoader load() {
        String name = System.getProperty(LIBRARY_PROPERTY, DEFAULT_LIBRARY);
        return CACHE.computeIfAbsent(name.isBlank() ? DEFAULT_LIBRARY : name, XtbLoader::tryLoad);
    }

    private static XtbLoader tryLoad(String name) {
        try {
            XtbLibrary api = Native.load(name, XtbLibrary.class);
            int apiVersion = api.xtb_getAPIVersion();
            java.io.File file = NativeLibrary.getInstance(name).getFile();
            XtbLibrary.OpenMp omp;
            try {
                omp = Native.load("libgomp.so.1", XtbLibrary.OpenMp.class);
            } catch (UnsatisfiedLinkError e) {
                omp = null; // libxtb built without GNU OpenMP: it then runs as its build decided
            }
            return new XtbLoader(api, omp, versionOf(file == null ? null : file.toPath(), apiVersion), "");
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            String why = DEFAULT_LIBRARY.equals(name) ? MISSING
                    : MISSING + " (looked for " + name + ", as system property " + LIBRARY_PROPERTY + " says)";
            return new XtbLoader(null, null, "", why);
        }
    }

    /**
     * The version from the library's real file name ({@code libxtb.so.6.5.1} → "6.5.1"; the C API reports only its
     * own version, 1.0.0 for every xtb 6.x), else "unknown (C API n)".
     */
    private static String versionOf(Path file, int apiVersion) {
        try {
            if (file != null && Files.exists(file)) {
                Matcher m = Pattern.compile("\\.so\\.(\\d+\\.\\d+\\.\\d+)$").matcher(file.toRealPath().getFileName().toString());
                if (m.find()) {
                    return m.group(1);
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through to the API version
        }
        return "unknown (C API " + apiVersion + ")";
    }
}
