#!/usr/bin/python3
"""train.py's data-parallel contract on the CPU (gloo): two ranks end at the same step with the same weights.

    /usr/bin/python3 -m unittest forcefield/training/test_train_parallel.py
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DataParallelTest(unittest.TestCase):
    def test_two_ranks_end_together_holding_one_model(self):
        with tempfile.TemporaryDirectory() as tmp:
            data = os.path.join(tmp, "data")
            os.makedirs(data)
            for split in ("train", "val"):   # water: the smallest of v1-v5's systems (3 atoms a frame)
                shutil.copy(os.path.join(HERE, "data", f"water.{split}.xyz.gz"), data)
            out = os.path.join(tmp, "out")
            env = dict(os.environ, MASTER_ADDR="127.0.0.1", MASTER_PORT=str(free_port()), WORLD_SIZE="2",
                       OMP_NUM_THREADS="1", CUDA_VISIBLE_DEVICES="")
            cmd = [sys.executable, os.path.join(HERE, "train.py"), "--data", data, "--out", out, "--steps", "6",
                   "--batch", "8", "--warmup", "2", "--hidden", "16", "--layers", "2", "--n-rbf", "8", "--device", "cpu",
                   "--seed", "7"]
            procs = [subprocess.Popen(cmd, env=dict(env, RANK=str(r), LOCAL_RANK=str(r)), stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True) for r in (1, 0)]
            outs = [p.communicate(timeout=240)[0] for p in procs]
            for p, text in zip(procs, outs):
                self.assertEqual(0, p.returncode, text[-3000:])
            with open(os.path.join(out, "train_log.json")) as f:
                settings = json.load(f)["settings"]
            self.assertEqual(6, settings["steps"])
            self.assertEqual(2, settings["ranks"])
            self.assertIs(True, settings["ranks_agree"], outs[1][-2000:])
            # the run's end is kept beside the selected state (train.py --select)
            self.assertTrue(os.path.isfile(os.path.join(out, "state_last.npz")))
            self.assertEqual("force-mae", settings["select"])
            self.assertIn(settings["best_epoch"], range(1, settings["epochs"] + 1))


if __name__ == "__main__":
    unittest.main()
