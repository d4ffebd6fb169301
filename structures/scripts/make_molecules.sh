#!/usr/bin/env bash
# Regenerates Molten's built-in molecule geometries (structures/src/main/resources/org/molten/structures/molecules).
#
# Each molecule: SMILES -> 3-D guess with Open Babel (--gen3d) -> GFN2-xTB geometry optimisation
# (xtb --opt tight) so that it starts at the teacher's minimum (the bundled student model is distilled from
# GFN2-xTB). The comment line records the source and the GFN2-xTB energy in eV. TRIES=n sets the number of
# conformer starts per molecule (default 8; the lowest minimum is kept).
# Needs: obabel (3.1), xtb (6.x). Run from anywhere: structures/scripts/make_molecules.sh
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../src/main/resources/org/molten/structures/molecules"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_STACKSIZE=1G

HARTREE_EV=27.211386245988

# name|SMILES|description
molecules=(
  "water|O|water, H2O"
  "ethanol|CCO|ethanol, C2H5OH"
  "benzene|c1ccccc1|benzene, C6H6"
  "alanine-dipeptide|CC(=O)N[C@@H](C)C(=O)NC|alanine dipeptide, Ace-Ala-NMe (L-Ala), C6H12N2O2"
  "ace-ala5-nme|CC(=O)N[C@@H](C)C(=O)N[C@@H](C)C(=O)N[C@@H](C)C(=O)N[C@@H](C)C(=O)N[C@@H](C)C(=O)NC|Ace-(Ala)5-NMe (L-Ala), C18H32N6O6"
)

TRIES=${TRIES:-8}

for entry in "${molecules[@]}"; do
  IFS='|' read -r name smiles desc <<<"$entry"
  d="$work/$name"
  mkdir -p "$d"
  (
    cd "$d"
    # Open Babel's --gen3d conformer search is stochastic (no seed option), so a rerun can land in another
    # conformer. Take the lowest GFN2-xTB minimum of $TRIES independent starts; the committed files are the
    # reference geometries, this script documents how they were made.
    best=""
    best_e=""
    for t in $(seq 1 "$TRIES"); do
      mkdir -p "try$t"
      (
        cd "try$t"
        obabel -:"$smiles" --gen3d -h -oxyz -O start.xyz 2>obabel.log
        xtb start.xyz --opt tight --gfn 2 >xtb.log 2>&1 || { cat xtb.log; exit 1; }
        grep -q "GEOMETRY OPTIMIZATION CONVERGED" xtb.log || { echo "$name: xtb optimisation did not converge" >&2; exit 1; }
      )
      e=$(awk 'NR==2 {for (i=1;i<=NF;i++) if ($i=="energy:") print $(i+1)}' "try$t/xtbopt.xyz")
      if [ -z "$best" ] || awk -v a="$e" -v b="$best_e" 'BEGIN {exit !(a < b - 1e-6)}'; then
        best="try$t"
        best_e="$e"
      fi
    done
    e_ev=$(awk -v e="$best_e" -v f="$HARTREE_EV" 'BEGIN {printf "%.6f", e*f}')
    n=$(head -1 "$best/xtbopt.xyz" | tr -d ' ')
    # Comment line in extended-XYZ key=value form so that ASE, OVITO and Molten all parse it.
    # Coordinates are shifted so that the centre of mass sits at the origin.
    {
      echo "$n"
      echo "Properties=species:S:1:pos:R:3 name=$name description=\"$desc\" smiles=\"$smiles\" method=\"Open Babel 3.1 --gen3d, GFN2-xTB opt tight\" gfn2_xtb_energy_eV=$e_ev"
      tail -n +3 "$best/xtbopt.xyz" | awk '
        BEGIN { m["H"]=1.008; m["C"]=12.011; m["N"]=14.007; m["O"]=15.999 }
        NF==4 { if (!($1 in m)) { print "no mass for " $1 > "/dev/stderr"; exit 1 }
                n++; s[n]=$1; x[n]=$2; y[n]=$3; z[n]=$4; w=m[$1]; M+=w; cx+=w*$2; cy+=w*$3; cz+=w*$4 }
        END   { for (i=1;i<=n;i++) printf "%-2s %14.8f %14.8f %14.8f\n", s[i], x[i]-cx/M, y[i]-cy/M, z[i]-cz/M }'
    } >"$out/$name.xyz"
  )
  echo "$name: $(head -1 "$out/$name.xyz") atoms, E(GFN2-xTB) = $(sed -n 2p "$out/$name.xyz" | sed 's/.*gfn2_xtb_energy_eV=//') eV"
done
