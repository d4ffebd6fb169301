"""Frames of the sealed independent test set B (organic/starts.testb.xyz.gz of organic/enumerate_testset_b.py), made by
organic_data.py's own functions with test set A's protocol: the first two conformers of every molecule, GFN-FF Langevin
MD at 300 and 600 K (organic_data.gfnff_md: 200 steps to equilibrate, then 10 frames 40 steps = 20 fs apart), every
frame labelled by GFN2-xTB in-process (libxtb), the same drops (failed SCF, changed bond graph, clash, high energy,
large force). Seeds: SeedSequence([master + 1, 600000 + start, T]) (A's test tasks use master + 1 and start ids from
100,000). Output in organic-test.npz's format (z, pos, forces, energy, n_atoms, molecule, molecules, temperature), for
organic_eval.py --test, and a JSON of counts, drops and timings. B is for reporting only (organic/README.md).

    LD_LIBRARY_PATH=.../libxtb/lib OMP_NUM_THREADS=1 /usr/bin/python3 organic_testb_data.py --out /tmp/organic-testb.npz
"""
import argparse
import json
import multiprocessing as mp
import os
import time

import organic_data

FIRST_ID = 600000   # organic/enumerate_testset_b.TESTB_INDEX: B's start ids, apart from A's (100,000) and the pools'


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--starts", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "organic",
                                                     "starts.testb.xyz.gz"))
    ap.add_argument("--out", required=True, help="the npz to write; its JSON goes next to it (.json)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=20261128, help="master seed (organic_data.py's)")
    ap.add_argument("--frames", type=int, default=10, help="MD frames per start and temperature (A's --test-frames)")
    ap.add_argument("--every", type=int, default=40)
    ap.add_argument("--equil", type=int, default=200)
    ap.add_argument("--limit", type=int, default=0, help="only the first N starts (a smoke test)")
    args = ap.parse_args(argv)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    starts = [s for s in organic_data.read_starts(args.starts, "organic_testb_data.py --starts") if int(s.info.get("conformer", 0)) < 2]
    if args.limit:
        starts = starts[:args.limit]
    tasks = organic_data.tasks_for(starts, "testb", [(300, 600)], args.frames, args.every, args.equil, False,
                                   args.seed + 1, FIRST_ID)
    print(f"{len(starts)} starts -> {len(tasks)} tasks on {args.workers} workers", flush=True)
    t0 = time.time()
    results = {}
    with mp.get_context("fork").Pool(args.workers) as pool:
        for r in pool.imap_unordered(organic_data.run_task, tasks, chunksize=4):
            results[r["id"]] = r
    wall = time.time() - t0
    rows, drops, per_molecule = [], {}, {}
    md_cpu = label_cpu = 0.0
    labelled = 0
    for t in tasks:
        r = results[t["id"]]
        for k, v in r["drops"].items():
            drops[k] = drops.get(k, 0) + v
            if v:
                per_molecule.setdefault(t["name"], {}).setdefault(k, 0)
                per_molecule[t["name"]][k] += v
        md_cpu += r["md_cpu_s"]
        label_cpu += r["label_cpu_s"]
        labelled += r["labelled"]
        rows += [(t["name"], t["temperature"], t["numbers"], x, f, e) for x, f, e in r["frames"]]
    organic_data.save_npz(args.out, rows)
    stats = dict(
        teacher="GFN2-xTB (libxtb in-process), sampling GFN-FF Langevin MD (organic_data.py, test protocol)",
        starts_file=os.path.basename(args.starts), seed=args.seed + 1, first_id=FIRST_ID, temperatures_K=[300, 600],
        frames_per_task=args.frames, every_steps=args.every, equil_steps=args.equil, starts=len(starts),
        tasks=len(tasks), frames=len(rows), molecules=len({r[0] for r in rows}), atoms=int(sum(len(r[2]) for r in rows)),
        dropped=drops, dropped_by_molecule=per_molecule, labelled_frames=labelled, workers=args.workers,
        wall_s=round(wall, 1), md_cpu_s=round(md_cpu, 1), teacher_cpu_s=round(label_cpu, 1),
        teacher_frames_per_s_per_core=round(labelled / max(label_cpu, 1e-9), 1),
        cpu=os.uname().machine + f", {os.cpu_count()} cores")
    with open(os.path.splitext(args.out)[0] + ".json", "w") as f:
        json.dump(stats, f, indent=1)
    print(json.dumps({k: stats[k] for k in ("tasks", "frames", "molecules", "dropped", "wall_s", "md_cpu_s",
                                            "teacher_cpu_s", "teacher_frames_per_s_per_core")}), flush=True)


if __name__ == "__main__":
    main()
