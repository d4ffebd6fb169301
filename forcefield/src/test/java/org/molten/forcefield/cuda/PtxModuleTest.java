package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The committed PTX was generated from the committed CUDA sources (no GPU or nvcc needed). */
class PtxModuleTest {
    static final Path CUDA_DIR = Path.of("src/main/cuda");

    @Test
    void committedPtxMatchesTheSources() throws Exception {
        String recorded = PtxModule.recordedSourceHash();
        String actual = PtxModule.sourceHash(CUDA_DIR);
        assertEquals(actual, recorded, "forcefield/src/main/cuda changed since the PTX was generated: "
                + "run scripts/build-ptx.sh and commit the new PTX");
    }

    @Test
    void hashChangesWhenASourceChanges(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        for (Path p : Files.list(CUDA_DIR).toList()) {
            Files.copy(p, tmp.resolve(p.getFileName()));
        }
        String before = PtxModule.sourceHash(tmp);
        Path f = tmp.resolve("molten_common.cuh");
        Files.writeString(f, Files.readString(f) + "\n// one more line\n");
        assertNotEquals(before, PtxModule.sourceHash(tmp));
    }

    @Test
    void ptxTargetsHopperAndHasEveryKernelTheHostLaunches() {
        String ptx = PtxModule.text();
        assertTrue(ptx.contains(".target sm_90"), "PTX must be built with -arch=sm_90");
        for (String k : new String[] {"k_integrate1", "k_cell_scan", "k_neighbours", "k_msg_fwd_m1", "k_msg_fwd_m4",
                "k_msg_bwd_m1", "k_msg_bwd_m4", "k_forces", "k_energy", "k_uv_w", "k_uv_t", "k_mlp0_w", "k_mlp2_t",
                "k_phi1_w", "k_phi2_t", "k_ub1_w", "k_ub2_t", "k_ub3_w", "k_pb1_t", "k_pb2_w", "k_readout_w",
                "k_readout_bwd_t", "k_mega_c16", "k_mega_c8", "k_mega_grid"}) {
            assertTrue(ptx.contains(".entry " + k + "("), "PTX lacks kernel " + k);
        }
    }
}
