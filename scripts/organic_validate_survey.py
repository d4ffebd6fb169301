#!/usr/bin/env python3
"""Helper of scripts/organic-validate-survey.sh (issue 27): numpy and the standard library only, since the GPU
machine has neither ASE nor RDKit.

    organic_validate_survey.py split STARTS.xyz.gz DIR [--limit N] [--only NAME ...]
        one plain XYZ file per molecule (its first conformer) in DIR, and DIR/molecules.tsv
        (file stem, name, atoms), largest molecules first
    organic_validate_survey.py bonds TRAJ.xyz JSON [--rc RC] [--steps N --every K]
        the covalent-bond check of one `molten run` trajectory (the rule of md_check.py --trajectory)
    organic_validate_survey.py summary RUNS_DIR MOLECULES.tsv OUT_JSON OUT_MD [--model M] [--budget-s S] ...
        per molecule: validate's exit status, verdict, failed criteria, domain warnings and wall time; the
        stability at 300 and 600 K; the PASS share, failures by criterion and the intact shares

Bonds: d < 1.2 (r_cov,i + r_cov,j), Cordero radii (org.molten.core.Bonds, md_check.py, organic_data.py). Frames are
50 fs apart next to an X-H vibration of ~11 fs, so a bond set that differs from the start's in one frame and is back
in the next was a hot vibration beyond the 1.2x rule, not a reaction (md_check.py's rule): a molecule is intact unless
its bond set differs in two consecutive frames or in the last one, and its run reached its last step.
"""
import argparse
import json
import math
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "forcefield", "training"))
import extxyz  # noqa: E402  (numpy + stdlib: reads the starts as organic_eval.py does)

COVALENT_RADIUS_A = {1: 0.31, 6: 0.76, 7: 0.71, 8: 0.66}   # Cordero et al. 2008, as org.molten.core.Element
SYMBOL_Z = {"H": 1, "C": 6, "N": 7, "O": 8}
BOND_FACTOR = 1.2
TEMPERATURES_K = (300, 600)
EXIT_MEANING = {0: "PASS", 3: "FAIL", 4: "INCOMPLETE", 1: "bad input", 2: "usage error", 130: "interrupted",
                124: "cut by BUDGET", 137: "killed"}


def file_stem(name):
    """A molecule's name as a portable file name (organic_data.py's rule: anything but [A-Za-z0-9.+-] -> '_')."""
    return re.sub(r"[^A-Za-z0-9.+-]", "_", name)


# ---------------------------------------------------------------------------------------------------- split
def split(starts, folder, limit=None, only=None):
    """First conformer of every molecule -> FOLDER/<stem>.xyz; molecules.tsv lists them, largest first.

    The first conformer because `molten validate --structure` reads the first frame of a file and the issue's
    target is one quick validation (default seeds) per molecule; conformer 0 is also the start of organic_eval.py's
    stability protocol and of the model card's validate runs on the G2 molecules, so the figures line up."""
    os.makedirs(folder, exist_ok=True)
    first = {}
    for fr in extxyz.read(starts):
        name = fr.info["name"]
        if name not in first and str(fr.info.get("conformer", "0")) == "0":
            first[name] = fr
    mols = list(first.values())
    if only:
        wanted = set(only)
        mols = [m for m in mols if m.info["name"] in wanted or file_stem(m.info["name"]) in wanted]
    # longest tasks first (the cost grows with the atoms), ties in file order: a pool of workers ends together
    order = sorted(range(len(mols)), key=lambda k: (-len(mols[k]), k))
    if limit:
        # a subset spread over the sizes, not only the largest: every len/limit-th molecule of the file order
        step = len(mols) / limit
        keep = {int(k * step) for k in range(limit)}
        order = [k for k in order if k in keep]
    seen = set()
    with open(os.path.join(folder, "molecules.tsv"), "w") as tsv:
        for k in order:
            fr = mols[k]
            stem = file_stem(fr.info["name"])
            while stem in seen:
                stem += "_"
            seen.add(stem)
            with open(os.path.join(folder, stem + ".xyz"), "w") as f:
                f.write(f"{len(fr)}\n")
                # a plain comment (no key=value: SMILES hold '=' and '#'); the SMILES is in molecules.tsv
                f.write(f"{fr.info['name']}, conformer 0 of {os.path.basename(starts)}\n".replace("=", "-"))
                for z, (x, y, w) in zip(fr.numbers, fr.positions):
                    sym = {v: s for s, v in SYMBOL_Z.items()}[int(z)]
                    f.write(f"{sym} {x:.8f} {y:.8f} {w:.8f}\n")
            tsv.write(f"{stem}\t{fr.info['name']}\t{len(fr)}\t{fr.info.get('smiles', '')}\n")
    print(f"{len(order)} molecules (first conformer of {len(mols)}) in {folder}")


# ---------------------------------------------------------------------------------------------------- bonds
def read_positions(path):
    """Element numbers and the positions (Å) of every frame of an (extended) XYZ trajectory: columns 2-4."""
    numbers, frames = None, []
    with open(path) as f:
        while True:
            head = f.readline()
            if not head.strip():
                break
            n = int(head.split()[0])
            f.readline()
            rows = [f.readline().split() for _ in range(n)]
            if len(rows[-1]) < 4:
                break                                       # a frame cut short by an interrupted run
            if numbers is None:
                numbers = np.array([SYMBOL_Z[r[0]] for r in rows])
            frames.append(np.array([[float(v) for v in r[1:4]] for r in rows]))
    return numbers, frames


def bond_set(numbers, pos):
    r = np.array([COVALENT_RADIUS_A[int(z)] for z in numbers])
    d = np.linalg.norm(pos[:, None] - pos[None], axis=-1)
    i, j = np.nonzero(np.triu(d < BOND_FACTOR * (r[:, None] + r[None]), 1))
    return frozenset(zip(i.tolist(), j.tolist())), d


def check_bonds(path, rc=0, steps=None, every=None):
    """md_check.py's analyse_trajectory in numpy, plus the run's end: intact, first changed frame, stretch."""
    out = dict(frames=0, intact=True, topology_changed_at_frame=None, transient_frames=0, max_bond_stretch_ratio=1.0,
               run_exit=rc, change=None, non_finite=False)
    numbers, frames = read_positions(path) if os.path.exists(path) else (None, [])
    start = d0 = pairs = None
    changed_before = False
    for k, pos in enumerate(frames):
        if not np.isfinite(pos).all():
            out["non_finite"] = True
            out["intact"], out["topology_changed_at_frame"] = False, k
            break
        now, d = bond_set(numbers, pos)
        if start is None:
            start, d0, pairs = now, d, sorted(now)
        if pairs:
            a = np.array(pairs)
            out["max_bond_stretch_ratio"] = max(out["max_bond_stretch_ratio"],
                                                float((d[a[:, 0], a[:, 1]] / d0[a[:, 0], a[:, 1]]).max()))
        changed = now != start
        if changed and changed_before and out["intact"]:
            out["intact"], out["topology_changed_at_frame"] = False, k - 1
            out["change"] = dict(lost=sorted(start - now)[:5], new=sorted(now - start)[:5])
        if changed:
            out["transient_frames"] += 1
        changed_before = changed
        out["frames"] = k + 1
        out["atoms"] = len(numbers)
    if changed_before and out["intact"]:
        out["intact"], out["topology_changed_at_frame"] = False, out["frames"] - 1
    if not out["intact"]:
        out["transient_frames"] = None
    out["max_bond_stretch_ratio"] = round(out["max_bond_stretch_ratio"], 3)
    expected = None if steps is None or not every else steps // every + 1
    out["frames_expected"] = expected
    # a run that stopped early (blow-up guard, an error, BUDGET) did not show the molecule intact to the end
    out["completed"] = rc == 0 and (expected is None or out["frames"] >= expected)
    if not out["completed"]:
        out["intact"] = False
    return out


# ---------------------------------------------------------------------------------------------------- summary
def read_status(path):
    """(exit, wall s, CPU s or None) written by the shell after a task; None when the task never ran."""
    try:
        with open(path) as f:
            v = f.read().split()
        return int(v[0]), float(v[1]), (float(v[2]) if len(v) > 2 else None)
    except (OSError, ValueError, IndexError):
        return None


def criterion_id(c):
    for key in ("criterion", "id", "name"):
        v = c.get(key)
        if isinstance(v, str):
            return v
        if isinstance(v, dict):
            for k2 in ("id", "name"):
                if isinstance(v.get(k2), str):
                    return v[k2]
    return "?"


def passed(c):
    if "passed" in c:
        return bool(c["passed"])
    return str(c.get("verdict", c.get("status", ""))).upper() == "PASS"


def skipped(c):
    return bool(c.get("skipped")) or str(c.get("verdict", c.get("status", ""))).upper() in ("SKIP", "SKIPPED")


def validate_row(folder):
    """What validate's report.json says of the one system in it."""
    row = dict(verdict=None, failed=[], skipped=[], domain_unseen=[], domain_summary=None, intact_300K=None,
               teacher_force_mae=None, criteria=None, warnings=[])
    try:
        with open(os.path.join(folder, "report.json")) as f:
            rep = json.load(f)
    except (OSError, ValueError):
        return row
    row["verdict"] = rep.get("summary", {}).get("verdict")
    row["warnings"] = [w for w in rep.get("warnings", []) if "plot" not in w.lower()][:5]
    systems = rep.get("systems", [])
    crit = [c for s in systems for c in s.get("criteria", [])]
    row["criteria"] = len(crit)
    for c in crit:
        cid = criterion_id(c)
        label = f"{c.get('run', '')}/{cid}".lstrip("/")
        if skipped(c):
            row["skipped"].append(dict(criterion=cid, run=c.get("run"), detail=c.get("detail")))
        elif not passed(c):
            row["failed"].append(dict(criterion=cid, run=c.get("run"), label=label, detail=c.get("detail")))
        if "integrity" in cid or "stable" in cid or "intact" in cid:
            row["intact_300K"] = (row["intact_300K"] is not False) and passed(c) and not skipped(c)
        if cid == "teacher-force-mae" and not skipped(c):
            row["teacher_force_mae"] = c.get("value")
    dom = rep.get("domain")
    if isinstance(dom, dict):
        dom_sys = dom.get("systems", [])
        row["domain_summary"] = dom.get("summary")
    else:
        dom_sys = dom or []
    for d in dom_sys if isinstance(dom_sys, list) else []:
        for u in d.get("unseen", []) or []:
            row["domain_unseen"].append(f"{u.get('index')}:{u.get('environment')}")
        # a bond between two environments the training never held bonded (validate's DomainNote unseen_bonds): a
        # domain warning as an unseen atom environment is, named "i-j:PAIR"
        for b in d.get("unseen_bonds", []) or []:
            row["domain_unseen"].append(f"{b.get('i')}-{b.get('j')}:{b.get('pair')}")
        row["domain_summary"] = d.get("summary") if d.get("known", True) else "domain unknown"
    return row


def share(values):
    vals = [v for v in values if v is not None]
    return (sum(1 for v in vals if v) / len(vals)) if vals else None


def pct(x):
    return "—" if x is None else f"{100 * x:.1f} %"


def summary(args):
    mols = []
    with open(args.molecules) as f:
        for line in f:
            stem, name, atoms, smiles = (line.rstrip("\n").split("\t") + [""])[:4]
            mols.append(dict(stem=stem, name=name, atoms=int(atoms), smiles=smiles))
    rows = []
    for m in mols:
        d = os.path.join(args.runs, m["stem"])
        st = read_status(os.path.join(d, "validate.status"))
        row = dict(molecule=m["name"], file=m["stem"] + ".xyz", atoms=m["atoms"], smiles=m["smiles"])
        if st is None:
            row.update(validate_ran=False, validate_exit=None, validate_verdict="not run")
        else:
            rc, wall, cpu = st
            v = validate_row(os.path.join(d, "validate"))
            verdict = v["verdict"] or EXIT_MEANING.get(rc, f"exit {rc}")
            if rc == 124:   # stopped by timeout at BUDGET: the partial report's verdict says nothing of the model
                verdict = f"cut by BUDGET (partial report: {v['verdict']})"
            row.update(validate_ran=True, validate_exit=rc, validate_wall_s=round(wall, 1), validate_cpu_s=cpu,
                       validate_verdict=verdict,
                       validate_pass=rc == 0, failed_criteria=v["failed"], skipped_criteria=v["skipped"],
                       criteria=v["criteria"], domain_warnings=v["domain_unseen"], domain_summary=v["domain_summary"],
                       validate_intact_300K=v["intact_300K"], teacher_force_mae_eV_per_A=v["teacher_force_mae"],
                       report_warnings=v["warnings"])
        for t in TEMPERATURES_K:
            p = os.path.join(d, f"stability-{t}K.json")
            if os.path.exists(p):
                with open(p) as f:
                    row[f"stability_{t}K"] = json.load(f)
            else:
                stt = read_status(os.path.join(d, f"stability-{t}K.status"))
                row[f"stability_{t}K"] = None if stt is None else dict(run_exit=stt[0], intact=False, completed=False)
        rows.append(row)

    ran = [r for r in rows if r["validate_ran"] and r["validate_exit"] != 124]
    by_criterion = {}
    for r in ran:
        for c in {c["criterion"] for c in r["failed_criteria"]}:
            by_criterion[c] = by_criterion.get(c, 0) + 1
    exits = {}
    for r in rows:
        k = "not run" if not r["validate_ran"] else str(r["validate_exit"])
        exits[k] = exits.get(k, 0) + 1
    stab = {}
    for t in TEMPERATURES_K:
        key = f"stability_{t}K"
        # a run stopped by the BUDGET's timeout (exit 124) says nothing of the model: counted apart, not as broken
        cut = [r["molecule"] for r in rows if r.get(key) is not None and r[key].get("run_exit") == 124]
        res = [r for r in rows if r.get(key) is not None and r[key].get("run_exit") != 124]
        stab[f"{t}K"] = dict(run=len(res), cut_by_budget=len(cut), not_run=len(rows) - len(res) - len(cut),
                             intact=sum(1 for r in res if r[key].get("intact")),
                             share_intact=share([r[key].get("intact") for r in res]),
                             share_intact_of_all=(sum(1 for r in res if r[key].get("intact")) / len(rows)) if rows else None,
                             not_intact=[r["molecule"] for r in res if not r[key].get("intact")])
    walls = [r["validate_wall_s"] for r in rows if r.get("validate_wall_s") is not None and r["validate_exit"] != 124]
    done = [r for r in ran if r.get("validate_cpu_s")]
    stab_done = [(r["atoms"], r[f"stability_{t}K"]["cpu_s"]) for r in rows for t in TEMPERATURES_K
                 if (r.get(f"stability_{t}K") or {}).get("cpu_s") and r[f"stability_{t}K"].get("run_exit") != 124]

    def per_atom(pairs):   # CPU s per atom (least squares through 0: the cost grows about linearly with the atoms)
        a = np.array([p[0] for p in pairs], float)
        c = np.array([p[1] for p in pairs], float)
        return round(float(a @ c / (a @ a)), 3) if len(pairs) else None
    cost = dict(validate_cpu_s_total=round(sum(r["validate_cpu_s"] for r in done), 1),
                validate_cpu_s_per_atom=per_atom([(r["atoms"], r["validate_cpu_s"]) for r in done]),
                stability_cpu_s_total=round(sum(c for _, c in stab_done), 1),
                stability_cpu_s_per_atom_per_run=per_atom(stab_done),
                atoms_of_all_molecules=sum(r["atoms"] for r in rows))
    head = dict(model=args.model, device=args.device, parallel=args.parallel, threads_per_run=args.threads,
                budget_s=args.budget_s, elapsed_s=args.elapsed_s, stability_ps=args.stability_ps,
                molecules=len(rows), validate_run=len(ran),
                validate_not_run=sum(1 for r in rows if not r["validate_ran"]),
                validate_cut_by_budget=sum(1 for r in rows if r.get("validate_exit") == 124),
                validate_pass=sum(1 for r in ran if r["validate_exit"] == 0),
                pass_share_of_run=share([r["validate_exit"] == 0 for r in ran]),
                pass_share_of_all=(sum(1 for r in ran if r["validate_exit"] == 0) / len(rows)) if rows else None,
                exit_status_counts=exits, failures_by_criterion=dict(sorted(by_criterion.items(), key=lambda x: -x[1])),
                validate_intact_300K_share=share([r.get("validate_intact_300K") for r in ran]),
                domain_warned_molecules=sum(1 for r in ran if r["domain_warnings"]),
                validate_wall_s=dict(median=float(np.median(walls)) if walls else None,
                                     max=max(walls) if walls else None, total=round(sum(walls), 1)),
                stability=stab, cost=cost,
                target="issue 27: validate --structure PASS for >= 90 % of the independent molecules; every one intact "
                       "at 300 and 600 K")
    with open(args.json, "w") as f:
        json.dump(dict(summary=head, molecules=rows), f, indent=1)

    L = [f"# molten validate --structure over the independent organic molecules (issue 27)", "",
         f"Model `{args.model}`, device {args.device}, quick protocol, default seeds, `--baseline reference`; "
         f"{args.parallel} runs at once, {args.threads} thread(s) each; budget {args.budget_s} s, "
         f"elapsed {args.elapsed_s} s. Starts: first conformer of each molecule in "
         f"forcefield/training/organic/starts.test.xyz.gz.", "",
         "| | value |", "|---|---:|",
         f"| molecules | {len(rows)} |",
         f"| validated (not cut by the budget) | {len(ran)} |",
         f"| not run / cut by BUDGET | {head['validate_not_run']} / {head['validate_cut_by_budget']} |",
         f"| PASS (exit 0) | {head['validate_pass']} = {pct(head['pass_share_of_run'])} of those validated, "
         f"{pct(head['pass_share_of_all'])} of all (target ≥ 90 %) |",
         f"| intact in validate's 300 K runs (structural integrity) | {pct(head['validate_intact_300K_share'])} |",
         f"| molecules with a domain warning | {head['domain_warned_molecules']} |",
         f"| validate wall time per molecule, median / max | "
         f"{head['validate_wall_s']['median']} / {head['validate_wall_s']['max']} s |",
         f"| CPU: validate, stability (all runs) | {cost['validate_cpu_s_total']} s "
         f"({cost['validate_cpu_s_per_atom']} s per atom), {cost['stability_cpu_s_total']} s "
         f"({cost['stability_cpu_s_per_atom_per_run']} s per atom and run) |"]
    for t in TEMPERATURES_K:
        s = stab[f"{t}K"]
        L.append(f"| stability {t} K ({args.stability_ps} ps Langevin, bond graph): intact | "
                 f"{s['intact']} of {s['run']} run = {pct(s['share_intact'])} (target 100 %); "
                 f"{s['not_run']} not run, {s['cut_by_budget']} cut by BUDGET |")
        if s["not_intact"]:
            L.append(f"| not intact at {t} K | {', '.join(s['not_intact'])} |")
    L += ["", "Exit status: " + ", ".join((f"{k} ({EXIT_MEANING.get(int(k), '?')})" if k.isdigit() else k) + f" × {v}"
                                        for k, v in sorted(exits.items())), "",
          "Failures by criterion (molecules failing it):", "", "| criterion | molecules |", "|---|---:|"]
    L += [f"| {c} | {n} |" for c, n in head["failures_by_criterion"].items()] or ["| (none) | 0 |"]
    L += ["", "| molecule | atoms | verdict | teacher force MAE eV/Å | failed criteria | domain warnings (atom:environment, i-j:bonded pair) "
          "| wall s | 300 K | 600 K |", "|---|---:|---|---:|---|---|---:|---|---|"]

    def st(s):
        if s is None:
            return "—"
        if s.get("intact"):
            return "intact"
        if s.get("run_exit") == 124:
            return "cut by BUDGET"
        if not s.get("completed", True):
            return f"stopped (exit {s.get('run_exit')})"
        return f"changed @ frame {s.get('topology_changed_at_frame')}"
    for r in rows:
        failed = "; ".join(f"{c['label']}: {str(c.get('detail') or '')[:80]}" for c in r.get("failed_criteria", []))
        mae = r.get("teacher_force_mae_eV_per_A")
        L.append(f"| {r['molecule']} | {r['atoms']} | {r['validate_verdict']} | "
                 f"{'—' if mae is None else f'{mae:.4f}'} | {failed} | "
                 f"{', '.join(r.get('domain_warnings', [])[:4])} | {r.get('validate_wall_s', '—')} | "
                 f"{st(r.get('stability_300K'))} | {st(r.get('stability_600K'))} |")
    with open(args.md, "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(L[:18]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("split")
    a.add_argument("starts")
    a.add_argument("folder")
    a.add_argument("--limit", type=int, default=None)
    a.add_argument("--only", nargs="*", default=None)
    b = sub.add_parser("bonds")
    b.add_argument("trajectory")
    b.add_argument("json")
    b.add_argument("--rc", type=int, default=0)
    b.add_argument("--steps", type=int, default=None)
    b.add_argument("--every", type=int, default=None)
    b.add_argument("--status", default=None, help="the run's status file: exit, wall s, CPU s")
    b.add_argument("--temperature", type=float, default=None)
    c = sub.add_parser("summary")
    c.add_argument("runs")
    c.add_argument("molecules")
    c.add_argument("json")
    c.add_argument("md")
    for k in ("model", "device", "parallel", "threads", "budget_s", "elapsed_s", "stability_ps"):
        c.add_argument("--" + k.replace("_", "-"), default=None)
    args = ap.parse_args()
    if args.cmd == "split":
        split(args.starts, args.folder, args.limit, args.only)
    elif args.cmd == "bonds":
        r = check_bonds(args.trajectory, args.rc, args.steps, args.every)
        st = read_status(args.status) if args.status else None
        r.update(temperature_K=args.temperature, wall_s=st and st[1], cpu_s=st and st[2])
        with open(args.json, "w") as f:
            json.dump(r, f, indent=1)
        print(f"{os.path.basename(args.trajectory)}: intact={r['intact']} frames {r['frames']} "
              f"max stretch {r['max_bond_stretch_ratio']} (exit {args.rc})")
    else:
        summary(args)


if __name__ == "__main__":
    main()
