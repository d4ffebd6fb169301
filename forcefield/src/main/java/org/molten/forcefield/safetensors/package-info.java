/**
 * Reading and writing the safetensors format (Hugging Face, https://github.com/huggingface/safetensors):
 * an 8-byte little-endian header length, a UTF-8 JSON header mapping tensor names to
 * {@code dtype}, {@code shape} and {@code data_offsets} plus an optional string map
 * {@code __metadata__}, then the raw little-endian tensor bytes. Molten stores the student
 * model's weights this way ({@link org.molten.forcefield.student.StudentWeights}).
 *
 * <p>Values are handed to callers as {@code double[]} (row-major) whatever the stored dtype.
 * Every malformed file is refused with a {@link org.molten.forcefield.safetensors.SafetensorsFormatException}
 * naming the file and the problem.
 */
package org.molten.forcefield.safetensors;
