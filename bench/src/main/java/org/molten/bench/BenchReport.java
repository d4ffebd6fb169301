package org.molten.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark's outputs: a Markdown table (median latency, interquartile range, calls, cost per
 * atom, speed-up over the reference at the same size, and the calling thread's CPU time with its
 * ratio) and a JSON file whose configurations name their {@code path} and carry
 * {@code median_us}, {@code cpu_median_us} and the other statistics. The CPU-time columns matter
 * on a shared machine: for a single-threaded path they are what the wall time would be without
 * the other load; for a multi-threaded path they count the calling thread only.
 */
public final class BenchReport {
    private BenchReport() {}

    /** The Markdown table of {@code results}. */
    public static String table(List<CpuBenchmark.Result> results) {
        StringBuilder sb = new StringBuilder();
        sb.append("| atoms | system | path | median [ms] | IQR [ms] | calls | µs/atom | vs reference | CPU [ms] | vs reference (CPU) |\n");
        sb.append("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (CpuBenchmark.Result r : results) {
            CpuBenchmark.Result ref = reference(results, r.atoms());
            String ratio = ref == null ? "" : String.format(Locale.ROOT, "%.1fx", ref.stats().medianUs() / r.stats().medianUs());
            String cpuRatio = ref == null ? "" : String.format(Locale.ROOT, "%.1fx", ref.cpu().medianUs() / r.cpu().medianUs());
            sb.append(String.format(Locale.ROOT, "| %d | %s | %s%s | %.3f | %.3f–%.3f | %d | %.1f | %s | %.3f | %s |%n",
                    r.atoms(), r.system(), r.path(), r.usedNd4j() ? " (nd4j)" : "",
                    r.stats().medianUs() / 1e3, r.stats().p25Us() / 1e3, r.stats().p75Us() / 1e3, r.stats().calls(),
                    r.stats().medianUs() / r.atoms(), ratio, r.cpu().medianUs() / 1e3, cpuRatio));
        }
        return sb.toString();
    }

    private static CpuBenchmark.Result reference(List<CpuBenchmark.Result> results, int atoms) {
        for (CpuBenchmark.Result r : results) {
            if (r.atoms() == atoms && r.path().equals(BenchPath.REFERENCE.id)) {
                return r;
            }
        }
        return null;
    }

    /** Writes the results and their context (machine, command, model, settings) as JSON. */
    public static void writeJson(Path file, List<CpuBenchmark.Result> results, Map<String, String> context)
            throws IOException {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = json.createObjectNode();
        root.put("benchmark", "energy+forces latency per call");
        root.put("date", Instant.now().toString());
        ObjectNode ctx = root.putObject("context");
        context.forEach(ctx::put);
        ArrayNode arr = root.putArray("configurations");
        for (CpuBenchmark.Result r : results) {
            ObjectNode o = arr.addObject();
            o.put("device", "cpu");
            o.put("atoms", r.atoms());
            o.put("system", r.system());
            o.put("path", r.path());
            o.put("median_us", r.stats().medianUs());
            o.put("p25_us", r.stats().p25Us());
            o.put("p75_us", r.stats().p75Us());
            o.put("min_us", r.stats().minUs());
            o.put("max_us", r.stats().maxUs());
            o.put("calls", r.stats().calls());
            o.put("us_per_atom", r.stats().medianUs() / r.atoms());
            o.put("cpu_median_us", r.cpu().medianUs());
            o.put("cpu_p25_us", r.cpu().p25Us());
            o.put("cpu_p75_us", r.cpu().p75Us());
            o.put("used_nd4j", r.usedNd4j());
            o.put("neighbour_list_builds", r.neighbourRebuilds());
            CpuBenchmark.Result ref = reference(results, r.atoms());
            if (ref != null) {
                o.put("speedup_vs_reference", ref.stats().medianUs() / r.stats().medianUs());
                o.put("cpu_speedup_vs_reference", ref.cpu().medianUs() / r.cpu().medianUs());
            }
        }
        Path abs = file.toAbsolutePath();
        if (abs.getParent() != null) {
            Files.createDirectories(abs.getParent());
        }
        json.writeValue(abs.toFile(), root);
    }
}
