#!/usr/bin/env python3
"""Inputs and float64 reference for scripts/probes/group_force_probe.cu (issue 29 section 3), and the check of its output.

  OMP_NUM_THREADS=1 /usr/bin/python3 scripts/probes/group_force_probe.py write DIR R_ETH R_DIP [REF_ETH REF_DIP]
      DIR/weights.bin            the student model, float32, in the order of write_weights() below
      DIR/{eth,dip}_pos.bin      R replicas: start structure + seeded Gaussian displacements (sigma 0.05 Å, seed 29)
      DIR/{eth,dip}_ref.bin      float64 PyTorch reference (model.double()) of the first REF_* replicas (default: all)
  OMP_NUM_THREADS=1 /usr/bin/python3 scripts/probes/group_force_probe.py check REF.bin OUT.bin
      prints max |dE| (eV) and max |dF| (eV/Å) of the probe's output against the reference

File formats (little-endian):
  pos.bin : int32 R, int32 N, int32 species index [N] (row of the embedding), float32 positions [R][N][3] Å
  ref.bin : int32 R_ref, int32 N, float64 energies [R_ref] eV, float64 forces [R_ref][N][3] eV/Å
  out.bin : int32 R, int32 N, float64 energies [R] eV, float32 forces [R][N][3] eV/Å   (written by the probe)
  weights.bin: int32 [8] = {0x50464747 'GGFP', F, T, n_rbf, n_species, number of floats that follow, 0, 0}, then
    float32: cutoff, gamma, scale, 0 | embedding [S][F] | atomref [S] padded to a multiple of 4 |
    per layer t: phi0T [F][F], phi0 [F][F], b_phi0 [F], phi2T [F][3F], phi2 [3F][F], b_phi2 [3F],
                 filter [3F][n_rbf], b_filter [3F], UVT [F][2F] (columns: U then V, transposed), UV [2F][F] (U rows
                 then V rows), mlp0T [2F][F], mlp0 [F][2F], b_mlp0 [F], mlp2T [F][3F], mlp2 [3F][F], b_mlp2 [3F] |
    readout: W5T [F][F/2], W5 [F/2][F], b5 [F/2], W6 [F/2], b6, 0, 0, 0
  ("xT" = the PyTorch weight transposed, [in][out]: forward products read it; "x" = PyTorch's [out][in]: backward.)
"""
import os
import struct
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TRAIN = os.path.join(HERE, "..", "..", "forcefield", "training")
sys.path.insert(0, TRAIN)
WEIGHTS = os.path.join(HERE, "..", "..", "forcefield", "src", "main", "resources", "org", "molten", "forcefield",
                       "student", "student-gfn2.safetensors")
TESTSET = os.path.join(TRAIN, "testset-independent")
SPECIES = [1, 6, 7, 8]
SIGMA, SEED = 0.05, 29


def model_double():
    import torch
    from model import PaiNN
    import train
    m = PaiNN(SPECIES, hidden=128, layers=3, n_rbf=20, cutoff=5.0, gamma=16.0)
    train.load_weights(m, WEIGHTS)
    return m.double().eval()


def write_weights(path):
    from safetensors_io import read
    w, meta = read(WEIGHTS)
    w = {k: np.asarray(v, dtype=np.float32) for k, v in w.items()}
    F = w["embedding.weight"].shape[1]
    S = w["embedding.weight"].shape[0]
    T = int(meta.get("layers", 3))
    nr = w["interactions.0.filter.weight"].shape[1]
    assert (F, S, T, nr) == (128, 4, 3, 20), (F, S, T, nr)
    parts = [np.array([float(meta.get("cutoff", 5.0)), float(meta.get("gamma", 16.0)), float(w["scale"][0]), 0.0], np.float32),
             w["embedding.weight"]]
    ar = np.zeros(4 * ((S + 3) // 4), np.float32)
    ar[:S] = w["atomref"]
    parts.append(ar)
    for t in range(T):
        p, u = f"interactions.{t}.", f"updates.{t}."
        U, V = w[u + "U.weight"], w[u + "V.weight"]
        parts += [w[p + "phi.0.weight"].T, w[p + "phi.0.weight"], w[p + "phi.0.bias"],
                  w[p + "phi.2.weight"].T, w[p + "phi.2.weight"], w[p + "phi.2.bias"],
                  w[p + "filter.weight"], w[p + "filter.bias"],
                  np.concatenate([U, V], 0).T, np.concatenate([U, V], 0),
                  w[u + "mlp.0.weight"].T, w[u + "mlp.0.weight"], w[u + "mlp.0.bias"],
                  w[u + "mlp.2.weight"].T, w[u + "mlp.2.weight"], w[u + "mlp.2.bias"]]
    parts += [w["readout.0.weight"].T, w["readout.0.weight"], w["readout.0.bias"], w["readout.2.weight"].reshape(-1),
              np.array([w["readout.2.bias"][0], 0, 0, 0], np.float32)]
    body = np.concatenate([np.ascontiguousarray(x, dtype=np.float32).reshape(-1) for x in parts])
    with open(path, "wb") as fh:
        fh.write(struct.pack("<8i", 0x50464747, F, T, nr, S, body.size, 0, 0))
        fh.write(body.astype("<f4").tobytes())
    return body.size


def start_structure(name):
    from extxyz import read
    frames = read(os.path.join(TESTSET, name))
    return frames[0]


def replicas(frame, R, seed):
    rng = np.random.default_rng(seed)
    pos = frame.positions[None, :, :] + SIGMA * rng.standard_normal((R, len(frame), 3))
    return pos.astype(np.float32)


def write_pos(path, frame, pos):
    zi = np.array([SPECIES.index(int(z)) for z in frame.numbers], np.int32)
    R, N = pos.shape[0], pos.shape[1]
    with open(path, "wb") as fh:
        fh.write(struct.pack("<2i", R, N))
        fh.write(zi.astype("<i4").tobytes())
        fh.write(pos.astype("<f4").tobytes())


def reference(model, numbers, pos32, chunk=64):
    import torch
    R, N = pos32.shape[0], pos32.shape[1]
    E = np.zeros(R)
    Fo = np.zeros((R, N, 3))
    for r0 in range(0, R, chunk):
        r1 = min(R, r0 + chunk)
        n = r1 - r0
        z = torch.tensor(np.tile(numbers, n), dtype=torch.long)
        pos = torch.tensor(pos32[r0:r1].reshape(-1, 3).astype(np.float64))
        batch = torch.arange(n).repeat_interleave(N)
        e, f = model(z, pos, batch, n)
        E[r0:r1] = e.detach().numpy()
        Fo[r0:r1] = f.detach().numpy().reshape(n, N, 3)
    return E, Fo


def write_ref(path, E, Fo):
    with open(path, "wb") as fh:
        fh.write(struct.pack("<2i", E.shape[0], Fo.shape[1]))
        fh.write(E.astype("<f8").tobytes())
        fh.write(Fo.astype("<f8").tobytes())


def read_result(path, force_dtype):
    """Energies (float64) and forces of a ref.bin (float64 forces) or an out.bin (float32 forces)."""
    raw = open(path, "rb").read()
    R, N = struct.unpack("<2i", raw[:8])
    E = np.frombuffer(raw, "<f8", R, 8)
    Fo = np.frombuffer(raw, force_dtype, R * N * 3, 8 + 8 * R).reshape(R, N, 3)
    return E, Fo


def check(ref, out):
    Er, Fr = read_result(ref, "<f8")
    Eo, Fo = read_result(out, "<f4")
    n = min(len(Er), len(Eo))
    de = np.abs(Eo[:n] - Er[:n])
    df = np.abs(Fo[:n].astype(np.float64) - Fr[:n])
    print(f"{os.path.basename(out)}: {n} replicas compared, N={Fr.shape[1]}: max |dE| {de.max():.3e} eV, "
          f"max |dF| {df.max():.3e} eV/A (max |F| {np.abs(Fr[:n]).max():.2f}), E[0] probe {Eo[0]:.6f} ref {Er[0]:.6f}")
    return de.max(), df.max()


def main():
    import torch
    torch.set_num_threads(1)
    if sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3])
        return
    assert sys.argv[1] == "write"
    d = sys.argv[2]
    R_eth, R_dip = int(sys.argv[3]), int(sys.argv[4])
    ref_eth = int(sys.argv[5]) if len(sys.argv) > 5 else R_eth
    ref_dip = int(sys.argv[6]) if len(sys.argv) > 6 else R_dip
    os.makedirs(d, exist_ok=True)
    nf = write_weights(os.path.join(d, "weights.bin"))
    print(f"weights.bin: {nf} floats")
    model = model_double()
    for tag, name, R, nref in (("eth", "ethanol_gauche_300K.xyz.gz", R_eth, ref_eth),
                               ("dip", "alanine-dipeptide_c7eq_300K.xyz.gz", R_dip, ref_dip)):
        fr = start_structure(name)
        pos = replicas(fr, R, SEED)
        write_pos(os.path.join(d, f"{tag}_pos.bin"), fr, pos)
        E, Fo = reference(model, fr.numbers, pos[:nref])
        write_ref(os.path.join(d, f"{tag}_ref.bin"), E, Fo)
        print(f"{tag}: {name} N={len(fr)} R={R}, reference for {nref} replicas, E[0] = {E[0]:.6f} eV, "
              f"max |F| {np.abs(Fo).max():.3f} eV/A")


if __name__ == "__main__":
    main()
