package org.molten.forcefield.cuda;

/**
 * Floating-point operations of one MD step of the student as the stage kernels compute it
 * (forward, exact backward), counted from the model's shape: the multiply-adds of every dense
 * stage of {@code DeviceSystem.emitStageStep} (rows x inputs x outputs x parts) and, per directed
 * edge within the cutoff and interaction block, the filter over the radial-basis window (3F x kw,
 * forward and again backward) and the message and its gradient (about 8 x 3F). A multiply-add is
 * two FLOP. Neighbour search and integrator are left out (a few percent). For F = 128, T = 3 it
 * gives the 2.7 MFLOP per atom of docs/performance-notes.md (the dense layers: 2.72 MFLOP per atom, what
 * scripts/torch_gemm_floor.py times with cuBLAS).
 */
final class ModelFlops {
    private ModelFlops() {
    }

    /** FLOP per MD step for {@code atoms} atoms with {@code directedEdges} (i, j) pairs within the cutoff. */
    static double perStep(DeviceWeights dw, long atoms, long directedEdges) {
        long f = dw.f;
        long perAtom = 0;  // multiply-adds per atom
        for (int i = 0; i < dw.layers; i++) {
            long block = 3 * 2 * f * f + 2 * f * f + 3 * f * f;        // uv (3 rows, 2 parts), mlp0, mlp2
            block += 3 * f * f + 2 * f * f + 3 * 2 * f * f;           // ub1, ub2, ub3 (3 rows)
            if (i > 0) {
                block += f * f + 3 * f * f + 3 * f * f + f * f;       // phi1, phi2, pb1, pb2
            }
            perAtom += block;
        }
        perAtom += 2 * f * dw.fr;                                      // readout and its backward
        long perEdge = (long) dw.layers * (2 * 3 * f * dw.kw + 8 * 3 * f);
        return 2.0 * (perAtom * atoms + perEdge * directedEdges);
    }
}
