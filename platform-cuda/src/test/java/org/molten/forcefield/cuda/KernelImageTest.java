package org.molten.forcefield.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed fatbin was built from the committed CUDA sources and holds what the docs promise: machine code for
 * sm_80, sm_86, sm_89 and sm_90 and PTX for compute_90, read from the fatbin's own image headers (no GPU or nvcc
 * needed); its kernel entries are those the host launches and those the emulator runs.
 */
class KernelImageTest {
    static final Path CUDA_DIR = Path.of("src/main/cuda");

    @Test
    void committedFatbinMatchesTheSources() throws Exception {
        assertEquals(KernelImage.sourceHash(CUDA_DIR), KernelImage.recordedSourceHash(),
                "platform-cuda/src/main/cuda changed since the fatbin was built: run scripts/build-kernels.sh and commit"
                        + " molten_kernels.fatbin and molten_kernels.manifest");
        assertEquals(KernelImage.manifest().get("fatbin-sha256"), KernelImage.sha256(KernelImage.fatbin()),
                "molten_kernels.fatbin is not the one its manifest was written for");
    }

    @Test
    void hashChangesWhenASourceChanges(@TempDir Path tmp) throws Exception {
        for (Path p : Files.list(CUDA_DIR).toList()) {
            Files.copy(p, tmp.resolve(p.getFileName()));
        }
        String before = KernelImage.sourceHash(tmp);
        Path f = tmp.resolve("molten_common.cuh");
        Files.writeString(f, Files.readString(f) + "\n// one more line\n");
        assertNotEquals(before, KernelImage.sourceHash(tmp));
    }

    @Test
    void fatbinHoldsMachineCodeForTheListedArchitecturesAndPtxForNewerOnes() {
        List<KernelImage.Image> images = KernelImage.images(KernelImage.fatbin());
        Set<String> found = new TreeSet<>();
        for (KernelImage.Image i : images) {
            found.add(i.name());
            assertTrue(i.compressed(), i.name() + " is stored uncompressed: build with --compress-mode");
        }
        assertEquals(new TreeSet<>(List.of("sm_80", "sm_86", "sm_89", "sm_90", "compute_90")), found,
                "images of molten_kernels.fatbin");
        assertEquals(images.size(), found.size(), "one image per architecture: " + images);
        // the manifest (what molten info prints) says the same
        assertEquals("sm_80 sm_86 sm_89 sm_90", KernelImage.manifest().get("sass"));
        assertEquals("compute_90", KernelImage.manifest().get("ptx"));
        assertTrue(KernelImage.hasMachineCodeFor(8, 6) && !KernelImage.hasMachineCodeFor(7, 5));
        assertTrue(KernelImage.fatbin().length < 4 << 20, "fatbin of " + KernelImage.fatbin().length + " bytes");
    }

    @Test
    void aTruncatedOrForeignImageIsRefused() {
        byte[] fat = KernelImage.fatbin();
        assertThrows(IllegalArgumentException.class, () -> KernelImage.images(java.util.Arrays.copyOf(fat, 100)));
        byte[] ptx = "// PTX\n.version 9.0\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelImage.images(ptx));
        assertTrue(e.getMessage().startsWith("not a fatbin"), e.getMessage());
    }

    @Test
    void entriesAreTheKernelsTheHostLaunchesAndTheEmulatorRuns() throws Exception {
        Set<String> entries = new TreeSet<>(KernelImage.entries());
        for (String k : new String[] {"k_integrate1", "k_cell_scan", "k_neighbours", "k_msg_fwd_m4", "k_msg_bwd_m4",
                "k_msg_fwd_r", "k_msg_fwd_r2", "k_msg_bwd_rs", "k_msg_bwd_rs2", "k_forces", "k_forces_rs", "k_energy",
                "k_thermostat", "k_drift", "k_constrain", "k_energy_rep", "k_uv_w", "k_uv_t", "k_uv_n", "k_readout_w", "k_readout_t",
                "k_readout_n", "k_readout_bwd_w", "k_readout_bwd_t", "k_readout_bwd_n", "k_small_c16", "k_small_c16_cons"}) {
            assertTrue(entries.contains(k), "fatbin lacks kernel " + k);
        }
        // every entry is compiled into the CPU emulator (fake_driver.cpp's registry), and nothing else
        String emu = Files.readString(Path.of("src/test/cuda-emu/fake_driver.cpp"));
        Matcher m = Pattern.compile("REG\\((k_\\w+),").matcher(emu);
        Set<String> registered = new TreeSet<>();
        while (m.find()) {
            registered.add(m.group(1));
        }
        assertEquals(entries, registered, "kernels of the fatbin vs the emulator's registry");
    }
}
