package org.molten.forcefield.cuda;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernels' parameter block, {@code struct Net} of {@code molten_common.cuh}: every field is
 * 8 bytes wide (a 64-bit integer, a double or a device pointer), so the layout is the field
 * list in declaration order. {@code NetLayoutTest} parses the header and checks this list
 * against it. A {@link Builder} fills a block by field name; {@link Builder#bytes()} gives the
 * little-endian bytes passed by value to every kernel.
 */
final class NetLayout {
    /** Interaction blocks the GPU kernels support (MOLTEN_MAXT). */
    static final int MAXT = 4;

    /** One field: its name and element count (1, or the array length). */
    record Field(String name, int count, boolean isDouble) {
    }

    private static final List<Field> FIELDS;
    private static final Map<String, Integer> OFFSET = new LinkedHashMap<>();
    private static final int SIZE;

    static {
        List<Field> f = new ArrayList<>();
        longs(f, "n", "cap", "F", "FR", "T", "nrbf", "kw", "mg", "integrator", "search", "pbc", "ortho");
        f.add(new Field("ncell", 3, false));
        longs(f, "fp32_state");
        doubles(f, "cutoff", "gamma", "mu_step", "scale", "b6");
        f.add(new Field("h", 9, true));
        f.add(new Field("hinv", 9, true));
        doubles(f, "dt", "c1", "c2", "kT", "accel");
        longs(f, "seed", "w", "o_emb", "o_phi0", "o_atomref", "o_w5", "o_w5t", "o_b5", "o_w6");
        for (String s : new String[] {"o_w1", "o_w1t", "o_b1", "o_w2", "o_w2t", "o_b2", "o_wft", "o_bf", "o_wf4", "o_uv",
                "o_uvt", "o_w3", "o_w3t", "o_b3", "o_w4", "o_w4t", "o_b4"}) {
            f.add(new Field(s, MAXT, false));
        }
        longs(f, "pos", "vel", "inv_mass", "species", "force", "e_atom", "energy", "step", "flags",
                "nbr_count", "nbr_idx", "geo", "fc", "kidx", "rbf", "gacc", "order",
                "cell_count", "cell_start", "cell_atoms", "atom_cell", "act");
        f.add(new Field("o_s", MAXT + 1, false));
        f.add(new Field("o_v", MAXT + 1, false));
        for (String s : new String[] {"o_q", "o_phi", "o_s1", "o_v1", "o_uvv", "o_z3", "o_a"}) {
            f.add(new Field(s, MAXT, false));
        }
        longs(f, "o_z5", "o_gs", "o_gv", "o_gz3", "o_gs1", "o_gn", "o_gv1", "o_gphi", "o_gq");
        longs(f, "kpart", "kcount");
        longs(f, "replicas", "thermostat", "split_o", "com_drift", "nhc_m", "nhc_nc", "nhc_nys");
        f.add(new Field("sy_w", 7, true));
        longs(f, "rep", "rep_start", "rseed", "rpar", "rvar");
        longs(f, "cons_on");
        doubles(f, "cons_tol");
        longs(f, "cons_smem");
        longs(f, "cons_pair", "cons_len2", "cons_rpair", "cons_water", "cons_wlen", "cons_rwater", "cons_ref", "cons_vec",
                "cons_lambda", "cons_gpair", "cons_gstart");
        longs(f, "group_w", "group_ar", "group_lay", "group_ro", "group_scr", "group_n", "group_smem");
        FIELDS = Collections.unmodifiableList(f);
        int off = 0;
        for (Field x : FIELDS) {
            OFFSET.put(x.name(), off);
            off += 8 * x.count();
        }
        SIZE = off;
    }

    private NetLayout() {
    }

    private static void longs(List<Field> f, String... names) {
        for (String s : names) {
            f.add(new Field(s, 1, false));
        }
    }

    private static void doubles(List<Field> f, String... names) {
        for (String s : names) {
            f.add(new Field(s, 1, true));
        }
    }

    /** The fields in declaration order. */
    static List<Field> fields() {
        return FIELDS;
    }

    /** Size of the block in bytes (kernel parameters are limited to 4 KiB). */
    static int size() {
        return SIZE;
    }

    /** The 64-bit integer field {@code name} of a parameter block's bytes. */
    static long get(byte[] net, String name) {
        return ByteBuffer.wrap(net).order(ByteOrder.LITTLE_ENDIAN).getLong(OFFSET.get(name));
    }

    /** A parameter block under construction; unset fields are zero. */
    static final class Builder {
        private final ByteBuffer buf = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);

        private int offset(String name, int index) {
            Integer off = OFFSET.get(name);
            if (off == null) {
                throw new IllegalArgumentException("struct Net has no field " + name);
            }
            Field f = FIELDS.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
            if (index < 0 || index >= f.count()) {
                throw new IndexOutOfBoundsException(name + "[" + index + "] of " + f.count());
            }
            return off + 8 * index;
        }

        Builder set(String name, long value) {
            buf.putLong(offset(name, 0), value);
            return this;
        }

        Builder set(String name, int index, long value) {
            buf.putLong(offset(name, index), value);
            return this;
        }

        Builder set(String name, double value) {
            buf.putDouble(offset(name, 0), value);
            return this;
        }

        Builder set(String name, int index, double value) {
            buf.putDouble(offset(name, index), value);
            return this;
        }

        long getLong(String name) {
            return buf.getLong(offset(name, 0));
        }

        Builder copy() {
            Builder b = new Builder();
            b.buf.put(0, buf, 0, SIZE);
            return b;
        }

        byte[] bytes() {
            byte[] out = new byte[SIZE];
            buf.get(0, out);
            return out;
        }
    }
}
