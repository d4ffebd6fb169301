#!/usr/bin/env python3
"""Probe: where one training step of the PaiNN student spends its time (forcefield/training/train.py's step, timed and
profiled on batches of realistic organic molecules at several batch sizes).

On the H200 (2026-11-29) a step took 29.6 ms at 256 frames of ~18 atoms and 47.5 ms at 512: ~11.6 ms fixed plus
~0.07 ms a frame, so at 512 frames the GPU's work, not the host's launches, dominates. Which kernels (index_add_ /
index_select on the [pairs, 3F] and [pairs, 3, F] tensors, the GEMMs, the pair filtering, Adam, the EMA loop) take
that time decides the next step in speeding training up; this probe measures it.

The step is train.py's own: train.batch_loss (the batch's atoms and candidate pairs, energies and forces by autograd
with create_graph=True, the force term by train.force_loss and the per-atom energy MSE), zero_grad, loss.backward()
(the double backward), clip_grad_norm_(10.0), train.py's learning-rate schedule, Adam, train.ema_update, on a
dataset.FrameSet on the device with ids on the device as train.py slices them from its permutation. Not timed: the
sync a step every 50 (float(loss)) and the data-parallel all-reduce of a run on several GPUs.

Frames: the RDKit start geometries of forcefield/training/organic/starts.train.xyz.gz (4,575 molecules, 18.5 atoms
on average), two copies of each with seeded Gaussian noise of 0.05 Å on the positions; seeded random forces (standard
normal, eV/Å) and energies (a GFN2-like reference per element plus noise, eV): labels do not change the timing.

Per batch size (frames a step), in this order, each section cut cleanly when --budget-s would be exceeded:
  timed    --steps steps after --warmup, torch.cuda.synchronize() around each: median ms/step, frames/s, atoms/s,
           peak GPU memory
  phases   --phase-steps steps in pieces, each piece synchronize-bounded (batch building, forward + forces, loss,
           zero_grad + backward, clip + Adam, EMA): median ms of each, and how long the host took to issue it
           (issue close to the total: the host's launches bound it; total well above: the GPU's work)
  profile  --profile-steps steps under torch.profiler (CPU and CUDA activities on CUDA): kernel launches a step, top
           ops by self CUDA and by self CPU time with their share of the step, top kernels by GPU time
  free     --steps steps with no synchronize between them (train.py's loop): ms/step as their total over steps
Writes OUT/train-step-profile.json and OUT/train-step-profile.txt (after every section, so a cut run leaves what it
measured) and prints the summary. Not a test, not run by CI; stdlib + numpy + torch (1.13 or 2.x).

    python3 scripts/probes/train_step_profile.py --device cuda --batches 256,512,1024 --out /tmp/tsp --budget-s 200
    python3 scripts/probes/train_step_profile.py --device cpu --batches 16,32 --steps 3 --warmup 1 --profile-steps 1 \
        --phase-steps 2 --out /tmp/tsp        (a CPU check, < 1 min)
"""
import time

T0 = time.monotonic()   # the budget counts from the start, torch's import and CUDA's start-up included

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TR = os.path.join(HERE, "..", "..", "forcefield", "training")
sys.path.insert(0, TR)
import extxyz  # noqa: E402
from dataset import FrameSet  # noqa: E402
from train import (SPECIES, adam_options, batch_loss, ema_update, force_loss, model_arguments,  # noqa: E402
                   student_and_ema)

STARTS = os.path.join(TR, "organic", "starts.train.xyz.gz")
# per-element reference energies (eV, about GFN2-xTB's atoms in molecules): plausible totals for the energy term only
E_REF = {1: -10.7, 6: -48.3, 7: -71.2, 8: -102.9}


class OutOfBudget(Exception):
    pass


def frames(copies, noise, seed):
    """`copies` noisy copies of every start geometry, with random labels (fixed seed)."""
    rng = np.random.default_rng(seed)
    starts = list(extxyz.read(STARTS))
    out = []
    for c in range(copies):
        for st in starts:
            n = len(st)
            e = sum(E_REF[int(z)] for z in st.numbers) + 0.05 * np.sqrt(n) * rng.standard_normal()
            out.append(extxyz.Frame(st.numbers, st.positions + noise * rng.standard_normal((n, 3)), e,
                                    rng.standard_normal((n, 3)), dict(system="organic")))
    return out


def median(xs):
    return float(statistics.median(xs)) if xs else None


def self_dev_time(e):
    """A host event's self device time in µs: self_device_time_total on torch 2.x, self_cuda_time_total on 1.13."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a in ("self_device_time_total", "self_cuda_time_total"):
            try:
                return float(getattr(e, a))
            except (AttributeError, TypeError):
                continue
    return 0.0


def on_device(e):
    """Whether a profiler event is the device's (a kernel, memcpy or memset), not the host's."""
    return str(getattr(e, "device_type", "")).upper().endswith(("CUDA", "PRIVATEUSE1"))


class Probe:
    def __init__(self, args):
        self.args = args
        self.device = torch.device(args.device)
        self.cuda = self.device.type == "cuda"
        self.dtype = torch.float32
        self.deadline = T0 + args.budget_s if args.budget_s > 0 else float("inf")

    def sync(self):
        if self.cuda:
            torch.cuda.synchronize(self.device)

    def left(self):
        return self.deadline - time.monotonic()

    def need(self, seconds, what):
        if self.left() < seconds:
            raise OutOfBudget(f"{what}: {self.left():.1f} s of the budget left, {seconds:.1f} s needed")

    def setup(self):
        a = self.args
        torch.manual_seed(a.seed)
        if hasattr(torch, "set_float32_matmul_precision"):
            torch.set_float32_matmul_precision("highest")   # as train.py: no TF32
        t = time.monotonic()
        data = FrameSet(frames(a.copies, a.noise, a.seed), ["organic"])
        self.build_s = time.monotonic() - t
        # train.py's atomref (least squares on the species counts) and scale (RMS force component)
        A = data.composition(SPECIES)
        atomref, *_ = np.linalg.lstsq(A, data.energy.numpy(), rcond=None)
        scale = float(torch.sqrt(torch.mean(data.forces ** 2)))
        model, ema = student_and_ema(a, atomref, scale, self.device, self.dtype)
        data.to(self.device, self.dtype)
        self.data, self.model, self.ema = data, model, ema
        self.params = [p for p in model.parameters() if p.requires_grad]
        self.opt = torch.optim.Adam(self.params, lr=a.lr, **adam_options(self.device))
        self.gen = torch.Generator(device="cpu")
        self.gen.manual_seed(a.seed)
        self.perm, self.cursor, self.step_no = None, 0, 0

    def next_ids(self, n):
        """The next n frames of a seeded permutation on the device, sliced as train.py slices its epoch's."""
        if self.perm is None or self.cursor + n > len(self.perm):
            if n > len(self.data):
                raise SystemExit(f"a batch of {n} frames is more than the {len(self.data)} frames (raise --copies)")
            self.perm = torch.randperm(len(self.data), generator=self.gen).to(self.device)
            self.cursor = 0
        ids = self.perm[self.cursor:self.cursor + n]
        self.cursor += n
        return ids

    def lr(self):
        a, s = self.args, self.step_no   # train.py's warm-up; its decay needs the planned steps, a constant here
        return a.lr * (s + 1) / a.warmup_lr if s < a.warmup_lr else a.lr

    def train_step(self, ids):
        """train.py's step (world size 1)."""
        a = self.args
        loss = batch_loss(self.model, self.data, ids, a.w_forces, a.w_energy, a.force_weighting, self.dtype)
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.params, 10.0)
        for g in self.opt.param_groups:
            g["lr"] = self.lr()
        self.opt.step()
        ema_update(self.ema, self.model, min(a.ema, (1.0 + self.step_no) / (10.0 + self.step_no)))
        self.step_no += 1
        return loss

    def piece_loss(self, ids):
        """batch_loss in its pieces (what the phases time): (batch tensors, forward output, loss)."""
        a = self.args
        z, pos, f_ref, batch, e_ref, counts, _ = self.data.batch(ids)
        pairs = self.data.batch_pairs(ids)
        e, f = self.model(z, pos.clone(), batch, len(ids), create_graph=True, pairs=pairs)
        loss_f = force_loss(f, f_ref, batch, counts, a.force_weighting)
        loss_e = torch.mean((((e.double() - e_ref) / counts).to(self.dtype)) ** 2)
        return a.w_forces * loss_f + a.w_energy * loss_e

    def check(self, n):
        """The pieces' loss against train.batch_loss's on the same frames and weights (no step between): equal on the
        CPU, within CUDA's non-deterministic index_add_ otherwise."""
        ids = self.next_ids(n)
        ref = float(batch_loss(self.model, self.data, ids, self.args.w_forces, self.args.w_energy,
                               self.args.force_weighting, self.dtype))
        got = float(self.piece_loss(ids))
        rel = abs(got - ref) / max(abs(ref), 1e-30)
        return dict(frames=n, train_py_loss=ref, pieces_loss=got, rel_diff=rel,
                    ok=bool(rel == 0.0 if not self.cuda else rel < 1e-5))

    def timed(self, n, steps, label, out):
        """`steps` steps, synchronize-bounded, their ms appended to `out` (kept when the budget cuts the loop)."""
        for _ in range(steps):
            self.need(3 * (median(out) or 1.0) / 1e3 + self.args.reserve_s, label)
            ids = self.next_ids(n)
            self.sync()
            t = time.perf_counter()
            self.train_step(ids)
            self.sync()
            out.append(1e3 * (time.perf_counter() - t))

    def phases(self, n, steps, step_ms, r):
        """r["phases"]: the medians of `steps` steps timed in pieces (those measured when the budget cuts the loop)."""
        a = self.args
        names = ["batch", "forward+forces", "loss", "zero_grad+backward", "clip+adam", "ema"]
        total = {k: [] for k in names}
        issue = {k: [] for k in names}
        sizes = []
        cut = None
        for _ in range(steps):
            if self.left() < 3 * step_ms / 1e3 + a.reserve_s:
                cut = OutOfBudget(f"phases: {self.left():.1f} s of the budget left")
                break
            ids = self.next_ids(n)
            marks = []

            def lap(name, t):
                issued = time.perf_counter()
                self.sync()
                done = time.perf_counter()
                issue[name].append(1e3 * (issued - t))
                total[name].append(1e3 * (done - t))
                marks.append(name)
                return done

            self.sync()
            t = time.perf_counter()
            z, pos, f_ref, batch, e_ref, counts, _ = self.data.batch(ids)
            pairs = self.data.batch_pairs(ids)
            t = lap("batch", t)
            e, f = self.model(z, pos.clone(), batch, len(ids), create_graph=True, pairs=pairs)
            t = lap("forward+forces", t)
            loss_f = force_loss(f, f_ref, batch, counts, a.force_weighting)
            loss_e = torch.mean((((e.double() - e_ref) / counts).to(self.dtype)) ** 2)
            loss = a.w_forces * loss_f + a.w_energy * loss_e
            t = lap("loss", t)
            self.opt.zero_grad(set_to_none=True)
            loss.backward()
            t = lap("zero_grad+backward", t)
            torch.nn.utils.clip_grad_norm_(self.params, 10.0)
            for g in self.opt.param_groups:
                g["lr"] = self.lr()
            self.opt.step()
            t = lap("clip+adam", t)
            ema_update(self.ema, self.model, min(a.ema, (1.0 + self.step_no) / (10.0 + self.step_no)))
            lap("ema", t)
            self.step_no += 1
            with torch.no_grad():   # the step's sizes, outside the timed pieces
                i, _ = self.model.edges_within(pos, pairs[0], pairs[1])
                sizes.append((int(len(z)), int(len(pairs[0])), int(len(i))))
        res = {k: dict(ms=median(total[k]), issue_ms=median(issue[k])) for k in names if total[k]}
        summed = sum(v["ms"] for v in res.values()) if res else None
        r["phases"] = dict(steps=len(sizes), median=res, sum_of_medians_ms=summed,
                           atoms=median([s[0] for s in sizes]), candidate_pairs=median([s[1] for s in sizes]),
                           edges=median([s[2] for s in sizes]))
        if cut:
            raise cut

    def profile(self, n, steps, step_ms):
        a = self.args
        # the profiler slows the host a few times over, and reading its events takes seconds
        self.need(steps * 5 * step_ms / 1e3 + 10 + a.reserve_s, "profile")
        acts = [torch.profiler.ProfilerActivity.CPU]
        if self.cuda:
            acts.append(torch.profiler.ProfilerActivity.CUDA)
        ids = [self.next_ids(n) for _ in range(steps)]
        self.sync()
        t = time.perf_counter()
        with torch.profiler.profile(activities=acts, record_shapes=False) as prof:
            for k in range(steps):
                self.train_step(ids[k])
            self.sync()
        wall_ms = 1e3 * (time.perf_counter() - t) / steps
        return analyse(prof.events(), steps, step_ms, wall_ms, a.top)

    def one_batch(self, n, res):
        a = self.args
        r = dict(frames=n)
        res.append(r)
        try:
            if self.cuda:
                torch.cuda.empty_cache()
                torch.cuda.reset_peak_memory_stats(self.device)
            t = time.monotonic()
            self.timed(n, a.warmup, "warm-up", [])
            r["warmup_s"] = round(time.monotonic() - t, 2)
            ms = []
            try:
                self.timed(n, a.steps, "timed", ms)
            finally:   # the steps measured before a cut stand
                if ms:
                    r["timed"] = dict(steps=len(ms), ms_per_step=median(ms), min_ms=min(ms), max_ms=max(ms),
                                      frames_per_s=1e3 * n / median(ms))
                    if self.cuda:
                        r["peak_gpu_mib"] = torch.cuda.max_memory_allocated(self.device) / 2 ** 20
            step_ms = median(ms)
            write(a.out, self.report)
            try:
                self.phases(n, a.phase_steps, step_ms, r)
            finally:
                atoms = r.get("phases", {}).get("atoms")
                if atoms:
                    r["timed"]["atoms_per_step"] = atoms
                    r["timed"]["atoms_per_s"] = 1e3 * atoms / step_ms
            write(a.out, self.report)
            if a.profile_steps > 0:
                try:
                    r["profile"] = self.profile(n, a.profile_steps, step_ms)
                except OutOfBudget as ex:   # skipped: the free-running steps and the next batch size may still fit
                    r["profile"] = dict(cut=str(ex))
                except Exception as ex:   # the profiler's API moves between torch versions: keep the timings
                    r["profile"] = dict(error=f"{type(ex).__name__}: {ex}")
                write(a.out, self.report)
            self.sync()
            t = time.perf_counter()
            k = 0
            try:
                for _ in range(a.steps):
                    self.need(3 * step_ms / 1e3 + a.reserve_s, "free")
                    self.train_step(self.next_ids(n))
                    k += 1
            finally:
                self.sync()
                if k:
                    r["free"] = dict(steps=k, ms_per_step=1e3 * (time.perf_counter() - t) / k)
        except OutOfBudget as ex:
            r["cut"] = str(ex)
            self.report["cut_by_budget"] = True
        except RuntimeError as ex:   # out of memory at a large batch: the smaller ones stand
            if "out of memory" not in str(ex).lower():
                raise
            r["error"] = f"out of memory: {str(ex).splitlines()[0]}"
            if self.cuda:
                torch.cuda.empty_cache()
        write(a.out, self.report)

    def run(self):
        a = self.args
        self.report = dict(
            probe="scripts/probes/train_step_profile.py", torch=torch.__version__, python=platform.python_version(),
            device=torch.cuda.get_device_name(self.device) if self.cuda else "cpu",
            threads=torch.get_num_threads(), settings={k: v for k, v in vars(a).items()}, results=[],
            adam=adam_options(a.device))
        self.setup()
        self.report["data"] = dict(frames=len(self.data), atoms=int(len(self.data.z)),
                                   mean_atoms=float(self.data.n_atoms.double().mean()), build_s=round(self.build_s, 2))
        self.report["check"] = self.check(min(a.batches))
        write(a.out, self.report)
        for n in a.batches:
            if self.report.get("cut_by_budget"):
                self.report["results"].append(dict(frames=n, cut="not started: the budget was spent"))
                continue
            self.one_batch(n, self.report["results"])
        self.report["seconds"] = round(time.monotonic() - T0, 1)
        write(a.out, self.report)
        return self.report


def analyse(events, steps, step_ms, wall_ms, top):
    """Kernel launches a step, top host ops by self CUDA / self CPU time, top kernels by GPU time, from the events of
    `steps` profiled steps (times per step, ms; shares of the synchronize-bounded step `step_ms`)."""
    ops, kernels = {}, {}
    launches = syncs = copies = 0
    kernel_us = copy_us = 0.0
    for e in events:
        name = e.name
        if on_device(e):
            if getattr(e, "is_user_annotation", False):   # torch 2.x: a record_function range's copy on the GPU
                continue
            us = float(e.time_range.elapsed_us())
            if name.startswith(("Memcpy", "Memset")):
                copy_us += us
                copies += 1
                continue
            kernel_us += us
            k = kernels.setdefault(name, [0, 0.0])
            k[0] += 1
            k[1] += us
            continue
        if name in ("cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx"):
            launches += 1
        if name in ("cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize"):
            syncs += 1
        o = ops.setdefault(name, [0, 0.0, 0.0])
        o[0] += 1
        o[1] += float(e.self_cpu_time_total)
        o[2] += self_dev_time(e)
    per = 1e3 * steps   # µs over `steps` steps -> ms a step

    def rows(table, key, width):
        # shares: GPU times of the synchronize-bounded step and of all kernels (the profiler hardly moves a kernel's
        # duration); CPU times of the profiled step (the profiler slows the host)
        out = []
        for name, v in sorted(table.items(), key=lambda kv: -kv[1][key])[:top]:
            row = dict(name=name[:width], calls_per_step=v[0] / steps)
            if len(v) == 3:
                row.update(self_cpu_ms=v[1] / per, self_cuda_ms=v[2] / per)
            else:
                row.update(gpu_ms=v[1] / per)
            if key == 1 and len(v) == 3:
                row["share_of_step"] = (v[1] / per) / wall_ms
            else:
                row["share_of_step"] = (v[key] / per) / step_ms
                row["share_of_kernels"] = v[key] / kernel_us if kernel_us > 0 else None
            out.append(row)
        return out

    return dict(steps=steps, profiled_wall_ms_per_step=wall_ms,
                kernel_launches_per_step=launches / steps,
                device_kernels_per_step=sum(v[0] for v in kernels.values()) / steps,
                synchronizations_per_step=syncs / steps, memcpy_memset_per_step=copies / steps,
                kernel_ms_per_step=kernel_us / per, memcpy_memset_ms_per_step=copy_us / per,
                gpu_busy_share=(kernel_us + copy_us) / per / step_ms,
                top_ops_by_self_cuda=rows(ops, 2, 90) if kernel_us > 0 else [],
                top_ops_by_self_cpu=rows(ops, 1, 90), top_kernels_by_gpu_time=rows(kernels, 1, 110))


def text(rep):
    s = rep["settings"]
    lines = [f"train.py's step on {rep['device']} (torch {rep['torch']}, {rep['threads']} threads): PaiNN F={s['hidden']} "
             f"T={s['layers']} n_rbf={s['n_rbf']} r_c={s['cutoff']} Å gamma={s['gamma']}, loss weighting "
             f"{s['force_weighting']}, w_F {s['w_forces']} w_E {s['w_energy']}, Adam{' (fused)' if rep.get('adam', {}).get('fused') else ''}, "
             f"clip 10, EMA {s['ema']}"]
    if "data" in rep:
        d = rep["data"]
        lines.append(f"frames: {d['frames']} noisy copies of the organic starts, {d['mean_atoms']:.1f} atoms a frame")
    if "check" in rep:
        c = rep["check"]
        lines.append(f"check at {c['frames']} frames: train.batch_loss {c['train_py_loss']:.9g}, the phases' pieces "
                     f"{c['pieces_loss']:.9g} (relative difference {c['rel_diff']:.1e}: {'ok' if c['ok'] else 'DIFFERS'})")
    for r in rep["results"]:
        lines.append("")
        head = f"== {r['frames']} frames a step"
        t = r.get("timed")
        if t:
            head += (f": {t['ms_per_step']:.2f} ms/step (median of {t['steps']}, min {t['min_ms']:.2f}, max "
                     f"{t['max_ms']:.2f}), {t['frames_per_s']:.0f} frames/s")
            if "atoms_per_s" in t:
                head += f", {t['atoms_per_s']:.0f} atoms/s ({t['atoms_per_step']:.0f} atoms a step)"
            if "peak_gpu_mib" in r:
                head += f", peak GPU memory {r['peak_gpu_mib']:.0f} MiB"
        lines.append(head)
        if "free" in r:
            lines.append(f"   without a synchronize between steps: {r['free']['ms_per_step']:.2f} ms/step over "
                         f"{r['free']['steps']} steps")
        p = r.get("phases")
        if p and p["median"]:
            lines.append(f"   phases (median of {p['steps']} steps, each synchronize-bounded; {p['edges']:.0f} edges of "
                         f"{p['candidate_pairs']:.0f} candidate pairs):  total ms / host issue ms")
            for k, v in p["median"].items():
                lines.append(f"     {k:20s} {v['ms']:9.2f} {v['issue_ms']:9.2f}")
            lines.append(f"     {'sum':20s} {p['sum_of_medians_ms']:9.2f}")
        pr = r.get("profile")
        if pr and ("error" in pr or "cut" in pr):
            lines.append(f"   profile: {pr.get('error') or 'cut: ' + pr['cut']}")
        elif pr:
            lines.append(f"   profile of {pr['steps']} steps ({pr['profiled_wall_ms_per_step']:.1f} ms/step under the "
                         f"profiler): {pr['kernel_launches_per_step']:.0f} kernel launches and "
                         f"{pr['device_kernels_per_step']:.0f} kernels a step, {pr['synchronizations_per_step']:.0f} "
                         f"synchronizations, {pr['memcpy_memset_per_step']:.0f} memcpy/memset; kernels "
                         f"{pr['kernel_ms_per_step']:.2f} ms a step (GPU busy {100 * pr['gpu_busy_share']:.0f} % of "
                         f"the step)")
            for title, key, col in (("top ops by self CUDA time (ms a step, share of the step, of all kernels, calls "
                                     "a step)", "top_ops_by_self_cuda", "self_cuda_ms"),
                                    ("top kernels by GPU time (ms a step, share of the step, of all kernels, calls a "
                                     "step)", "top_kernels_by_gpu_time", "gpu_ms"),
                                    ("top ops by self CPU time (ms a step, share of the profiled step, calls a step)",
                                     "top_ops_by_self_cpu", "self_cpu_ms")):
                if not pr[key]:
                    continue
                lines.append(f"   {title}:")
                for row in pr[key]:
                    k = row.get("share_of_kernels")
                    lines.append(f"     {row[col]:8.3f} {100 * row['share_of_step']:5.1f} %"
                                 f"{'' if k is None else f' {100 * k:5.1f} %'} {row['calls_per_step']:6.0f}  {row['name']}")
        for k in ("cut", "error"):
            if k in r:
                lines.append(f"   {k}: {r[k]}")
    if "seconds" in rep:
        lines.append(f"\n{rep['seconds']} s in all{' (cut by the budget)' if rep.get('cut_by_budget') else ''}")
    return "\n".join(lines) + "\n"


def write(out, rep):
    os.makedirs(out, exist_ok=True)
    for name, body in (("train-step-profile.json", json.dumps(rep, indent=1)), ("train-step-profile.txt", text(rep))):
        tmp = os.path.join(out, name + ".tmp")
        with open(tmp, "w") as f:
            f.write(body)
        os.replace(tmp, os.path.join(out, name))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batches", default="256,512,1024", help="frames a step, separated by commas")
    ap.add_argument("--steps", type=int, default=30, help="timed steps (and as many free-running ones)")
    ap.add_argument("--warmup", type=int, default=5, help="untimed steps first, at every batch size")
    ap.add_argument("--phase-steps", type=int, default=10, help="steps timed in pieces")
    ap.add_argument("--profile-steps", type=int, default=5, help="steps under torch.profiler (0: none)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget-s", type=float, default=0.0,
                    help="wall-clock budget from the start (0: none): a section that would pass it is cut and what was "
                         "measured is written")
    ap.add_argument("--reserve-s", type=float, default=5.0, help="seconds kept back from the budget for the writing")
    ap.add_argument("--init", help="weights to start from (.safetensors or state.npz, train.py's load_weights)")
    ap.add_argument("--copies", type=int, default=2, help="noisy copies of each start geometry")
    ap.add_argument("--noise", type=float, default=0.05, help="Å, standard deviation of the position noise")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--top", type=int, default=25, help="rows of each top list")
    # train.py's settings of the round (device_organic.sh multi): the model's shape as train.py takes it
    model_arguments(ap)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--warmup-lr", type=int, default=300, help="train.py's --warmup: steps of learning-rate warm-up")
    ap.add_argument("--w-forces", type=float, default=1.0)
    ap.add_argument("--w-energy", type=float, default=10.0)
    ap.add_argument("--force-weighting", choices=["atom", "structure"], default="atom")
    ap.add_argument("--ema", type=float, default=0.999)
    args = ap.parse_args()
    args.batches = [int(b) for b in args.batches.split(",") if b.strip()]
    if not args.batches or min(args.batches) < 1 or args.steps < 1:
        raise SystemExit("--batches needs frame counts >= 1 and --steps >= 1")
    rep = Probe(args).run()
    sys.stdout.write(text(rep))
    print(f"written: {os.path.join(args.out, 'train-step-profile.json')}, train-step-profile.txt")


if __name__ == "__main__":
    main()
