#!/usr/bin/env python3
"""The test_*.py modules of a folder, each in its own `python3 -m unittest MODULE` process, JOBS at a time: the
recipe's suite (~420 s on one core, its test_ring_pool alone ~160 s) in about half that on CI's two cores, and the
device-script tests, which mostly wait on stubbed sleeps, side by side.

    python3 forcefield/training/parallel_unittest.py [--jobs 2] [--start DIR]

Prints each module's output in name order (a module's line: its tests, seconds, OK or FAILED), then unittest's own
closing lines over the whole run, "Ran N tests in S s" and "OK" or "FAILED (modules=...)", and exits 1 when any module
failed or could not be imported. Why not stestr or pytest-xdist: both split a module's classes over processes, so the
ring-pool draws would each enumerate the 140,876 candidates again (~25 s each) and their class fixtures would run
twice; one process a module keeps `python3 -m unittest discover`'s behaviour exactly, with no new dependency.
"""
import argparse
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

RAN = re.compile(r"^Ran (\d+) tests? in ", re.M)


def modules(start):
    """The test_*.py module names of start (no subfolders, as `unittest discover -s START -p 'test_*.py'` here)."""
    return sorted(f[:-3] for f in os.listdir(start) if f.startswith("test_") and f.endswith(".py"))


def run_module(start, name):
    """(name, exit code, tests run, seconds, output) of one module run alone in its own interpreter."""
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "unittest", name], cwd=start, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    m = RAN.search(p.stdout)
    return name, p.returncode, int(m.group(1)) if m else 0, time.monotonic() - t0, p.stdout


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jobs", type=int, default=2, help="modules run at once (processes), >= 1")
    ap.add_argument("--start", default=".", help="the folder whose test_*.py modules run (default: here)")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        raise SystemExit(f"parallel_unittest.py: --jobs {args.jobs}: give 1 or more")
    if not os.path.isdir(args.start):
        raise SystemExit(f"parallel_unittest.py: --start {args.start}: no such folder")
    names = modules(args.start)
    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda n: run_module(args.start, n), names))
    failed = []
    for name, rc, ran, seconds, out in results:
        print(f"== {name}: {ran} tests, {seconds:.1f} s, {'OK' if rc == 0 else 'FAILED'}")
        print(out.rstrip())
        if rc != 0 or not RAN.search(out):
            failed.append(name)
    print("-" * 70)
    print(f"Ran {sum(r[2] for r in results)} tests in {time.monotonic() - t0:.3f}s ({len(names)} modules, "
          f"{args.jobs} at a time)")
    print()
    if not names:
        print(f"FAILED (no test_*.py module in {args.start})")
    else:
        print(f"FAILED (modules={','.join(failed)})" if failed else "OK")
    return 1 if failed or not names else 0


if __name__ == "__main__":
    sys.exit(main())
