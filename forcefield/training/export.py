#!/usr/bin/python3
"""Exports a trained state (state.npz from train.py) as the shipped safetensors weights and a
TorchScript module. Run with Debian's torch 1.13 (/usr/bin/python3) so that DJL's libtorch 2.7.1
loads the TorchScript file.

    /usr/bin/python3 forcefield/training/export.py --state OUT/state.npz --log OUT/train_log.json

The metadata carry the model's domain (`domain`: the atom environments of the training data, domain.py,
docs/model.md). Writes (defaults):
  forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2-vN.safetensors, N one above the highest
  registered version (student-gfn2-v6 while v5, whose file is student-gfn2.safetensors, is the highest), never over
  a bundled version; register it with a
  line `student-gfn2-vN = student-gfn2-vN.safetensors` in models.properties there, and make it the default with
  `default = student-gfn2-vN`  (F32, spec names)
  forcefield-torchscript/src/main/resources/org/molten/forcefield/torchscript/student-gfn2.pt        (TorchScript, float64)
The TorchScript module holds the same float32 weight values, widened to float64, and computes in
float64: it is the double-precision baseline the Java students are compared with.
forward(atomic_numbers int64 [N], positions [N,3] Å) -> (energy [] eV, forces [N,3] eV/Å); forces by
torch.autograd.grad inside forward (gradient mode must be on in the caller).
"""
import argparse
import datetime
import json
import os
import subprocess
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import domain  # noqa: E402
import safetensors_io  # noqa: E402
from dataset import load_split  # noqa: E402
from model import PaiNN, ScriptedPaiNN, spec_state  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
STUDENT = os.path.join(REPO, "forcefield/src/main/resources/org/molten/forcefield/student")


def registry():
    """models.properties, the registry org.molten.forcefield.bundled.ModelRegistry reads: {name: file, "default": name}."""
    entries = {}
    with open(os.path.join(STUDENT, "models.properties"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                entries[k.strip()] = v.strip()
    return entries


def bundled_weights(name=None):
    """The weight file of a bundled version (default: the default one)."""
    entries = registry()
    return os.path.join(STUDENT, entries[name or entries["default"]])


def next_version_weights():
    """student-gfn2-v(N+1).safetensors, N the highest registered version: a new export never overwrites a bundled
    version (v5 stays loadable by name); register it with a line in models.properties."""
    versions = [int(k[len("student-gfn2-v"):]) for k in registry() if k.startswith("student-gfn2-v")
                and k[len("student-gfn2-v"):].isdigit()]
    return os.path.join(STUDENT, f"student-gfn2-v{max(versions, default=0) + 1}.safetensors")


WEIGHTS = bundled_weights()   # the default version, what md_check.py reads
TORCHSCRIPT = os.path.join(REPO, "forcefield-torchscript/src/main/resources/org/molten/forcefield/torchscript/student-gfn2.pt")
TESTSET = os.path.join(REPO, "forcefield/src/main/resources/org/molten/forcefield/student/testset")


def build(state, settings):
    model = PaiNN(settings["species"], settings["hidden"], settings["layers"], settings["n_rbf"],
                  settings["cutoff"], settings["gamma"])
    sd = {k: torch.from_numpy(np.asarray(v, dtype=np.float32)) for k, v in state.items()}
    model.load_state_dict(sd, strict=True)
    return model


def training_description(settings, given=None):
    """The metadata's training line: GIVEN where the weights come from elsewhere (e.g. interpolate.py), `{train}` in
    it standing for the train.py run of the log's settings (device_organic.sh's soup: INIT and that run averaged),
    else that run's line."""
    if given and "{train}" not in given:
        return given
    own = (f"train.py: {settings['steps']} steps, batch {settings['batch']}, lr {settings['lr']} -> "
           f"{settings['lr_final']}, w_forces {settings['w_forces']}, w_energy {settings['w_energy']}, "
           f"EMA {settings['ema']}, seed {settings['seed']}, torch {settings['torch']} on {settings['device_name']}")
    return given.replace("{train}", own) if given else own


def domain_data(given, settings):
    """The folders or files the domain is read from: --domain-data, else the train log's data setting (a path or
    a list of paths, relative to the repository when not absolute)."""
    if given:
        return given
    data = settings.get("data")
    if not data:
        raise SystemExit("export.py: the train log names no data folder; give --domain-data DIR...")
    data = [data] if isinstance(data, str) else list(data)
    return [d if os.path.isabs(d) else os.path.join(REPO, d) for d in data]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", required=True, help="state.npz written by train.py")
    ap.add_argument("--log", required=True, help="train_log.json written by train.py")
    ap.add_argument("--weights", default=next_version_weights(),
                    help="output weight file (default: the next version beside the bundled ones, %(default)s)")
    ap.add_argument("--torchscript", default=TORCHSCRIPT)
    ap.add_argument("--testset", default=TESTSET)
    ap.add_argument("--dataset", default=None, help="dataset description for the metadata (default: the v1 data set)")
    ap.add_argument("--training-commit", default=None, help="commit of the training code and data (default: HEAD)")
    ap.add_argument("--training", default=None,
                    help="the metadata's training line (default: train.py's run from the log; say so where the weights "
                         "come from elsewhere, e.g. interpolate.py; {train} in it stands for that run's line)")
    ap.add_argument("--domain-data", nargs="+", default=None, metavar="DIR",
                    help="training data whose atom environments become the `domain` metadata entry (domain.py; default: "
                         "the data folder(s) the train log names, settings.data)")
    args = ap.parse_args()

    with open(args.log) as f:
        log = json.load(f)
    settings = log["settings"]
    state = dict(np.load(args.state))
    model = build(state, settings).eval()
    commit = args.training_commit or subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, text=True,
                                                    stdout=subprocess.PIPE).stdout.strip()
    meta = {
        "architecture": "painn",
        "species": ",".join(str(z) for z in settings["species"]),
        "hidden": str(settings["hidden"]), "layers": str(settings["layers"]), "n_rbf": str(settings["n_rbf"]),
        "cutoff": repr(float(settings["cutoff"])), "gamma": repr(float(settings["gamma"])),
        "teacher": "GFN2-xTB (xtb 6.5.1)",
        "dataset": args.dataset or (f"molten-gfn2-v1: water, ethanol, benzene, alanine-dipeptide, ace-ala5-nme, water clusters (H2O)2-8; "
                    f"{settings['train_frames']} train / {settings['val_frames']} validation frames "
                    "(forcefield/training/data, recipe forcefield/training/generate_data.py)"),
        "training_commit": commit,
        "created": datetime.date.today().isoformat(),
        "units": "positions Å, energy eV, forces eV/Å",
        "training": training_description(settings, args.training),
    }
    try:
        dom = domain.of_files(domain_data(args.domain_data, settings)).to_json()
    except ValueError as e:
        raise SystemExit(f"export.py: cannot read the training data for the domain entry ({e}); give the folders the "
                         "model was trained on with --domain-data DIR...")
    meta[domain.METADATA_KEY] = domain.metadata_value(dom)
    print(f"domain: {len(dom['environments'])} environments ({len(dom['typical_in_molecules'])} typical) of "
          f"{dom['molecule_count']} molecules, {dom['frames']} frames")
    tensors = [(k, v.detach().numpy().astype(np.float32)) for k, v in spec_state(model)]
    os.makedirs(os.path.dirname(args.weights), exist_ok=True)
    safetensors_io.write(args.weights, tensors, meta)
    back, meta_back = safetensors_io.read(args.weights)
    assert meta_back == meta and all(np.array_equal(back[k], v) for k, v in tensors)

    scripted = torch.jit.script(ScriptedPaiNN(build(back, settings).double().eval()))
    os.makedirs(os.path.dirname(args.torchscript), exist_ok=True)
    scripted.save(args.torchscript)
    loaded = torch.jit.load(args.torchscript)

    # Check: the TorchScript file against the eager float64 model on the test set.
    test = load_split(args.testset, None)
    eager = build(back, settings).double()
    worst_f, worst_e = 0.0, 0.0
    for m in range(len(test)):
        a, b = int(test.ptr[m]), int(test.ptr[m + 1])
        z, pos = test.z[a:b], test.pos[a:b].double()
        e_s, f_s = loaded(z, pos)
        e_e, f_e = eager(z, pos.clone(), torch.zeros_like(z), 1)
        worst_e = max(worst_e, abs(float(e_s) - float(e_e[0])))
        worst_f = max(worst_f, float((f_s - f_e).abs().max()))
    print(f"wrote {args.weights} ({os.path.getsize(args.weights)} bytes) and {args.torchscript} "
          f"({os.path.getsize(args.torchscript)} bytes)")
    print(f"TorchScript vs eager on {len(test)} test frames: max |dE| {worst_e:.2e} eV, max |dF| {worst_f:.2e} eV/Å")
    print(json.dumps(meta, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
