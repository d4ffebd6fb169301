package org.molten.forcefield.cuda;

import jcuda.driver.CUdeviceptr;

/**
 * A device allocation whose raw address can be read: kernel parameter blocks carry buffer
 * addresses by value, and JCuda keeps {@code getNativePointer} protected.
 */
final class DevicePointer extends CUdeviceptr {
    /** The device address. */
    long address() {
        return getNativePointer();
    }
}
