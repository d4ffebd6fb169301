package org.molten.forcefield.cuda;

import jcuda.Pointer;

/**
 * The arguments of a stage kernel: the parameter block ({@code struct Net}, {@link NetLayout}) followed by 32-bit
 * integers (interaction block, K splits), in the order of the kernel's signature (molten_kernels.cu).
 *
 * @param net  the parameter block's bytes
 * @param ints the integer arguments after it
 */
record KernelArgs(byte[] net, int... ints) {
    /** The arguments as JCuda's cuLaunchKernel takes them: a pointer to a pointer per argument. */
    Pointer jcuda() {
        Pointer[] p = new Pointer[1 + ints.length];
        p[0] = Pointer.to(net);
        for (int i = 0; i < ints.length; i++) {
            p[i + 1] = Pointer.to(new int[] {ints[i]});
        }
        return Pointer.to(p);
    }
}
