/**
 * Stability metrics of MD time series, each a small pure function of its inputs with its units
 * in the names: linear-fit energy drift, excursions, block-averaged standard errors, the
 * canonical-ensemble expectations for kinetic energy and temperature, structural integrity
 * against the starting bonds, trajectory RMSD and force agreement between two models.
 */
package org.molten.validation.metrics;
