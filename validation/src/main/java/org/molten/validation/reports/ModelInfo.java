package org.molten.validation.reports;

import java.util.Map;

/**
 * A model as the report records it.
 *
 * @param name       the force field's name
 * @param kind       what implementation it is ("optimised student", "TorchScript baseline", ...)
 * @param precision  arithmetic precision
 * @param device     where it runs ("cpu", "cuda:0 (NVIDIA H200)")
 * @param source     the weights or model file (or "bundled")
 * @param provenance the weight file's metadata (architecture, teacher, dataset, training commit, created, ...)
 */
public record ModelInfo(String name, String kind, Precision precision, String device, String source,
                        Map<String, String> provenance) {
}
