package org.molten.forcefield.safetensors;

/** IEEE binary16 to binary32 conversion (Java 17 lacks {@code Float.float16ToFloat}). */
final class HalfFloats {
    private HalfFloats() {}

    /** The float value of the half-precision bit pattern {@code h} (exact: every half is a float). */
    static float halfToFloat(short h) {
        int bits = h & 0xffff;
        int sign = (bits & 0x8000) << 16;
        int exp = (bits >>> 10) & 0x1f;
        int mant = bits & 0x3ff;
        if (exp == 0x1f) {                       // inf / NaN
            return Float.intBitsToFloat(sign | 0x7f800000 | (mant << 13));
        }
        if (exp == 0) {
            if (mant == 0) {
                return Float.intBitsToFloat(sign);  // signed zero
            }
            float f = mant * 0x1p-24f;               // subnormal: mant × 2^-24
            return sign != 0 ? -f : f;
        }
        return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
    }
}
