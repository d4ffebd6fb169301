#!/usr/bin/env python3
"""Trains the PaiNN student on GFN2-xTB energies and forces (runs on torch 1.13 and 2.x, CPU or CUDA).

    python3 train.py --data data --test ../src/main/resources/org/molten/forcefield/student/testset \
                     --out OUTDIR --minutes 8

Loss: w_F * mean over atoms and components of (F - F_ref)^2 [eV/Å]^2
    + w_E * mean over structures of ((E - E_ref) / N)^2 [eV/atom]^2  (force-weighted by default).
--force-weighting structure takes the force term per structure instead (each frame's mean over its atoms and
components, then the mean over frames), so that a 5-atom molecule's frame weighs as much as a 40-atom one's: the
issue's targets are per molecule (median and 95th percentile over molecules), and with per-atom weighting the small
molecules of a broad organic set carry a few percent of the loss. Validation then selects by the same weighting.
atomref: least squares of the training energies on the species counts (fixed, not trained);
scale: RMS of the training force components (fixed). Adam, linear warm-up then exponential decay
of the learning rate over the planned number of steps; an exponential moving average (EMA) of the
weights is what is validated and kept; early stopping keeps the EMA state of the best validation
loss and stops after `--patience` evaluations without improvement or when the time budget ends.
The number of steps is planned from the measured speed of each epoch (schedule.py: planned again after every epoch,
the decay continuing from the current rate) and every plan is recorded; `--steps N` fixes the plan, so a run whose
plan did not move after epoch 2 repeats on another machine. Seeds are fixed (--seed); CUDA index_add is not
bit-deterministic, so GPU runs agree statistically, not bit for bit.

Data parallel on several GPUs of one host: `torchrun --nproc-per-node G train.py ...` (NCCL). Every rank holds the
whole data set and the same permutation, takes its share of each global batch of G x --batch frames, and the
gradients are averaged by one all-reduce a step (which also carries a stop flag, so all ranks end at the same
step); rank 0 validates, keeps the EMA state and writes the outputs. One rank is the single-GPU run.
--system-weight NAME=K repeats the frames of system NAME K times an epoch (e.g. keep the six molecules of the
earlier students from drowning in a larger organic set).

Outputs in --out: state.npz (every spec tensor, float32), train_log.json (settings, history,
metrics), summary.txt (the final table, also printed last).
"""
import argparse
import copy
import inspect
import json
import math
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dataset import load_split  # noqa: E402
from model import PaiNN, spec_state  # noqa: E402
from schedule import StepPlan  # noqa: E402

SPECIES = [1, 6, 7, 8]


def read_state(path):
    """Every spec tensor of a state.npz (train.py) or a .safetensors weight file, by name."""
    if path.endswith(".safetensors"):
        import safetensors_io
        state, _ = safetensors_io.read(path)
        return state
    return dict(np.load(path))


def state_width(state):
    """F, the channel count of a student's state: the readout's first layer reads the F scalar features."""
    return int(np.shape(state["readout.0.weight"])[1])


def state_layers(state):
    """T, the interaction blocks of a student's state: 3, or more from deepen.py (interactions.0 ... interactions.T-1)."""
    return len({k.split(".")[1] for k in state if k.startswith("interactions.")})


def load_weights(model, path):
    """Copies every spec tensor of a state.npz (train.py) or a .safetensors weight file into model."""
    state = read_state(path)
    sd = {k: torch.from_numpy(np.asarray(v, dtype=np.float32)) for k, v in state.items()}
    model.load_state_dict(sd, strict=True)
    return model


def student_and_ema(args, atomref, scale, device, dtype):
    """The student to train (model_arguments' shape; atomref in eV per species and scale in eV from the data, or all
    of it from args.init, a warm start) on device and dtype, and its EMA copy (no gradients). train.py and the
    training-step probe build it here, so that the probe times the model train.py trains."""
    model = PaiNN(SPECIES, args.hidden, args.layers, args.n_rbf, args.cutoff, args.gamma)
    with torch.no_grad():
        model.atomref.copy_(torch.tensor(atomref))
        model.scale.fill_(scale)
    if args.init:
        load_weights(model, args.init)
    model.to(device=device, dtype=dtype)
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    return model, ema


def selection_score(metrics, select, w_forces, w_energy, force_weighting="atom"):
    """What a validation is judged by (lower is better): the force MAE per component (eV/Å, what the accuracy
    targets are stated in) for select == "force-mae", the force MSE ((eV/Å)², per atom or per structure as the force
    term is weighted) for "forces", the training loss w_forces F + w_energy E for "loss"."""
    if select == "force-mae":
        return metrics["force_mae_ev_per_a"]
    f = metrics["force_mse" if force_weighting == "atom" else "force_mse_per_structure"]
    return f if select == "forces" else w_forces * f + w_energy * metrics["energy_mse"]


def evaluate(model, data, device, batch_frames=256):
    """Per-system and overall metrics: energy MAE (meV/atom), force MAE and RMSE (eV/Å), loss terms."""
    model.eval()
    n_sys = len(data.systems)
    e_abs = torch.zeros(n_sys, dtype=torch.float64)
    e_sq = torch.zeros(n_sys, dtype=torch.float64)
    f_abs = torch.zeros(n_sys, dtype=torch.float64)
    f_sq = torch.zeros(n_sys, dtype=torch.float64)
    n_frames = torch.zeros(n_sys, dtype=torch.float64)
    n_comp = torch.zeros(n_sys, dtype=torch.float64)
    f_sq_frame = 0.0   # sum over frames of each frame's mean squared force error (eV/Å)^2
    for start in range(0, len(data), batch_frames):
        ids = torch.arange(start, min(start + batch_frames, len(data)), device=device)
        z, pos, f_ref, batch, e_ref, counts, sys_id = data.batch(ids)
        e, f = model(z, pos.clone(), batch, len(ids), pairs=data.batch_pairs(ids))
        de = ((e.double() - e_ref) / counts).detach().cpu()
        df = (f - f_ref).detach().double()
        atom_sys = sys_id.index_select(0, batch).cpu()
        df_abs = df.abs().sum(1).cpu()
        df_sq = (df * df).sum(1).cpu()
        frame_sq = torch.zeros(len(ids), dtype=torch.float64).index_add_(0, batch.cpu(), df_sq)
        f_sq_frame += float((frame_sq / (3.0 * counts.cpu().double())).sum())
        s = sys_id.cpu()
        e_abs.index_add_(0, s, de.abs())
        e_sq.index_add_(0, s, de * de)
        n_frames.index_add_(0, s, torch.ones_like(de))
        f_abs.index_add_(0, atom_sys, df_abs)
        f_sq.index_add_(0, atom_sys, df_sq)
        n_comp.index_add_(0, atom_sys, torch.full_like(df_abs, 3.0))
    out = {}
    for k, name in enumerate(data.systems):
        if n_frames[k] == 0:
            continue
        out[name] = dict(frames=int(n_frames[k]), energy_mae_mev_per_atom=1e3 * float(e_abs[k] / n_frames[k]),
                         force_mae_ev_per_a=float(f_abs[k] / n_comp[k]),
                         force_rmse_ev_per_a=float(math.sqrt(f_sq[k] / n_comp[k])))
    out["all"] = dict(frames=int(n_frames.sum()), energy_mae_mev_per_atom=1e3 * float(e_abs.sum() / n_frames.sum()),
                      force_mae_ev_per_a=float(f_abs.sum() / n_comp.sum()),
                      force_rmse_ev_per_a=float(math.sqrt(f_sq.sum() / n_comp.sum())),
                      energy_mse=float(e_sq.sum() / n_frames.sum()), force_mse=float(f_sq.sum() / n_comp.sum()),
                      force_mse_per_structure=f_sq_frame / float(n_frames.sum()))
    model.train()
    return out


def force_loss(f, f_ref, batch, counts, weighting):
    """The force term of the loss, (eV/Å)^2: the mean over atoms and components ("atom"), or over frames of each
    frame's mean over its atoms and components ("structure")."""
    se = (f - f_ref) ** 2
    if weighting == "atom":
        return torch.mean(se)
    w = 1.0 / (3.0 * counts.to(se.dtype)).index_select(0, batch)
    return torch.sum(se.sum(dim=1) * w) / counts.numel()


def model_arguments(ap):
    """The student's shape (PaiNN hyperparameters) as options, shared by train.py and the probes that build the model
    it trains (scripts/probes/train_step_profile.py), so that their defaults cannot drift apart."""
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--layers", type=int, default=3)
    ap.add_argument("--n-rbf", type=int, default=20)
    ap.add_argument("--cutoff", type=float, default=5.0, help="Å")
    ap.add_argument("--gamma", type=float, default=16.0, help="Å^-2")


def batch_loss(model, data, ids, w_forces, w_energy, force_weighting, dtype):
    """The training loss of the frames `ids` of `data` (a FrameSet on the model's device): the batch's atoms and
    candidate pairs, energies and forces with create_graph (so that backward reaches the weights through the forces),
    w_forces x the force term + w_energy x the per-atom energy MSE [eV/atom]^2. The step's loss in main(), a function
    so that scripts/probes/train_step_profile.py times exactly this code."""
    z, pos, f_ref, batch, e_ref, counts, _ = data.batch(ids)
    e, f = model(z, pos.clone(), batch, len(ids), create_graph=True, pairs=data.batch_pairs(ids))
    loss_f = force_loss(f, f_ref, batch, counts, force_weighting)
    loss_e = torch.mean((((e.double() - e_ref) / counts).to(dtype)) ** 2)
    return w_forces * loss_f + w_energy * loss_e


def ema_update(ema, model, decay):
    """The step's exponential moving average of the weights: ema <- decay ema + (1 - decay) model, all tensors in two
    multi-tensor launches (a loop over the ~40 tensors took 1.1-1.9 ms of a 33-46 ms step on an H200: round 9's
    profile)."""
    with torch.no_grad():
        pe = list(ema.parameters())
        torch._foreach_mul_(pe, decay)
        torch._foreach_add_(pe, [p.detach() for p in model.parameters()], alpha=1.0 - decay)


def adam_options(device):
    """Adam's keyword arguments on DEVICE: the fused kernel on CUDA (one launch for every tensor; torch >= 1.13), since
    clipping and Adam took 1.8-2.5 ms of a 33-46 ms step on an H200 (round 9's profile); the default elsewhere."""
    fused = torch.device(device).type == "cuda" and "fused" in inspect.signature(torch.optim.Adam).parameters
    return {"fused": True} if fused else {}


def table(title, metrics):
    lines = [title, f"  {'system':20s} {'frames':>6s} {'E MAE meV/atom':>15s} {'F MAE eV/Å':>11s} {'F RMSE eV/Å':>12s}"]
    for name, m in metrics.items():
        lines.append(f"  {name:20s} {m['frames']:6d} {m['energy_mae_mev_per_atom']:15.3f} "
                     f"{m['force_mae_ev_per_a']:11.4f} {m['force_rmse_ev_per_a']:12.4f}")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, nargs="+",
                    help="directories with <system>.train.xyz.gz / .val.xyz.gz (or .train.npz / .val.npz)")
    ap.add_argument("--test", help="directory with <system>.xyz.gz test files (reported, never used for selection)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--minutes", type=float, default=8.0, help="wall-clock budget of the training loop")
    ap.add_argument("--steps", type=int, default=0, help="planned optimiser steps (0: plan from the measured speed)")
    model_arguments(ap)
    ap.add_argument("--batch", type=int, default=64, help="structures per batch")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--lr-final", type=float, default=1e-5)
    ap.add_argument("--warmup", type=int, default=500, help="steps of linear learning-rate warm-up")
    ap.add_argument("--w-forces", type=float, default=1.0)
    ap.add_argument("--w-energy", type=float, default=10.0, help="weight of the per-atom energy MSE")
    ap.add_argument("--force-weighting", choices=["atom", "structure"], default="atom",
                    help="force term averaged over all atoms of a batch (atom) or per frame, then over frames "
                         "(structure: every molecule's frames weigh alike whatever its size)")
    ap.add_argument("--ema", type=float, default=0.999)
    ap.add_argument("--patience", type=int, default=40, help="validations without improvement before stopping")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--init", help="warm start: weights to start from (state.npz of a run or a .safetensors "
                                   "weight file); its atomref and scale are kept")
    ap.add_argument("--system-weight", action="append", default=[], metavar="NAME=K",
                    help="repeat the training frames of system NAME K times an epoch (integer K >= 1)")
    ap.add_argument("--val-every-s", type=float, default=0.0,
                    help="validate at the end of an epoch only when this many seconds have passed since the last "
                         "validation (0: every epoch)")
    ap.add_argument("--select", choices=["force-mae", "forces", "loss"], default="force-mae",
                    help="which validation keeps a state: the lowest force MAE (force-mae, the default: the metric "
                         "of the accuracy targets), the lowest force MSE (forces; a few outlier frames move it: in "
                         "issue 27's round 6 it kept epoch 5 of 15 on a 0.6 %% lower MSE while the MAE fell 2.2 %% "
                         "after it) or the lowest training loss (loss: w_forces F + w_energy E). In a "
                         "fine-tuning on new molecules the validation energy error can rise while the forces improve "
                         "for the whole run, and loss then keeps the first validation's state; the last EMA state is "
                         "always written too (state_last.npz)")
    ap.add_argument("--checkpoint", action="store_true",
                    help="write the best EMA state to OUT/checkpoint.npz at every validation improvement, so a run "
                         "killed at a hard wall-clock limit still leaves usable weights")
    args = ap.parse_args()

    t0 = time.time()
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    if world > 1:
        import torch.distributed as dist
        if torch.cuda.is_available():
            torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
            dist.init_process_group("nccl")
            args.device = f"cuda:{torch.cuda.current_device()}"
        else:   # gloo on the CPU: the same code path, tested without a GPU
            dist.init_process_group("gloo")
            args.device = "cpu"
    if rank != 0:
        sys.stdout = open(os.devnull, "w")   # rank 0 speaks for the run
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    if hasattr(torch, "set_float32_matmul_precision"):
        torch.set_float32_matmul_precision("highest")   # no TF32: forces need full float32 products
    device = torch.device(args.device)
    dtype = torch.float32
    train = load_split(args.data, "train")
    val = load_split(args.data, "val", train.systems)
    test = load_split(args.test, None) if args.test else None

    # atomref by least squares on the species counts; scale = RMS force component.
    A = train.composition(SPECIES)
    atomref, *_ = np.linalg.lstsq(A, train.energy.numpy(), rcond=None)
    resid = (train.energy.numpy() - A @ atomref) / train.n_atoms.numpy()
    scale = float(torch.sqrt(torch.mean(train.forces ** 2)))
    print(f"torch {torch.__version__} on {device} ({torch.cuda.get_device_name(device) if device.type == 'cuda' else 'cpu'})"
          f"{f', {world} ranks (data parallel)' if world > 1 else ''}")
    print(f"train {len(train)} frames / {len(train.z)} atoms, val {len(val)}, test {len(test) if test else 0}")
    print("atomref (eV): " + ", ".join(f"Z={z}: {a:.4f}" for z, a in zip(SPECIES, atomref))
          + f"; residual per atom: std {resid.std() * 1e3:.1f} meV; scale {scale:.4f} eV")

    model, ema = student_and_ema(args, atomref, scale, device, dtype)
    if args.init:
        atomref, scale = model.atomref.detach().cpu().numpy().astype(float), float(model.scale)
        print(f"warm start from {args.init}: atomref and scale kept ({scale:.4f} eV)")
    train.to(device, dtype)
    val.to(device, dtype)
    if test:
        test.to(device, dtype)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=args.lr, **adam_options(device))
    n_params = sum(p.numel() for p in params)
    print(f"PaiNN F={args.hidden} T={args.layers} n_rbf={args.n_rbf} r_c={args.cutoff} gamma={args.gamma}: "
          f"{n_params} trainable parameters")

    # the epoch's frame list: every training frame once, those of weighted systems K times
    repeat = torch.ones(len(train), dtype=torch.long)
    for item in args.system_weight:
        name, _, k = item.partition("=")
        if name not in train.systems or not k.isdigit() or int(k) < 1:
            raise SystemExit(f"--system-weight {item}: expected NAME=K with NAME one of {train.systems} and K >= 1")
        repeat[train.system.cpu() == train.systems.index(name)] = int(k)
    epoch_frames = torch.repeat_interleave(torch.arange(len(train)), repeat)
    if len(args.system_weight):
        print(f"epoch: {len(epoch_frames)} frames ({', '.join(args.system_weight)})")
    global_batch = args.batch * world
    flat = None
    if world > 1:
        with torch.no_grad():   # every rank starts from rank 0's weights (identical anyway: same seed, same init)
            for p_ in list(model.parameters()) + list(ema.parameters()):
                dist.broadcast(p_.data, 0)
    gen = torch.Generator(device="cpu")
    gen.manual_seed(args.seed)
    budget = args.minutes * 60.0
    planned = args.steps
    plan = StepPlan(args.lr, args.lr_final, args.warmup, planned)
    step, epoch, best, best_state, since_best, best_epoch = 0, 0, float("inf"), None, 0, 0
    history = []
    t_train = time.time()
    stop_reason = "budget"
    t_val = time.time()
    stop = False
    while True:
        epoch += 1
        perm = epoch_frames.index_select(0, torch.randperm(len(epoch_frames), generator=gen)).to(device)
        t_epoch = time.time()
        run_loss = 0.0
        n_batches = 0
        for b in range(0, len(perm) - global_batch + 1, global_batch):
            ids = perm[b + rank * args.batch:b + (rank + 1) * args.batch]
            loss = batch_loss(model, train, ids, args.w_forces, args.w_energy, args.force_weighting, dtype)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            over = (planned and step + 1 >= planned) or time.time() - t_train > budget
            if world > 1:
                # one all-reduce a step: the gradients (averaged) and the ranks' stop flags (summed)
                grads = [p_.grad if p_.grad is not None else torch.zeros_like(p_) for p_ in params]
                flat = torch.cat([g.reshape(-1) for g in grads] + [torch.tensor([float(over)], device=device)])
                dist.all_reduce(flat)
                over = bool(flat[-1] > 0)   # a sync a step, as float(loss) would be
                flat = flat[:-1] / world
                k = 0
                for p_ in params:
                    n_ = p_.numel()
                    p_.grad = flat[k:k + n_].view_as(p_)
                    k += n_
            torch.nn.utils.clip_grad_norm_(params, 10.0)
            lr = plan.rate(step)   # linear warm-up, then exponential decay to lr_final at the planned last step
            for g in opt.param_groups:
                g["lr"] = lr
            opt.step()
            ema_update(ema, model, min(args.ema, (1.0 + step) / (10.0 + step)))
            step += 1
            n_batches += 1
            run_loss += float(loss) if n_batches % 50 == 0 else 0.0
            if over:
                stop = True
                break
        epoch_s = time.time() - t_epoch
        if not args.steps and not stop:
            # plan the rest of the run from the last epoch's speed, after every epoch (epoch 1 includes the warm-up;
            # a GPU shared for a while runs slower, then faster), leaving 4 % of the remaining budget for validations
            new = plan.steps_for(step, budget - (time.time() - t_train), epoch_s, n_batches)
            if world > 1:   # rank 0's plan for every rank
                t_ = torch.tensor([new], device=device)
                dist.broadcast(t_, 0)
                new = int(t_)
            if epoch <= 2 or abs(new - planned) > 0.02 * planned:
                print(f"epoch {epoch}: {n_batches} steps in {epoch_s:.1f} s ({1e3 * epoch_s / n_batches:.1f} ms/step); "
                      f"planned {new} steps (~{new / n_batches:.0f} epochs)", flush=True)
            plan.replan(step, new)
            planned = new
        last = stop or step >= planned
        if args.val_every_s > 0 and not last and time.time() - t_val < args.val_every_s:
            continue
        t_val = time.time()
        if rank != 0:
            if last:
                break
            continue
        m = evaluate(ema, val, device)["all"]
        fkey = "force_mse" if args.force_weighting == "atom" else "force_mse_per_structure"
        vloss = args.w_forces * m[fkey] + args.w_energy * m["energy_mse"]
        score = selection_score(m, args.select, args.w_forces, args.w_energy, args.force_weighting)
        history.append(dict(epoch=epoch, step=step, lr=lr, seconds=round(time.time() - t_train, 1),
                            val_loss=vloss, val_force_mse=m[fkey], val_force_mae=m["force_mae_ev_per_a"],
                            val_energy_mae_mev_per_atom=m["energy_mae_mev_per_atom"]))
        if score < best:
            best, since_best, best_epoch = score, 0, epoch
            best_state = {k: v.detach().clone() for k, v in ema.state_dict().items()}
            if args.checkpoint:
                os.makedirs(args.out, exist_ok=True)
                np.savez(os.path.join(args.out, "checkpoint.npz"),
                         **{k: v.detach().cpu().float().numpy() for k, v in spec_state(ema)})
        else:
            since_best += 1
        if epoch % 5 == 1 or step >= planned or args.val_every_s > 0:
            print(f"epoch {epoch:4d} step {step:6d} lr {lr:.2e}  val F MAE {m['force_mae_ev_per_a']:.4f} eV/Å"
                  f"  E MAE {m['energy_mae_mev_per_atom']:.2f} meV/atom  ({time.time() - t_train:.0f} s)", flush=True)
        if step >= planned:
            stop_reason = "planned steps done"
            break
        if stop:
            stop_reason = "time budget"
            break
        if since_best >= args.patience and world == 1:
            stop_reason = f"no validation improvement in {args.patience} validations"
            break
    ranks_agree = None
    if world > 1:
        # every rank must hold the same weights (same start, same averaged gradients, same Adam): a check of the
        # data-parallel contract that costs two small collectives, recorded in the train log
        with torch.no_grad():
            sums = torch.stack([p_.detach().double().sum() for p_ in params])
            lo, hi = sums.clone(), sums.clone()
            dist.all_reduce(lo, op=dist.ReduceOp.MIN)
            dist.all_reduce(hi, op=dist.ReduceOp.MAX)
            ranks_agree = bool(torch.equal(lo, hi))
        if not ranks_agree:
            print(f"warning: the {world} ranks ended with different weights (largest spread of a tensor's sum "
                  f"{float((hi - lo).abs().max()):.3e}): the data-parallel run is not one model", flush=True)
        dist.destroy_process_group()
    if rank != 0:
        return

    os.makedirs(args.out, exist_ok=True)
    np.savez(os.path.join(args.out, "state_last.npz"),   # the run's end, whatever the selection kept
             **{k: v.detach().cpu().float().numpy() for k, v in spec_state(ema)})
    ema.load_state_dict(best_state)
    final = dict(val=evaluate(ema, val, device))
    if test:
        final["test"] = evaluate(ema, test, device)
    os.makedirs(args.out, exist_ok=True)
    np.savez(os.path.join(args.out, "state.npz"),
             **{k: v.detach().cpu().float().numpy() for k, v in spec_state(ema)})
    settings = dict(vars(args), species=SPECIES, atomref=list(map(float, atomref)), scale=scale,
                    trainable_parameters=n_params, train_frames=len(train), val_frames=len(val),
                    steps=step, planned_steps=planned, plans=plan.history, epochs=epoch, stop_reason=stop_reason,
                    best_epoch=best_epoch,
                    ranks=world, ranks_agree=ranks_agree,
                    torch=torch.__version__, device_name=torch.cuda.get_device_name(0) if device.type == "cuda" else "cpu",
                    train_seconds=round(time.time() - t_train, 1), total_seconds=round(time.time() - t0, 1))
    with open(os.path.join(args.out, "train_log.json"), "w") as f:
        json.dump(dict(settings=settings, final=final, history=history), f, indent=1)
    text = [f"stopped: {stop_reason}; {step} steps, {epoch} epochs, {time.time() - t_train:.0f} s training, "
            f"kept epoch {best_epoch} (--select {args.select}: {best:.5f})",
            table(f"validation (EMA weights of epoch {best_epoch})", final["val"])]
    if test:
        text.append(table("test (independent 300 K GFN2-xTB MD)", final["test"]))
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write("\n".join(text) + "\n")
    print("\n".join(text))


if __name__ == "__main__":
    main()
