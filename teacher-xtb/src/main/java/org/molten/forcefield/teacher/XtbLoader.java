package org.molten.forcefield.teacher;

import com.sun.jna.Function;
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
            XtbLibrary.OpenMp omp;
            try {
                omp = Native.load("libgomp.so.1", XtbLibrary.OpenMp.class);
            } catch (UnsatisfiedLinkError e) {
                omp = null; // libxtb built without GNU OpenMP: it then runs as its build decided
            }
            singleThreadedOpenBlas();
            return new XtbLoader(api, omp, versionOf(apiVersion), "");
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            String why = DEFAULT_LIBRARY.equals(name) ? MISSING
                    : MISSING + " (looked for " + name + ", as system property " + LIBRARY_PROPERTY + " says)";
            return new XtbLoader(null, null, "", why);
        }
    }

    /**
     * Sets OpenBLAS, with which libxtb does its matrix algebra, to one thread. Its own thread pool would otherwise
     * take every core for each call (unless OMP_NUM_THREADS=1 was set before start) and spin against concurrent
     * callers: measured 3x slower single points on a loaded 2-core machine. Affects only this OpenBLAS (Debian's
     * libopenblas.so.0); where libxtb uses another BLAS, nothing is done.
     */
    private static void singleThreadedOpenBlas() {
        try {
            Function f = NativeLibrary.getInstance("libopenblas.so.0").getFunction("openblas_set_num_threads");
            f.invokeVoid(new Object[]{1});
        } catch (UnsatisfiedLinkError e) {
            // libxtb is linked against another BLAS
        }
    }

    /**
     * The version from the real file name of the libxtb this process mapped ({@code libxtb.so.6.5.1} → "6.5.1"; the
     * C API reports only its own version, 1.0.0 for every xtb 6.x), else "unknown (C API n)".
     */
    private static String versionOf(int apiVersion) {
        Pattern soname = Pattern.compile("libxtb\\.so\\.(\\d+\\.\\d+\\.\\d+)$");
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                int slash = line.indexOf('/');
                if (slash >= 0 && line.contains("libxtb")) {
                    Path file = Path.of(line.substring(slash).strip());
                    Matcher m = soname.matcher((Files.exists(file) ? file.toRealPath() : file).getFileName().toString());
                    if (m.find()) {
                        return m.group(1);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc unreadable: fall through to the API version
        }
        return "unknown (C API " + apiVersion + ")";
    }
}
