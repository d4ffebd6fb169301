# v4's per-frame force MAE on round 3's added alanine-dipeptide frames, grouped by start (diagnostic only)
import sys, collections, numpy as np, torch
sys.path.insert(0, '.')
import extxyz
from model import PaiNN
from train import SPECIES, load_weights
m = PaiNN(SPECIES, 128, 3, 20, 5.0, 16.0); load_weights(m, sys.argv[1]); m.eval()
rows = collections.defaultdict(list)
for split in ("train", "val"):
    for fr in extxyz.read(f"data/{sys.argv[2]}.active-r3.{split}.xyz.gz"):
        z = torch.as_tensor(np.asarray(fr.numbers)); p = torch.as_tensor(np.asarray(fr.positions), dtype=torch.float32)
        _, f = m(z, p, torch.zeros(len(z), dtype=torch.long), 1)
        rows[(fr.info["start"], fr.info["source"].split("-")[-1])].append(float(np.abs(f.detach().numpy() - fr.forces).mean()))
import itertools
for k in sorted(rows): print(k, len(rows[k]), round(float(np.mean(rows[k])), 4), round(float(np.max(rows[k])), 4))
for T in ("300K","600K","1000K"):
    v=[x for (s,t),l in rows.items() if t==T for x in l]; print(T, len(v), round(float(np.mean(v)),4), "below 0.015:", sum(x<=0.015 for x in v))
