package org.molten.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the benchmark ran on: CPU model, cores, Java. */
public final class MachineInfo {
    private MachineInfo() {}

    /** "AMD EPYC" from /proc/cpuinfo (Linux), else the os.arch property. */
    public static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        return System.getProperty("os.arch");
    }

    /** The 1, 5 and 15 minute load averages from /proc/loadavg ("3.62 4.31 5.53"), or "unknown". */
    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** Machine facts for reports. */
    public static Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cpu_model", cpuModel());
        m.put("available_processors", Integer.toString(Runtime.getRuntime().availableProcessors()));
        m.put("java", System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")");
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("max_heap_mb", Long.toString(Runtime.getRuntime().maxMemory() >> 20));
        String omp = System.getenv("OMP_NUM_THREADS");
        m.put("OMP_NUM_THREADS", omp == null ? "(unset)" : omp);
        return m;
    }
}
