package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Java view of the kernels' parameter block and constants is the C one: parses
 * {@code struct Net} and the #defines of molten_common.cuh.
 */
class NetLayoutTest {
    private static String header() throws Exception {
        return Files.readString(Path.of("src/main/cuda/molten_common.cuh"));
    }

    @Test
    void fieldsMatchStructNetInOrder() throws Exception {
        String h = header();
        int start = h.indexOf("struct Net {");
        int end = h.indexOf("};", start);
        String body = h.substring(start + "struct Net {".length(), end).replaceAll("//[^\n]*", "");
        List<NetLayout.Field> parsed = new ArrayList<>();
        for (String decl : body.split(";")) {
            decl = decl.trim().replaceAll("\\s+", " ");
            if (decl.isEmpty()) {
                continue;
            }
            Matcher m = Pattern.compile("^((?:const |unsigned )*(?:long long|double|float|int)\\*?) (.*)$").matcher(decl);
            assertTrue(m.matches(), "cannot parse declaration '" + decl + "'");
            String type = m.group(1);
            // every field must be 8 bytes wide: 64-bit integers, doubles or pointers
            assertTrue(type.endsWith("*") || type.contains("long long") || type.equals("double"),
                    "field of 4-byte type breaks the all-8-byte layout: " + decl);
            boolean isDouble = type.equals("double");
            for (String name : m.group(2).split(",")) {
                name = name.trim().replace("*", "");
                int count = 1;
                Matcher a = Pattern.compile("(\\w+)\\[(\\w+)( \\+ 1)?\\]").matcher(name);
                if (a.matches()) {
                    String dim = a.group(2);
                    count = dim.equals("MOLTEN_MAXT") ? NetLayout.MAXT : Integer.parseInt(dim);
                    if (a.group(3) != null) {
                        count += 1;
                    }
                    name = a.group(1);
                }
                parsed.add(new NetLayout.Field(name, count, isDouble));
            }
        }
        assertEquals(parsed, NetLayout.fields());
        assertTrue(NetLayout.size() <= 4096, "kernel parameter block of " + NetLayout.size() + " bytes exceeds 4 KiB");
    }

    @Test
    void constantsMatchTheHeader() throws Exception {
        String h = header();
        assertEquals(NetLayout.MAXT, define(h, "MOLTEN_MAXT"));
        assertEquals(DeviceSystem.THREADS, define(h, "MOLTEN_THREADS"));
        assertEquals(DeviceSystem.WARPS, define(h, "MOLTEN_WARPS"));
        assertEquals(DeviceSystem.MAXCAP, define(h, "MOLTEN_MAXCAP"));
        assertEquals(DeviceSystem.MAXKW, define(h, "MOLTEN_MAXKW"));
        assertEquals(DeviceWeights.MAXKW, define(h, "MOLTEN_MAXKW"));
        assertEquals(DeviceWeights.MAX_HIDDEN, 32 * define(h, "MOLTEN_MAXM"));
        assertEquals(DeviceSystem.MG_SMALL, define(h, "MOLTEN_MG_SMALL"));
        assertEquals(DeviceSystem.RBS, define(h, "MOLTEN_RBS"));
        assertEquals(DeviceSystem.SU_SMALL, define(h, "MOLTEN_SU_SMALL"));
        assertEquals(DeviceSystem.NFLAGS, define(h, "MOLTEN_NFLAGS"));
        assertEquals(DeviceSystem.FLAG_OVERFLOW, define(h, "MOLTEN_FLAG_OVERFLOW"));
        assertEquals(DeviceSystem.FLAG_MAXCOUNT, define(h, "MOLTEN_FLAG_MAXCOUNT"));
        assertEquals(DeviceSystem.FLAG_NONFINITE, define(h, "MOLTEN_FLAG_NONFINITE"));
        assertEquals(DeviceSystem.FLAG_BADSTEP, define(h, "MOLTEN_FLAG_BADSTEP"));
        assertEquals(DeviceSystem.FLAG_UNPAIRED, define(h, "MOLTEN_FLAG_UNPAIRED"));
    }

    /**
     * An unpaired neighbour slot (a force missing its pair's other edge) is refused by the host unless the
     * neighbour list overflowed in the same evaluation (then the capacity is grown and the work redone).
     */
    @Test
    void unpairedSlotsAreRefusedUnlessTheListOverflowed() {
        int[] flags = new int[DeviceSystem.NFLAGS];
        DeviceSystem.requirePairedSlots(flags);
        flags[DeviceSystem.FLAG_UNPAIRED] = 3;
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> DeviceSystem.requirePairedSlots(flags));
        assertTrue(e.getMessage().contains("3 neighbour slot(s)") && e.getMessage().contains("not symmetric"),
                e.getMessage());
        flags[DeviceSystem.FLAG_OVERFLOW] = 1;
        DeviceSystem.requirePairedSlots(flags);
    }

    private static int define(String h, String name) {
        Matcher m = Pattern.compile("#define " + name + " (\\d+)").matcher(h);
        assertTrue(m.find(), "no #define " + name);
        return Integer.parseInt(m.group(1));
    }

    @Test
    void builderWritesLittleEndianAtTheFieldOffset() {
        NetLayout.Builder b = new NetLayout.Builder();
        b.set("cap", 0x0102030405060708L).set("h", 4, 2.5);
        byte[] bytes = b.bytes();
        int capOffset = 8;  // second field
        assertEquals(0x08, bytes[capOffset]);
        assertEquals(0x01, bytes[capOffset + 7]);
        int hOffset = 0;
        for (NetLayout.Field f : NetLayout.fields()) {
            if (f.name().equals("h")) {
                break;
            }
            hOffset += 8 * f.count();
        }
        long bits = 0;
        for (int i = 7; i >= 0; i--) {
            bits = (bits << 8) | (bytes[hOffset + 32 + i] & 0xff);
        }
        assertEquals(2.5, Double.longBitsToDouble(bits));
    }
}
