package org.molten.forcefield.student;

import org.molten.core.Atoms;
import org.molten.core.Checks;
import org.molten.core.Element;
import org.molten.core.RandomStream;
import org.molten.forcefield.safetensors.Dtype;
import org.molten.forcefield.safetensors.SafetensorsFile;
import org.molten.forcefield.safetensors.SafetensorsFormatException;
import org.molten.forcefield.safetensors.Tensor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The weights and hyper-parameters of the student model, a PaiNN-style equivariant
 * message-passing network (Schütt, Unke and Gastegger, "Equivariant message passing for the
 * prediction of tensorial properties and molecular spectra", ICML 2021), exactly as specified in
 * docs/model.md: tensor names, shapes and metadata keys of the safetensors weight file.
 *
 * <p>Immutable. Matrices are row-major {@code double[]} in PyTorch's {@code nn.Linear} layout
 * {@code [out][in]}: element (o, i) of a weight with {@code in} columns is at {@code o * in + i}.
 * Accessors return copies; implementations copy what they need once at construction.
 *
 * <p>Hyper-parameters come from the file's {@code __metadata__}: {@code species} (comma-separated
 * atomic numbers in embedding-row order), {@code hidden} F, {@code layers} T, {@code n_rbf},
 * {@code cutoff} (Å), {@code gamma} (Å⁻²), {@code architecture=painn}; all other keys are
 * provenance (teacher, dataset, training_commit, created, ...) and are kept verbatim.
 */
public final class StudentWeights {
    /** Default hidden width F. */
    public static final int DEFAULT_HIDDEN = 128;
    /** Default number of interaction/update blocks T. */
    public static final int DEFAULT_LAYERS = 3;
    /** Default number of radial basis functions. */
    public static final int DEFAULT_N_RBF = 20;
    /** Default cutoff radius r_c in Å. */
    public static final double DEFAULT_CUTOFF_A = 5.0;
    /** Default radial basis width gamma in Å⁻². */
    public static final double DEFAULT_GAMMA_PER_A2 = 16.0;
    /** Default element list (H, C, N, O), in embedding-row order. */
    public static final int[] DEFAULT_SPECIES = {1, 6, 7, 8};

    /** Metadata key: architecture name, must be {@value #ARCHITECTURE}. */
    public static final String KEY_ARCHITECTURE = "architecture";
    /** Metadata key: comma-separated atomic numbers in embedding-row order. */
    public static final String KEY_SPECIES = "species";
    /** Metadata key: hidden width F. */
    public static final String KEY_HIDDEN = "hidden";
    /** Metadata key: number of blocks T. */
    public static final String KEY_LAYERS = "layers";
    /** Metadata key: number of radial basis functions. */
    public static final String KEY_N_RBF = "n_rbf";
    /** Metadata key: cutoff radius in Å. */
    public static final String KEY_CUTOFF = "cutoff";
    /** Metadata key: radial basis width in Å⁻². */
    public static final String KEY_GAMMA = "gamma";
    /** The only architecture this class describes. */
    public static final String ARCHITECTURE = "painn";
    private static final Set<String> HYPER_KEYS = Set.of(KEY_ARCHITECTURE, KEY_SPECIES, KEY_HIDDEN, KEY_LAYERS,
            KEY_N_RBF, KEY_CUTOFF, KEY_GAMMA);

    private final int[] species;
    private final int[] indexByZ;          // atomic number -> embedding row, -1 if unsupported
    private final int hidden;
    private final int layers;
    private final int nRbf;
    private final double cutoffA;
    private final double gammaPerA2;
    private final Map<String, String> metadata;     // everything, in file order
    private final Map<String, String> provenance;   // metadata minus hyper-parameters
    private final Map<String, double[]> tensors;    // spec name -> values, spec order
    private volatile String fingerprint;             // computed on first use

    private StudentWeights(int[] species, int hidden, int layers, int nRbf, double cutoffA, double gammaPerA2,
                           Map<String, String> metadata, Map<String, double[]> tensors) {
        this.species = species.clone();
        this.hidden = hidden;
        this.layers = layers;
        this.nRbf = nRbf;
        this.cutoffA = cutoffA;
        this.gammaPerA2 = gammaPerA2;
        this.indexByZ = new int[Element.values().length + 1];
        Arrays.fill(indexByZ, -1);
        for (int k = 0; k < species.length; k++) {
            indexByZ[species[k]] = k;
        }
        this.metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        Map<String, String> prov = new LinkedHashMap<>();
        metadata.forEach((k, v) -> {
            if (!HYPER_KEYS.contains(k)) {
                prov.put(k, v);
            }
        });
        this.provenance = Collections.unmodifiableMap(prov);
        this.tensors = Collections.unmodifiableMap(new LinkedHashMap<>(tensors));
    }

    // ------------------------------------------------------------------ tensor names and shapes

    /** Tensor names of the spec for {@code layers} blocks, in file order. */
    public static List<String> tensorNames(int layers) {
        List<String> names = new ArrayList<>();
        names.add("embedding.weight");
        for (int t = 0; t < layers; t++) {
            String p = "interactions." + t + ".";
            names.addAll(List.of(p + "phi.0.weight", p + "phi.0.bias", p + "phi.2.weight", p + "phi.2.bias",
                    p + "filter.weight", p + "filter.bias"));
            String u = "updates." + t + ".";
            names.addAll(List.of(u + "U.weight", u + "V.weight", u + "mlp.0.weight", u + "mlp.0.bias",
                    u + "mlp.2.weight", u + "mlp.2.bias"));
        }
        names.addAll(List.of("readout.0.weight", "readout.0.bias", "readout.2.weight", "readout.2.bias",
                "atomref", "scale"));
        return names;
    }

    /** The shape the spec requires for tensor {@code name} under these hyper-parameters. */
    static int[] expectedShape(String name, int nSpecies, int f, int nRbf) {
        int h = f / 2;
        if (name.equals("embedding.weight")) {
            return new int[]{nSpecies, f};
        }
        if (name.equals("atomref")) {
            return new int[]{nSpecies};
        }
        if (name.equals("scale")) {
            return new int[]{1};
        }
        if (name.startsWith("readout.")) {
            return switch (name) {
                case "readout.0.weight" -> new int[]{h, f};
                case "readout.0.bias" -> new int[]{h};
                case "readout.2.weight" -> new int[]{1, h};
                case "readout.2.bias" -> new int[]{1};
                default -> throw new IllegalArgumentException("not a tensor of the model: " + name);
            };
        }
        String leaf = name.substring(name.indexOf('.', name.indexOf('.') + 1) + 1); // after "interactions.t."
        return switch (leaf) {
            case "phi.0.weight", "U.weight", "V.weight" -> new int[]{f, f};
            case "phi.0.bias", "mlp.0.bias" -> new int[]{f};
            case "phi.2.weight", "mlp.2.weight" -> new int[]{3 * f, f};
            case "phi.2.bias", "filter.bias", "mlp.2.bias" -> new int[]{3 * f};
            case "filter.weight" -> new int[]{3 * f, nRbf};
            case "mlp.0.weight" -> new int[]{f, 2 * f};
            default -> throw new IllegalArgumentException("not a tensor of the model: " + name);
        };
    }

    // ------------------------------------------------------------------ loading

    /**
     * Loads weights from a safetensors file, checking the metadata and every tensor's presence and
     * exact shape.
     *
     * @throws SafetensorsFormatException naming the file and the problem (malformed file, missing
     *                                    or bad metadata, missing or unexpected tensor, wrong shape)
     * @throws IOException                if the file cannot be read
     */
    public static StudentWeights load(Path file) throws IOException {
        return of(SafetensorsFile.read(file), file.toString());
    }

    /**
     * Weights from the parsed contents of a safetensors file (for example a class-path resource
     * read with {@link SafetensorsFile#parse}); {@code file} names it in errors.
     *
     * @throws SafetensorsFormatException as {@link #load(Path)}
     */
    public static StudentWeights of(SafetensorsFile sf, String file) throws SafetensorsFormatException {
        Map<String, String> md = sf.metadata();
        String arch = requireKey(file, md, KEY_ARCHITECTURE);
        if (!ARCHITECTURE.equals(arch)) {
            throw new SafetensorsFormatException(file, "metadata architecture is '" + arch + "', expected '"
                    + ARCHITECTURE + "'");
        }
        int[] species;
        int f;
        int t;
        int nRbf;
        double rc;
        double gamma;
        try {
            species = parseSpecies(requireKey(file, md, KEY_SPECIES));
            f = parsePositiveInt(requireKey(file, md, KEY_HIDDEN), KEY_HIDDEN);
            t = parsePositiveInt(requireKey(file, md, KEY_LAYERS), KEY_LAYERS);
            nRbf = parsePositiveInt(requireKey(file, md, KEY_N_RBF), KEY_N_RBF);
            rc = parsePositiveDouble(requireKey(file, md, KEY_CUTOFF), KEY_CUTOFF);
            gamma = parsePositiveDouble(requireKey(file, md, KEY_GAMMA), KEY_GAMMA);
            checkHyper(species, f, t, nRbf, rc, gamma);
        } catch (IllegalArgumentException e) {
            throw new SafetensorsFormatException(file, "bad metadata: " + e.getMessage());
        }
        Map<String, double[]> values = new LinkedHashMap<>();
        List<String> names = tensorNames(t);
        for (String name : names) {
            Tensor tensor = sf.tensor(name);
            if (tensor == null) {
                throw new SafetensorsFormatException(file, "missing tensor '" + name + "' (model with "
                        + KEY_LAYERS + "=" + t + ", " + KEY_HIDDEN + "=" + f + ")");
            }
            int[] want = expectedShape(name, species.length, f, nRbf);
            if (!tensor.hasShape(want)) {
                throw new SafetensorsFormatException(file, "tensor '" + name + "' has shape "
                        + Arrays.toString(tensor.shape()) + ", expected " + Arrays.toString(want));
            }
            double[] v = tensor.values();
            for (int i = 0; i < v.length; i++) {
                if (!Double.isFinite(v[i])) {
                    throw new SafetensorsFormatException(file, "tensor '" + name + "' holds a non-finite value ("
                            + v[i] + ") at flat index " + i);
                }
            }
            values.put(name, v);
        }
        List<String> extra = new ArrayList<>(sf.tensors().keySet());
        extra.removeAll(names);
        if (!extra.isEmpty()) {
            throw new SafetensorsFormatException(file, "unexpected tensor(s) " + extra + " for a model with "
                    + KEY_LAYERS + "=" + t + " (wrong layers in the metadata, or not a Molten student model?)");
        }
        return new StudentWeights(species, f, t, nRbf, rc, gamma, md, values);
    }

    /**
     * Writes these weights in the spec layout (tensor order of {@link #tensorNames(int)}, all
     * metadata) in the given dtype.
     *
     * @param dtype F64 (lossless) or F32
     */
    public void save(Path file, Dtype dtype) throws IOException {
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (Map.Entry<String, double[]> e : tensors.entrySet()) {
            out.put(e.getKey(), Tensor.of(dtype, expectedShape(e.getKey(), species.length, hidden, nRbf), e.getValue()));
        }
        SafetensorsFile.of(metadata, out).write(file, dtype);
    }

    // ------------------------------------------------------------------ random weights

    /**
     * Random weights for tests and benchmarks, with scales chosen so that a molecule or a liquid at
     * the default hyper-parameters gives interaction energies of a few tenths of an eV per atom
     * around the atomic references (a few eV below zero) and forces of about 1 eV/Å rms (measured:
     * 0.7 eV/Å on 9-50 atom clusters at liquid density, 1.2 eV/Å in a periodic liquid). Linear
     * layers are drawn uniformly in ±1/√in (PyTorch's default range), the embedding from N(0, 1);
     * the filter range is doubled and the readout scale is 8 eV. Deterministic in {@code seed}.
     *
     * @param species    atomic numbers in embedding-row order (distinct, H..Kr)
     * @param hidden     F, at least 2
     * @param layers     T, at least 1
     * @param nRbf       number of radial basis functions, at least 2
     * @param cutoffA    r_c in Å
     * @param gammaPerA2 radial basis width in Å⁻²
     */
    public static StudentWeights random(long seed, int[] species, int hidden, int layers, int nRbf,
                                        double cutoffA, double gammaPerA2) {
        checkHyper(species, hidden, layers, nRbf, cutoffA, gammaPerA2);
        RandomStream rng = new RandomStream(seed);
        Map<String, double[]> values = new LinkedHashMap<>();
        for (String name : tensorNames(layers)) {
            int[] shape = expectedShape(name, species.length, hidden, nRbf);
            int n = (int) Tensor.elementCount(shape);
            double[] v = new double[n];
            if (name.equals("embedding.weight")) {
                for (int i = 0; i < n; i++) {
                    v[i] = rng.nextGaussian();
                }
            } else if (name.equals("atomref")) {
                for (int i = 0; i < n; i++) {
                    v[i] = -1.0 - 2.0 * rng.nextDouble();   // eV, a few eV below zero
                }
            } else if (name.equals("scale")) {
                v[0] = RANDOM_SCALE;
            } else {
                int fanIn = name.endsWith(".bias") ? fanInOfBias(name, hidden, nRbf) : shape[1];
                double bound = 1.0 / Math.sqrt(fanIn);
                if (name.contains(".filter.")) {
                    bound *= RANDOM_FILTER_GAIN;
                }
                for (int i = 0; i < n; i++) {
                    v[i] = bound * (2.0 * rng.nextDouble() - 1.0);
                }
            }
            values.put(name, v);
        }
        Map<String, String> md = new LinkedHashMap<>();
        md.put(KEY_ARCHITECTURE, ARCHITECTURE);
        md.put(KEY_SPECIES, joinSpecies(species));
        md.put(KEY_HIDDEN, Integer.toString(hidden));
        md.put(KEY_LAYERS, Integer.toString(layers));
        md.put(KEY_N_RBF, Integer.toString(nRbf));
        md.put(KEY_CUTOFF, Double.toString(cutoffA));
        md.put(KEY_GAMMA, Double.toString(gammaPerA2));
        md.put("teacher", "none (random weights)");
        md.put("dataset", "none");
        md.put("training_commit", "none");
        md.put("created", "random seed " + seed);
        return new StudentWeights(species, hidden, layers, nRbf, cutoffA, gammaPerA2, md, values);
    }

    /** Random weights with the default hyper-parameters and species H, C, N, O. */
    public static StudentWeights random(long seed) {
        return random(seed, DEFAULT_SPECIES, DEFAULT_HIDDEN, DEFAULT_LAYERS, DEFAULT_N_RBF, DEFAULT_CUTOFF_A,
                DEFAULT_GAMMA_PER_A2);
    }

    /** Energy scale of random weights (eV per unit readout). */
    static final double RANDOM_SCALE = 8.0;
    /** Extra factor on the random filter range (messages strong enough for O(1) eV/Å forces). */
    static final double RANDOM_FILTER_GAIN = 2.0;

    private static int fanInOfBias(String name, int f, int nRbf) {
        if (name.contains(".filter.")) {
            return nRbf;
        }
        if (name.contains(".mlp.0.")) {
            return 2 * f;
        }
        if (name.equals("readout.2.bias")) {
            return f / 2;
        }
        return f;
    }

    // ------------------------------------------------------------------ hyper-parameters

    /** Atomic numbers in embedding-row order, a copy. */
    public int[] species() {
        return species.clone();
    }

    /** Number of species (embedding rows). */
    public int speciesCount() {
        return species.length;
    }

    /** Hidden width F. */
    public int hidden() {
        return hidden;
    }

    /** Width of the readout's hidden layer, F/2 (integer division). */
    public int readoutHidden() {
        return hidden / 2;
    }

    /** Number of interaction/update blocks T. */
    public int layers() {
        return layers;
    }

    /** Number of radial basis functions. */
    public int nRbf() {
        return nRbf;
    }

    /** Cutoff radius r_c in Å. */
    public double cutoffA() {
        return cutoffA;
    }

    /** Radial basis width gamma in Å⁻². */
    public double gammaPerA2() {
        return gammaPerA2;
    }

    /** Centre of radial basis function k in Å: mu_k = r_c k / (n_rbf - 1). */
    public double rbfCentreA(int k) {
        return cutoffA * k / (nRbf - 1);
    }

    /**
     * SHA-256 (hex) over the hyper-parameters, the species and every tensor's values (as float64,
     * in spec order): two weight sets compute the same model exactly when their fingerprints agree,
     * whatever file, dtype or provenance they came from. Checkpoints record it so that a restart
     * with another model is refused.
     */
    public String fingerprint() {
        String f = fingerprint;
        if (f == null) {
            try {
                java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8 * 1024);
                StringBuilder head = new StringBuilder("painn");
                for (int z : species) {
                    head.append(',').append(z);
                }
                head.append(';').append(hidden).append(';').append(layers).append(';').append(nRbf).append(';')
                        .append(Double.toHexString(cutoffA)).append(';').append(Double.toHexString(gammaPerA2));
                md.update(head.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                for (Map.Entry<String, double[]> e : tensors.entrySet()) {
                    md.update(e.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    for (double x : e.getValue()) {
                        if (b.remaining() < 8) {
                            md.update(b.array(), 0, b.position());
                            b.clear();
                        }
                        b.putDouble(x);
                    }
                    md.update(b.array(), 0, b.position());
                    b.clear();
                }
                f = java.util.HexFormat.of().formatHex(md.digest());
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
            }
            fingerprint = f;
        }
        return f;
    }

    /** All metadata, unmodifiable, in file order. */
    public Map<String, String> metadata() {
        return metadata;
    }

    /** Provenance metadata (every key that is not a hyper-parameter), unmodifiable. */
    public Map<String, String> provenance() {
        return provenance;
    }

    /**
     * The embedding row of atomic number {@code z}.
     *
     * @throws IllegalArgumentException "element Cl (Z=17) is not supported by this model (supports H, C, N, O)"
     */
    public int speciesIndex(int z) {
        int k = z >= 0 && z < indexByZ.length ? indexByZ[z] : -1;
        if (k < 0) {
            String sym = Element.isKnown(z) ? Element.ofAtomicNumber(z).symbol() + " " : "";
            throw new IllegalArgumentException("element " + sym + "(Z=" + z + ") is not supported by this model"
                    + " (supports " + speciesSymbols() + ")");
        }
        return k;
    }

    /**
     * Embedding rows of every atom.
     *
     * @throws IllegalArgumentException naming the first atom whose element the model does not support
     */
    public int[] speciesIndices(Atoms atoms) {
        int[] out = new int[atoms.size()];
        for (int i = 0; i < out.length; i++) {
            try {
                out[i] = speciesIndex(atoms.atomicNumber(i));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("atom " + i + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    /** The supported elements as symbols, "H, C, N, O". */
    public String speciesSymbols() {
        StringJoiner j = new StringJoiner(", ");
        for (int z : species) {
            j.add(Element.ofAtomicNumber(z).symbol());
        }
        return j.toString();
    }

    // ------------------------------------------------------------------ tensors

    /** A tensor by spec name, a copy. @throws IllegalArgumentException for an unknown name */
    public double[] tensor(String name) {
        double[] v = tensors.get(name);
        if (v == null) {
            throw new IllegalArgumentException("not a tensor of this model: " + name);
        }
        return v.clone();
    }

    /** embedding.weight [n_species, F]. */
    public double[] embedding() {
        return tensor("embedding.weight");
    }

    /** interactions.t.phi.0.weight [F, F]. */
    public double[] phi0Weight(int t) {
        return tensor(block("interactions", t, "phi.0.weight"));
    }

    /** interactions.t.phi.0.bias [F]. */
    public double[] phi0Bias(int t) {
        return tensor(block("interactions", t, "phi.0.bias"));
    }

    /** interactions.t.phi.2.weight [3F, F]. */
    public double[] phi2Weight(int t) {
        return tensor(block("interactions", t, "phi.2.weight"));
    }

    /** interactions.t.phi.2.bias [3F]. */
    public double[] phi2Bias(int t) {
        return tensor(block("interactions", t, "phi.2.bias"));
    }

    /** interactions.t.filter.weight [3F, n_rbf]. */
    public double[] filterWeight(int t) {
        return tensor(block("interactions", t, "filter.weight"));
    }

    /** interactions.t.filter.bias [3F]. */
    public double[] filterBias(int t) {
        return tensor(block("interactions", t, "filter.bias"));
    }

    /** updates.t.U.weight [F, F]. */
    public double[] updateU(int t) {
        return tensor(block("updates", t, "U.weight"));
    }

    /** updates.t.V.weight [F, F]. */
    public double[] updateV(int t) {
        return tensor(block("updates", t, "V.weight"));
    }

    /** updates.t.mlp.0.weight [F, 2F] (columns 0..F-1 act on s, F..2F-1 on n). */
    public double[] mlp0Weight(int t) {
        return tensor(block("updates", t, "mlp.0.weight"));
    }

    /** updates.t.mlp.0.bias [F]. */
    public double[] mlp0Bias(int t) {
        return tensor(block("updates", t, "mlp.0.bias"));
    }

    /** updates.t.mlp.2.weight [3F, F]. */
    public double[] mlp2Weight(int t) {
        return tensor(block("updates", t, "mlp.2.weight"));
    }

    /** updates.t.mlp.2.bias [3F]. */
    public double[] mlp2Bias(int t) {
        return tensor(block("updates", t, "mlp.2.bias"));
    }

    /** readout.0.weight [F/2, F]. */
    public double[] readout0Weight() {
        return tensor("readout.0.weight");
    }

    /** readout.0.bias [F/2]. */
    public double[] readout0Bias() {
        return tensor("readout.0.bias");
    }

    /** readout.2.weight [1, F/2], as F/2 values. */
    public double[] readout2Weight() {
        return tensor("readout.2.weight");
    }

    /** readout.2.bias [1]. */
    public double readout2Bias() {
        return tensors.get("readout.2.bias")[0];
    }

    /** atomref [n_species], eV per atom of each species. */
    public double[] atomref() {
        return tensor("atomref");
    }

    /** scale [1], eV per unit of readout output. */
    public double scale() {
        return tensors.get("scale")[0];
    }

    private String block(String prefix, int t, String leaf) {
        if (t < 0 || t >= layers) {
            throw new IndexOutOfBoundsException("block " + t + " of a model with " + layers + " layers");
        }
        return prefix + "." + t + "." + leaf;
    }

    /** "PaiNN F=128 T=3 n_rbf=20 r_c=5.0 Å gamma=16.0 Å^-2 (H, C, N, O)". */
    public String describe() {
        return "PaiNN F=" + hidden + " T=" + layers + " n_rbf=" + nRbf + " r_c=" + cutoffA + " Å gamma="
                + gammaPerA2 + " Å^-2 (" + speciesSymbols() + ")";
    }

    @Override
    public String toString() {
        return "StudentWeights[" + describe() + "]";
    }

    // ------------------------------------------------------------------ parsing helpers

    private static String requireKey(String file, Map<String, String> md, String key) throws SafetensorsFormatException {
        String v = md.get(key);
        if (v == null) {
            throw new SafetensorsFormatException(file, "missing metadata key '" + key + "' in "
                    + SafetensorsFile.METADATA_KEY);
        }
        return v;
    }

    private static int[] parseSpecies(String s) {
        String[] parts = s.split(",");
        int[] z = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                z[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(KEY_SPECIES + " must be comma-separated atomic numbers, got '"
                        + s + "'");
            }
        }
        return z;
    }

    private static int parsePositiveInt(String s, String key) {
        try {
            return Checks.requirePositive(Integer.parseInt(s.trim()), key);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an integer, got '" + s + "'");
        }
    }

    private static double parsePositiveDouble(String s, String key) {
        try {
            return Checks.requirePositive(Double.parseDouble(s.trim()), key);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, got '" + s + "'");
        }
    }

    private static void checkHyper(int[] species, int f, int t, int nRbf, double rc, double gamma) {
        if (species.length == 0) {
            throw new IllegalArgumentException(KEY_SPECIES + " is empty");
        }
        boolean[] seen = new boolean[Element.values().length + 1];
        for (int z : species) {
            if (!Element.isKnown(z)) {
                throw new IllegalArgumentException(KEY_SPECIES + " lists atomic number " + z + " (Molten knows Z = 1..36)");
            }
            if (seen[z]) {
                throw new IllegalArgumentException(KEY_SPECIES + " lists " + Element.ofAtomicNumber(z) + " twice");
            }
            seen[z] = true;
        }
        if (f < 2) {
            throw new IllegalArgumentException(KEY_HIDDEN + " must be at least 2: " + f);
        }
        Checks.requirePositive(t, KEY_LAYERS);
        if (nRbf < 2) {
            throw new IllegalArgumentException(KEY_N_RBF + " must be at least 2: " + nRbf);
        }
        Checks.requirePositive(rc, KEY_CUTOFF + " (Å)");
        Checks.requirePositive(gamma, KEY_GAMMA + " (Å^-2)");
    }

    private static String joinSpecies(int[] species) {
        StringJoiner j = new StringJoiner(",");
        for (int z : species) {
            j.add(Integer.toString(z));
        }
        return j.toString();
    }
}
