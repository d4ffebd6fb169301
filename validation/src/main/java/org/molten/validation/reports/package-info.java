/**
 * What a validation run concludes and how it is written down: thresholds and pass/fail criteria
 * ({@link org.molten.validation.reports.Thresholds}, {@link org.molten.validation.reports.Criteria}),
 * the report model (one {@link org.molten.validation.reports.SystemReport} per system, one
 * {@link org.molten.validation.reports.RunReport} per run) and its JSON (Jackson) and Markdown
 * writers.
 */
package org.molten.validation.reports;
