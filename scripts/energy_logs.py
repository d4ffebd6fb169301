"""Energy logs of `molten run --log` (a "#" comment, the CSV header Time[ps],Etot[eV],..., then rows) compared and
fitted for the device checks of issue 28 (cluster-constraints-check-run.sh, constraint-groups-check-run.sh).

  energy_logs.py compare LABEL NAME_A A.log NAME_B B.log   |Etot(A) - Etot(B)|: first row, first ps, whole run
  energy_logs.py drift LABEL LOG ATOMS                      least-squares slope of Etot, eV/ps and meV/atom/ps"""
import os
import sys


def rows(path):
    """The log's data rows as lists of strings."""
    with open(path) as f:
        return [l.strip().split(",") for l in f if l.strip() and not l.startswith("#") and not l.startswith("Time")]


def compare(label, name_a, a, name_b, b):
    """One line: both logs' lengths and |Etot(a) - Etot(b)| at the first row, over the first ps (by the log's own
    times) and over the rows both hold. Two kernels that sum forces in different orders agree to float32 rounding at
    the start; trajectories then part as chaos allows (Langevin's noise keeps it in check)."""
    if not (os.path.exists(a) and os.path.exists(b)):
        return f"{label}: missing log"
    ra, rb = rows(a), rows(b)
    if not ra or not rb:
        return f"{label}: empty log"
    d = [abs(float(x[1]) - float(y[1])) for x, y in zip(ra, rb)]
    first_ps = [e for e, x in zip(d, ra) if float(x[0]) - float(ra[0][0]) <= 1.0]
    return (f"{label}: {name_a} {len(ra)} and {name_b} {len(rb)} log lines; |Etot({name_a}) - Etot({name_b})| first "
            f"{d[0]:.2e} eV, max over the first 1 ps {max(first_ps):.2e} eV, over the run {max(d):.2e} eV")


def drift(label, path, atoms):
    """One line: the least-squares slope of Etot over time (eV/ps, and meV per atom per ps) and its span."""
    r = rows(path)
    if len(r) < 2:
        return f"{label}: too few rows for a drift"
    t = [float(x[0]) for x in r]
    e = [float(x[1]) for x in r]
    mt, me = sum(t) / len(t), sum(e) / len(e)
    slope = sum((x - mt) * (y - me) for x, y in zip(t, e)) / sum((x - mt) ** 2 for x in t)
    return (f"{label}: Etot slope {slope:.3e} eV/ps = {slope / atoms * 1e3:.4f} meV/atom/ps; "
            f"span {max(e) - min(e):.3e} eV over {t[-1] - t[0]:.1f} ps")


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "compare":
        print(compare(*sys.argv[2:7]))
    elif len(sys.argv) == 5 and sys.argv[1] == "drift":
        print(drift(sys.argv[2], sys.argv[3], int(sys.argv[4])))
    else:
        sys.exit(__doc__)
