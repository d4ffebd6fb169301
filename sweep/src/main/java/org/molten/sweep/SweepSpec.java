package org.molten.sweep;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The grid of a sweep, from {@code molten sweep}'s options or a spec file (JSON, or YAML for
 * files ending .yaml/.yml) with the same names in snake_case. Reading is strict: an unknown
 * field, a value of the wrong type (a string for a number, 1.5 for a step count) or a list
 * where one value belongs is refused with the file, line and field named. Example:
 * <pre>
 * weights: [bundled, students/run7.safetensors]
 * systems: [water, ethanol]
 * temperatures_K: [300, 600]
 * replicas: 4
 * steps: 4000
 * </pre>
 */
public final class SweepSpec {
    /** Weights files, or "bundled"; default the bundled model. */
    @JsonProperty("weights") public List<String> weights = new ArrayList<>(List.of(SweepTask.BUNDLED));
    /** Built-in systems. */
    @JsonProperty("systems") public List<String> systems = new ArrayList<>();
    /** Structure files. */
    @JsonProperty("structures") public List<String> structures = new ArrayList<>();
    /** Target temperatures, K. */
    @JsonProperty("temperatures_K") public List<Double> temperaturesK =
            new ArrayList<>(List.of(ValidationTaskExecutor.DEFAULT_TEMPERATURE_K));
    /** Seeds per (model, system, temperature): seed, seed+1, ... */
    @JsonProperty("replicas") public int replicas = 1;
    /** First seed. */
    @JsonProperty("seed") public long seed = ValidationTaskExecutor.DEFAULT_SEED;
    /** Attempts a throwing (or hanging) task gets. */
    @JsonProperty("max_attempts") public int maxAttempts = 3;
    /** Longest time (s) a member may hold a task without progress; null: {@link TaskTimeout}'s default. */
    @JsonProperty("task_timeout_s") public Double taskTimeoutS;
    /** Protocol: Langevin equilibration steps. */
    @JsonProperty("equilibration_steps") public Long equilibrationSteps;
    /** Protocol: production steps of every NVE and NVT run. */
    @JsonProperty("steps") public Long steps;
    /** Protocol: timestep, fs. */
    @JsonProperty("timestep_fs") public Double timestepFs;
    /** Protocol: steps between samples. */
    @JsonProperty("sample_interval_steps") public Integer sampleIntervalSteps;
    /** Protocol: NVT thermostat. */
    @JsonProperty("thermostat") public String thermostat;
    /** Protocol: thermostat coupling time, fs. */
    @JsonProperty("thermostat_time_fs") public Double thermostatTimeFs;
    /** Protocol: baseline model. */
    @JsonProperty("baseline") public String baseline;
    /** Protocol: device of the model under test. */
    @JsonProperty("device") public String device;
    /** Protocol: float64 or float32. */
    @JsonProperty("precision") public String precision;
    /** Protocol: the long protocol. */
    @JsonProperty("full") public boolean full;
    /** Protocol: bond constraints of every run (none, h-bonds, all-bonds; as molten validate --constraints). */
    @JsonProperty("constraints") public String constraints;
    /** Protocol: hydrogen mass repartitioning, amu (as molten validate --hydrogen-mass). */
    @JsonProperty("hydrogen_mass_amu") public Double hydrogenMassAmu;

    /** Reads a spec file, refusing unknown and malformed fields with the file, line and field named. */
    public static SweepSpec read(Path file) throws IOException {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean yaml = name.endsWith(".yaml") || name.endsWith(".yml");
        ObjectMapper m = (yaml ? JsonMapper.builder(new YAMLFactory()) : JsonMapper.builder())
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .build();
        try {
            SweepSpec s = m.readValue(Files.readString(file), SweepSpec.class);
            if (s == null) {
                throw new IllegalArgumentException("sweep spec " + file + ": the file is empty");
            }
            return s;
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("sweep spec " + file + ": no such file");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException("sweep spec " + file + ": not UTF-8 text (" + e + ")");
        } catch (UnrecognizedPropertyException e) {
            String known = e.getKnownPropertyIds() == null ? "" : e.getKnownPropertyIds().stream().map(Object::toString)
                    .sorted().collect(Collectors.joining(", "));
            throw new IllegalArgumentException("sweep spec " + file + where(e.getLocation()) + ": unknown field '"
                    + e.getPropertyName() + "'; known fields: " + known);
        } catch (JsonMappingException e) {
            throw new IllegalArgumentException("sweep spec " + file + where(e.getLocation()) + ": field '" + path(e) + "': "
                    + e.getOriginalMessage().replaceAll("\\s*\\(class [^)]*\\)", "").replaceAll("\\s+at \\[Source.*", ""));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("sweep spec " + file + where(e.getLocation()) + ": not valid "
                    + (yaml ? "YAML" : "JSON") + ": " + e.getOriginalMessage());
        }
    }

    private static String where(JsonLocation l) {
        return l == null || l.getLineNr() < 1 ? "" : ", line " + l.getLineNr();
    }

    private static String path(JsonMappingException e) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                b.append(b.length() == 0 ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.length() == 0 ? "?" : b.toString();
    }

    /** The protocol the fields describe. */
    public SweepProtocol protocol() {
        return new SweepProtocol(equilibrationSteps, steps, timestepFs, sampleIntervalSteps, thermostat, thermostatTimeFs,
                baseline, device, precision, full, constraints, hydrogenMassAmu);
    }

    /**
     * Every task of the grid, model-major, each checked by {@link ValidationTaskExecutor#check}.
     *
     * @throws IllegalArgumentException naming the field or the task that cannot run
     */
    public List<SweepTask> expand() {
        require(weights != null && !weights.isEmpty(), "weights: no model given");
        require((systems != null && !systems.isEmpty()) || (structures != null && !structures.isEmpty()),
                "systems/structures: give at least one system or structure file");
        require(temperaturesK != null && !temperaturesK.isEmpty(), "temperatures_K: no temperature given");
        require(replicas >= 1, "replicas: must be at least 1, got " + replicas);
        require(maxAttempts >= 1, "max_attempts: must be at least 1, got " + maxAttempts);
        require(taskTimeoutS == null || (taskTimeoutS > 0 && Double.isFinite(taskTimeoutS)),
                "task_timeout_s: must be a positive number of seconds, got " + taskTimeoutS);
        for (Double t : temperaturesK) {
            require(t != null && t > 0 && Double.isFinite(t), "temperatures_K: " + t + " is not a positive temperature");
        }
        SweepProtocol protocol = protocol();
        List<SweepTask> tasks = new ArrayList<>();
        for (String w : weights) {
            for (String sys : systems == null ? List.<String>of() : systems) {
                addTasks(tasks, w, sys.trim(), null, protocol);
            }
            for (String st : structures == null ? List.<String>of() : structures) {
                addTasks(tasks, w, null, st, protocol);
            }
        }
        HashSet<String> ids = new HashSet<>();
        for (SweepTask t : tasks) {
            require(ids.add(t.id()), "the grid lists one task twice: " + t.id() + " (a model, system or temperature repeated?)");
        }
        return tasks;
    }

    private void addTasks(List<SweepTask> out, String model, String system, String structure, SweepProtocol protocol) {
        for (double t : temperaturesK) {
            for (int r = 0; r < replicas; r++) {
                SweepTask task = SweepTask.of(model.trim(), system, structure, t, seed + r, r, protocol);
                ValidationTaskExecutor.check(task);
                out.add(task);
            }
        }
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
