/**
 * Validation of MD with the student force field: stability metrics ({@code metrics}), the
 * protocol that runs NVE and NVT with the optimised student and a baseline model from one
 * starting state ({@code runs}), pass/fail criteria and the JSON/Markdown reports
 * ({@code reports}) and the energy plots ({@code plots}). The command line is
 * {@code molten validate}, in the cli module ({@code org.molten.cli.ValidateCommand}).
 */
package org.molten.validation;
