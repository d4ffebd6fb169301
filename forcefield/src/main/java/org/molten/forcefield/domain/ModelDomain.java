package org.molten.forcefield.domain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.molten.core.Atoms;
import org.molten.core.Bonds;
import org.molten.forcefield.student.StudentWeights;

/**
 * The domain of a student model: the elements and atom environments of its training data with their counts (atoms
 * over all frames), the number of frames and the training molecules. A weight file carries it as the JSON string of
 * its {@value #METADATA_KEY} metadata entry (written by forcefield/training/domain.py and export.py; docs/model.md).
 * A file without that entry has an {@linkplain #unknown() unknown} domain: nothing can be said about a structure.
 *
 * <p>Immutable. {@link #check(Atoms)} names the atoms of a structure whose environment the training data never
 * contained.
 */
public final class ModelDomain {
    /** The weight-file metadata key. */
    public static final String METADATA_KEY = "domain";
    private static final ModelDomain UNKNOWN = new ModelDomain(false, List.of(), new TreeMap<>(), 0, 0, 0, List.of(), null,
            null, null);

    private final boolean known;
    private final List<String> elements;
    private final Map<AtomEnvironment, Long> environments;   // sorted by canonical text
    private final long frames;
    private final long atoms;
    private final int moleculeCount;
    private final List<String> molecules;
    private final Map<AtomEnvironment, Integer> typical;        // null when the entry does not say
    private final Map<EnvironmentPair, Long> pairs;             // null when the entry has none (written before pairs)
    private final String pairsSource;

    private ModelDomain(boolean known, List<String> elements, TreeMap<AtomEnvironment, Long> environments, long frames,
                        long atoms, int moleculeCount, List<String> molecules, TreeMap<AtomEnvironment, Integer> typical,
                        TreeMap<EnvironmentPair, Long> pairs, String pairsSource) {
        this.known = known;
        this.elements = List.copyOf(elements);
        this.environments = Collections.unmodifiableMap(environments);
        this.frames = frames;
        this.atoms = atoms;
        this.moleculeCount = moleculeCount;
        this.molecules = List.copyOf(molecules);
        this.typical = typical == null ? null : Collections.unmodifiableMap(typical);
        this.pairs = pairs == null ? null : Collections.unmodifiableMap(pairs);
        this.pairsSource = pairsSource;
    }

    /** The domain of a model whose weight file says nothing about its training data. */
    public static ModelDomain unknown() {
        return UNKNOWN;
    }

    /** The domain the weights carry in their metadata, or {@link #unknown()} when they carry none. */
    public static ModelDomain of(StudentWeights weights) {
        String json = weights.metadata().get(METADATA_KEY);
        return json == null ? UNKNOWN : parse(json, "the weights' " + METADATA_KEY + " metadata");
    }

    /**
     * Parses the JSON of a {@value #METADATA_KEY} entry: {@code environments} (canonical text to count) is required;
     * {@code elements}, {@code frames}, {@code atoms}, {@code molecule_count}, {@code molecules},
     * {@code typical_in_molecules} and the bonded pairs {@code pairs} (canonical pair text to count) with
     * {@code pairs_source} are read when present; without {@code pairs} no bond is checked.
     *
     * @param source names the text in errors
     * @throws IllegalArgumentException naming {@code source} and the problem
     */
    public static ModelDomain parse(String json, String source) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(source + ": not JSON: " + e.getOriginalMessage(), e);
        }
        JsonNode env = root == null ? null : root.get("environments");
        if (env == null || !env.isObject()) {
            throw new IllegalArgumentException(source + ": no \"environments\" object (canonical environment -> count)");
        }
        TreeMap<AtomEnvironment, Long> envs = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = env.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().canConvertToLong() || e.getValue().asLong() < 1) {
                throw new IllegalArgumentException(source + ": environment " + e.getKey() + " has count " + e.getValue()
                        + ", expected a positive integer");
            }
            envs.merge(AtomEnvironment.parse(e.getKey()), e.getValue().asLong(), Long::sum);
        }
        List<String> elements = new ArrayList<>();
        if (root.has("elements")) {
            root.get("elements").forEach(n -> elements.add(n.asText()));
        } else {
            envs.keySet().stream().map(AtomEnvironment::element).distinct().forEach(elements::add);
        }
        List<String> molecules = new ArrayList<>();
        if (root.has("molecules")) {
            root.get("molecules").forEach(n -> molecules.add(n.asText()));
        }
        int moleculeCount = root.has("molecule_count") ? root.get("molecule_count").asInt() : molecules.size();
        TreeMap<AtomEnvironment, Integer> typical = null;
        JsonNode typ = root.get("typical_in_molecules");
        if (typ != null && typ.isObject()) {
            typical = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = typ.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                typical.put(AtomEnvironment.parse(e.getKey()), e.getValue().asInt());
            }
        }
        TreeMap<EnvironmentPair, Long> pairs = null;
        JsonNode pr = root.get("pairs");
        if (pr != null && !pr.isNull()) {
            if (!pr.isObject()) {
                throw new IllegalArgumentException(source + ": \"pairs\" is not an object (canonical pair -> count)");
            }
            pairs = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = pr.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().canConvertToLong() || e.getValue().asLong() < 1) {
                    throw new IllegalArgumentException(source + ": pair " + e.getKey() + " has count " + e.getValue()
                            + ", expected a positive integer");
                }
                pairs.merge(EnvironmentPair.parse(e.getKey()), e.getValue().asLong(), Long::sum);
            }
        }
        String pairsSource = root.hasNonNull("pairs_source") ? root.get("pairs_source").asText() : null;
        return new ModelDomain(true, elements, envs, root.path("frames").asLong(0), root.path("atoms").asLong(0),
                moleculeCount, molecules, typical, pairs, pairsSource);
    }

    /** False for a weight file without a {@value #METADATA_KEY} entry. */
    public boolean known() {
        return known;
    }

    /** The element symbols of the training data, sorted. */
    public List<String> elements() {
        return elements;
    }

    /** Every environment of the training data with its count (atoms over all frames), sorted by canonical text. */
    public Map<AtomEnvironment, Long> environments() {
        return environments;
    }

    /** True when the training data contained this environment. */
    public boolean contains(AtomEnvironment environment) {
        return environments.containsKey(environment);
    }

    /**
     * True when the training data held this environment only in strained or colliding frames: typical (in at least
     * half of the frames) of no training molecule. False when the entry does not say ({@code typical_in_molecules}).
     */
    public boolean onlyTransient(AtomEnvironment environment) {
        return typical != null && contains(environment) && typical.getOrDefault(environment, 0) == 0;
    }

    /** The environments typical of at least one training molecule with their molecule counts; empty when not said. */
    public Map<AtomEnvironment, Integer> typical() {
        return typical == null ? Map.of() : typical;
    }

    /** True when the entry carries bonded pairs ({@code pairs}); files written before them do not, and no bond is checked. */
    public boolean hasPairs() {
        return pairs != null;
    }

    /** Every bonded pair of environments of the training data with its count, sorted; empty when the entry has none. */
    public Map<EnvironmentPair, Long> pairs() {
        return pairs == null ? Map.of() : pairs;
    }

    /** Where the pairs were read from ({@code pairs_source}: "frames", "starts", ...); null when not said. */
    public String pairsSource() {
        return pairsSource;
    }

    /** True when the training data held a bond between these two environments; true for any pair when the entry has none. */
    public boolean contains(EnvironmentPair pair) {
        return pairs == null || pairs.containsKey(pair);
    }

    /** Training frames (train and validation splits). */
    public long frames() {
        return frames;
    }

    /** Atoms summed over the training frames. */
    public long atoms() {
        return atoms;
    }

    /** Number of distinct training molecules (systems). */
    public int moleculeCount() {
        return moleculeCount;
    }

    /** The training molecules' names; empty when the file gives only their count (thousands of molecules). */
    public List<String> molecules() {
        return molecules;
    }

    /**
     * Checks a structure against this domain: the atoms whose environment (from the bonds of this geometry) the
     * training data never contained, or held only in strained frames ({@link #onlyTransient}), and, when the entry
     * has {@linkplain #hasPairs() pairs}, the bonds between two atoms not named so whose pair of environments the
     * training data never held bonded (ethylene's C=C, C(C,H,H)-C(C,H,H), against alkanes and propene: both
     * environments common, the bond never seen). A bond with a named atom is not named again. An unknown domain gives
     * a report that says so and names no atom.
     */
    public DomainReport check(Atoms structure) {
        if (!known) {
            return DomainReport.unknown(structure.size());
        }
        List<Bonds.Bond> bonds = AtomEnvironments.bonds(structure);
        List<AtomEnvironment> envs = AtomEnvironments.of(structure, bonds);
        List<DomainReport.UnseenAtom> unseen = new ArrayList<>();
        boolean[] named = new boolean[envs.size()];
        for (int i = 0; i < envs.size(); i++) {
            AtomEnvironment e = envs.get(i);
            if (!contains(e) || onlyTransient(e)) {
                unseen.add(new DomainReport.UnseenAtom(i, e, environments.getOrDefault(e, 0L)));
                named[i] = true;
            }
        }
        List<DomainReport.UnseenBond> unseenBonds = new ArrayList<>();
        if (pairs != null) {
            List<EnvironmentPair> bonded = AtomEnvironments.pairs(envs, bonds);
            for (int k = 0; k < bonds.size(); k++) {
                Bonds.Bond b = bonds.get(k);
                if (!named[b.i()] && !named[b.j()] && !contains(bonded.get(k))) {
                    unseenBonds.add(new DomainReport.UnseenBond(b.i(), b.j(), bonded.get(k)));
                }
            }
        }
        return DomainReport.of(structure.size(), unseen, unseenBonds);
    }

    /** One line: "H, C, N, O; 6 molecules, 22677 frames; 59 atom environments". */
    public String summary() {
        if (!known) {
            return "domain unknown (the weight file has no " + METADATA_KEY + " entry)";
        }
        return String.join(", ", elements) + "; " + moleculeCount + (moleculeCount == 1 ? " molecule" : " molecules")
                + (molecules.isEmpty() ? "" : " (" + String.join(", ", molecules) + ")") + ", " + frames + " frames; "
                + environments.size() + " atom environments" + (typical == null ? "" : " (" + typical.size()
                + " typical of a training molecule)") + (pairs == null ? "" : "; " + pairs.size() + " bonded pairs of environments");
    }
}
