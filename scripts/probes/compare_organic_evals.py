"""Per-molecule comparison of organic_eval.py outputs on the same test frames (names made portable, as older files
have them): medians, 95th percentiles, shares, each run against the first molecule by molecule (how many it is better
on, its mean difference in eV/Å, the molecules it moves across 0.05), the ten worst of the first run, the older six.

    python3 scripts/probes/compare_organic_evals.py NAME=EVAL.json NAME2=EVAL2.json ...
"""
import json, re, sys
import numpy as np
def port(k): return re.sub(r"[^A-Za-z0-9.+\-@]", "_", k)
runs = [(a.split('=')[0], json.load(open(a.split('=')[1]))) for a in sys.argv[1:]]
mols = [{port(k): v['force_mae'] for k, v in r['organic_test']['molecules'].items()} for _, r in runs]
emols = [{port(k): v['energy_mae_mev_per_atom'] for k, v in r['organic_test']['molecules'].items()} for _, r in runs]
print('runs:', [n for n, _ in runs])
for T in ['300K', '600K']:
    ks = sorted(k for k in mols[0] if k.endswith(T))
    d = np.array([[m[k] for m in mols] for k in ks]); e = np.array([[m[k] for m in emols] for k in ks])
    print(T, 'median', np.median(d, 0).round(4), 'p95', np.percentile(d, 95, axis=0).round(4), 'max', d.max(0).round(3),
          '<=0.05', (d <= 0.05).mean(0).round(3), '<=0.03', (d <= 0.03).mean(0).round(3), 'E meV/atom median', np.median(e, 0).round(2))
    for j in range(1, len(runs)):   # against the first run, molecule by molecule
        cross = [f"{ks[i]} {d[i, 0]:.3f}->{d[i, j]:.3f}" for i in range(len(ks)) if (d[i, 0] <= 0.05) != (d[i, j] <= 0.05)]
        print(f'  {runs[j][0]} vs {runs[0][0]}: better on {(d[:, j] < d[:, 0]).sum()} of {len(ks)}, mean '
              f'{(d[:, j] - d[:, 0]).mean():+.4f}; across 0.05: {", ".join(cross) or "none"}')
    for i in np.argsort(-d[:, 0])[:10]:
        print(f'  {ks[i]:40s}', ' '.join(f'{x:.3f}' for x in d[i]))
six = [r.get('independent_six', {}) for _, r in runs]
for k in sorted(set.intersection(*(set(s) for s in six))):   # a run made without --independent has none
    print(f'  {k:28s}', ' '.join(f"{s[k]['force_mae']:.4f}" for s in six))
