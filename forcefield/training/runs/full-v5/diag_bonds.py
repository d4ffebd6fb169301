# Bond graph of round 3's alanine-dipeptide frames of one start vs the shipped molecule (diagnostic only)
import sys, numpy as np
sys.path.insert(0, '.')
import extxyz, conformers, generate_data as gd
mol = gd.load_start_geometries(gd.MOLECULE_DIR)["alanine-dipeptide"]
def graph(z, p):
    nb = conformers.bonds(z, p); return sorted((i, j) for i in range(len(z)) for j in nb[i] if i < j)
ref = graph(mol.numbers, mol.positions)
for split in ("train", "val"):
    for fr in extxyz.read(f"data/alanine-dipeptide.active-r3.{split}.xyz.gz"):
        if fr.info["start"] in sys.argv[1:]:
            g = graph(fr.numbers, fr.positions)
            if g != ref:
                print(fr.info["start"], fr.info["source"], fr.info["step"], "extra", sorted(set(g) - set(ref)), "missing", sorted(set(ref) - set(g)), "E", fr.energy)
print("checked")
