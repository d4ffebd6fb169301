package org.molten.validation.runs;

import org.molten.core.Atoms;
import org.molten.structures.BuiltInMolecules;
import org.molten.structures.WaterBox;

/** The starting structures of the validation systems (org.molten.structures). */
public final class SystemCatalog {
    /** Name of the periodic water box. */
    public static final String WATER_BOX = "water-box";
    /**
     * Molecules in the periodic water box: 64 waters (192 atoms) at 1 g/cm³ give a 12.4 Å cube,
     * wide enough for the student's 5 Å cutoff under the minimum-image convention.
     */
    public static final int WATER_BOX_MOLECULES = 64;

    private SystemCatalog() {}

    /**
     * The canonical name of a system: {@value #WATER_BOX} or a built-in molecule name or alias
     * (org.molten.structures.BuiltInMolecules: "ala2", "h2o", "alanine_dipeptide", ...).
     *
     * @throws IllegalArgumentException for an unknown name, listing the known ones
     */
    public static String canonicalName(String name) {
        String key = name.trim().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        if (key.equals(WATER_BOX) || key.equals("waterbox")) {
            return WATER_BOX;
        }
        try {
            return BuiltInMolecules.canonicalName(key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown system '" + name + "'; choose from "
                    + String.join(", ", BuiltInMolecules.names()) + ", " + WATER_BOX + " (periodic, "
                    + WATER_BOX_MOLECULES + " waters)");
        }
    }

    /** True for the systems in a periodic cell. */
    public static boolean isPeriodic(String name) {
        return WATER_BOX.equals(name);
    }

    /**
     * The starting structure of {@code name}: a built-in molecule at its GFN2-xTB minimum, or the
     * water box built with {@code seed} (molecule orientations).
     */
    public static Atoms load(String name, long seed) {
        if (WATER_BOX.equals(name)) {
            return WaterBox.build(WATER_BOX_MOLECULES, seed);
        }
        return BuiltInMolecules.load(name);
    }
}
