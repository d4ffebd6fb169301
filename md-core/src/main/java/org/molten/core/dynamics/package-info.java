/**
 * Platforms that run whole MD steps off the host: the integrator as data ({@link
 * org.molten.core.dynamics.DynamicsSpec}), the platform service ({@link
 * org.molten.core.dynamics.DevicePlatform}) and the resident state of R replicas ({@link
 * org.molten.core.dynamics.DeviceDynamics}).
 */
package org.molten.core.dynamics;
