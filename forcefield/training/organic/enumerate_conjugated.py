#!/usr/bin/python3
"""The conjugated pool: hand-named conjugated pi systems for training, beside the list and the small-molecule pool.

    /usr/bin/python3 forcefield/training/organic/enumerate_conjugated.py            # writes conjugated.csv
    /usr/bin/python3 forcefield/training/organic/enumerate_conjugated.py --starts   # and starts.conjugated.xyz.gz

Why (issue 27, round 5): the preview's worst independent molecules carry a constant bond-length bias that alternates
in sign along conjugated paths (scripts/probes/bond_bias_probe.py, runs/organic-round5/bond-bias-probe.txt:
tetracyanoethylene, ethylene, methanimine, 1,3-benzodioxole, sesamol, coumarin, isatin, menadione, pyrene; 85-97 % of
their bond-stretch error is that offset), while the conjugated molecules it trains on are fitted well (acrylonitrile,
styrene, naphthalene, indole, ...: 0.011-0.042 eV/Å). The model misses the bond alternation of pi systems it has not
seen: the list lacks conjugated diversity. This pool adds it: polyenes and polyynes, enones and ynones,
cross-conjugated systems, quinones and quinone methides, polycyano and nitro alkenes and arenes, push-pull alkenes and
arenes, azines, azo and aryl imines, fused and biaryl (hetero)aromatics on ring scaffolds no test molecule has, and
aryl-conjugated carbonyls and nitriles.

Rows are CURATED below (name, SMILES, category), written out in that order with RDKit canonical isomeric SMILES. Every
row must pass the list's rules (enumerate.py: problems() and UNWANTED: H/C/N/O, neutral with nitro allowed, one
fragment, closed shell, no enols, primary/secondary enamines, peroxides, ...), have 6..42 atoms with hydrogens and
embed with ETKDG (seeded), be new (its canonical SMILES in neither molecules.csv, train or test, nor small.csv, nor
twice here), be no test molecule nor one of its stereoisomers (enumerate.test_keys: stereo removed) and, if it has
a ring, have a Bemis-Murcko scaffold (chirality ignored, enumerate.scaffold) that no test molecule has. A row that
breaks a rule is an error naming it, not a silent drop: the list is hand-made.
Every row is a training molecule; organic_data.py --conjugated never holds one out for validation.

The starts (--starts): make_starts.py's conformers (ETKDG v3 + MMFF94, 3 per molecule, the bond-graph check) with its
seed_for, rows indexed and seeded from CONJUGATED_INDEX (the list's rows from 0, small.csv's from 100,000), only
conformers whose geometry keeps the SMILES's E/Z and R/S (conformers()), written as make_starts.py writes them
(split=conjugated).
"""
import argparse
import csv
import os
import sys
import time

from rdkit import Chem, RDLogger

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from enumerate import MASTER_SEED, MOLECULES, UNWANTED, embeds, problems, scaffold, stereo_free, test_keys  # noqa: E402
from enumerate_small import write  # noqa: E402  (name,smiles,category rows, as small.csv)

CONJUGATED = os.path.join(HERE, "conjugated.csv")
SMALL = os.path.join(HERE, "small.csv")
STARTS = os.path.join(HERE, "starts.conjugated.xyz.gz")
CONJUGATED_INDEX = 200000   # rows indexed (and seeded) from here by the starts; small.csv's from 100,000
MIN_ATOMS, MAX_ATOMS = 6, 42
CATEGORIES = ("polyene", "polyyne", "enone", "cross_conjugated", "quinone", "cyano_nitro", "push_pull", "azo_imine",
              "fused_aromatic", "biaryl", "aryl_alkene", "aryl_acceptor")

CURATED = (
    # polyene: linear, branched and cyclic (non-aromatic) conjugated C=C chains
    ("(Z)-1,3-pentadiene", "C/C=C\\C=C", "polyene"),
    ("2,3-dimethyl-1,3-butadiene", "C=C(C)C(C)=C", "polyene"),
    ("(E,E)-2,4-hexadiene", "C/C=C/C=C/C", "polyene"),
    ("(E,E)-1,3,5-heptatriene", "C=C/C=C/C=C/C", "polyene"),
    ("(E,E,E)-2,4,6-octatriene", "C/C=C/C=C/C=C/C", "polyene"),
    ("(E,E)-1,3,5,7-octatetraene", "C=C/C=C/C=C/C=C", "polyene"),
    ("(all-E)-1,3,5,7,9-decapentaene", "C=C/C=C/C=C/C=C/C=C", "polyene"),
    ("(all-E)-2,4,6,8,10-dodecapentaene", "C/C=C/C=C/C=C/C=C/C=C/C", "polyene"),
    ("alloocimene", "C/C=C(C)/C=C/C=C(C)C", "polyene"),
    ("1,3,5-cycloheptatriene", "C1=CC=CCC=C1", "polyene"),
    ("cyclooctatetraene", "C1=CC=CC=CC=C1", "polyene"),
    ("alpha-terpinene", "CC(C)C1=CC=C(C)CC1", "polyene"),
    ("1-vinylcyclohexene", "C=CC1=CCCCC1", "polyene"),
    # polyyne: polyynes, enynes and aryl alkynes
    ("2,4-hexadiyne", "CC#CC#CC", "polyyne"),
    ("1,3,5-hexatriyne", "C#CC#CC#C", "polyyne"),
    ("2,4,6-octatriyne", "CC#CC#CC#CC", "polyyne"),
    ("(E)-3-penten-1-yne", "C#C/C=C/C", "polyyne"),
    ("(E)-3-hexene-1,5-diyne", "C#C/C=C/C#C", "polyyne"),
    ("(Z)-3-hexene-1,5-diyne", "C#C/C=C\\C#C", "polyyne"),
    ("1,5-hexadien-3-yne", "C=CC#CC=C", "polyyne"),
    ("cyanobutadiyne", "C#CC#CC#N", "polyyne"),
    ("diphenylacetylene", "C(#Cc1ccccc1)c1ccccc1", "polyyne"),
    ("1,4-diphenylbutadiyne", "C(#CC#Cc1ccccc1)c1ccccc1", "polyyne"),
    ("1-phenyl-1,3-butadiyne", "C#CC#Cc1ccccc1", "polyyne"),
    # enone: alpha,beta-unsaturated carbonyls, dienals, dienones, ynones, unsaturated esters, amides, anhydrides
    ("(E)-2,4-pentadienal", "C=C/C=C/C=O", "enone"),
    ("(E,E)-2,4-hexadienal", "C/C=C/C=C/C=O", "enone"),
    ("(E,E,E)-2,4,6-octatrienal", "C/C=C/C=C/C=C/C=O", "enone"),
    ("sorbic acid", "C/C=C/C=C/C(=O)O", "enone"),
    ("methyl sorbate", "C/C=C/C=C/C(=O)OC", "enone"),
    ("dimethyl (E,E)-muconate", "COC(=O)/C=C/C=C/C(=O)OC", "enone"),
    ("(E)-3-penten-2-one", "C/C=C/C(C)=O", "enone"),
    ("(E)-3-hexene-2,5-dione", "CC(=O)/C=C/C(C)=O", "enone"),
    ("dimethyl maleate", "COC(=O)/C=C\\C(=O)OC", "enone"),
    ("N,N-dimethylacrylamide", "C=CC(=O)N(C)C", "enone"),
    ("3-methyl-2-cyclohexen-1-one", "CC1=CC(=O)CCC1", "enone"),
    ("isophorone", "CC1=CC(=O)CC(C)(C)C1", "enone"),
    ("beta-ionone", "CC(=O)/C=C/C1=C(C)CCCC1(C)C", "enone"),
    ("N-methylmaleimide", "CN1C(=O)C=CC1=O", "enone"),
    ("N-phenylmaleimide", "O=C1C=CC(=O)N1c1ccccc1", "enone"),
    ("2-pyrone", "O=c1cccco1", "enone"),
    ("methyl propiolate", "C#CC(=O)OC", "enone"),
    ("dimethyl acetylenedicarboxylate", "COC(=O)C#CC(=O)OC", "enone"),
    # cross_conjugated: fulvenes, dendralenes, divinyl ketones, cyclohexadienones, tropone, 4-pyrones
    ("fulvene", "C=C1C=CC=C1", "cross_conjugated"),
    ("6,6-dimethylfulvene", "CC(C)=C1C=CC=C1", "cross_conjugated"),
    ("6,6-diphenylfulvene", "C1=CC(=C(c2ccccc2)c2ccccc2)C=C1", "cross_conjugated"),
    ("[3]dendralene", "C=CC(=C)C=C", "cross_conjugated"),
    ("[4]dendralene", "C=CC(=C)C(=C)C=C", "cross_conjugated"),
    ("divinyl ketone", "C=CC(=O)C=C", "cross_conjugated"),
    ("phorone", "CC(C)=CC(=O)C=C(C)C", "cross_conjugated"),
    ("4,4-dimethyl-2,5-cyclohexadien-1-one", "CC1(C)C=CC(=O)C=C1", "cross_conjugated"),
    ("tropone", "O=C1C=CC=CC=C1", "cross_conjugated"),
    ("4-pyrone", "O=c1ccocc1", "cross_conjugated"),
    ("2,6-dimethyl-4-pyrone", "Cc1cc(=O)cc(C)o1", "cross_conjugated"),
    ("1,1-diphenylethylene", "C=C(c1ccccc1)c1ccccc1", "cross_conjugated"),
    ("triphenylethylene", "C(=C(c1ccccc1)c1ccccc1)c1ccccc1", "cross_conjugated"),
    # quinone: benzoquinones (no naphthoquinones: menadione is a test molecule), anthraquinones, quinone methides
    ("2-methyl-1,4-benzoquinone", "CC1=CC(=O)C=CC1=O", "quinone"),
    ("2,6-dimethyl-1,4-benzoquinone", "CC1=CC(=O)C=C(C)C1=O", "quinone"),
    ("2,5-dimethyl-1,4-benzoquinone", "CC1=CC(=O)C(C)=CC1=O", "quinone"),
    ("duroquinone", "CC1=C(C)C(=O)C(C)=C(C)C1=O", "quinone"),
    ("thymoquinone", "CC1=CC(=O)C(C(C)C)=CC1=O", "quinone"),
    ("2-methoxy-1,4-benzoquinone", "COC1=CC(=O)C=CC1=O", "quinone"),
    ("2,6-dimethoxy-1,4-benzoquinone", "COC1=CC(=O)C=C(OC)C1=O", "quinone"),
    ("2,3-dimethoxy-5-methyl-1,4-benzoquinone", "COC1=C(OC)C(=O)C(C)=CC1=O", "quinone"),
    ("2-phenyl-1,4-benzoquinone", "O=C1C=CC(=O)C(c2ccccc2)=C1", "quinone"),
    ("1,2-benzoquinone", "O=C1C=CC=CC1=O", "quinone"),
    ("3,5-di-tert-butyl-1,2-benzoquinone", "CC(C)(C)C1=CC(=O)C(=O)C(C(C)(C)C)=C1", "quinone"),
    ("anthraquinone", "O=C1c2ccccc2C(=O)c2ccccc21", "quinone"),
    ("2-methylanthraquinone", "Cc1ccc2c(c1)C(=O)c1ccccc1C2=O", "quinone"),
    ("1-hydroxyanthraquinone", "O=C1c2ccccc2C(=O)c2c(O)cccc21", "quinone"),
    ("9,10-phenanthrenequinone", "O=C1C(=O)c2ccccc2-c2ccccc21", "quinone"),
    ("acenaphthenequinone", "O=C1C(=O)c2cccc3cccc1c23", "quinone"),
    ("2,6-di-tert-butyl-4-methylene-2,5-cyclohexadienone", "C=C1C=C(C(C)(C)C)C(=O)C(C(C)(C)C)=C1", "quinone"),
    ("fuchsone", "O=C1C=CC(=C(c2ccccc2)c2ccccc2)C=C1", "quinone"),
    ("N-phenyl-1,4-benzoquinone monoimine", "O=C1C=CC(=Nc2ccccc2)C=C1", "quinone"),
    ("3,3',5,5'-tetramethyldiphenoquinone", "CC1=CC(=C2C=C(C)C(=O)C(C)=C2)C=C(C)C1=O", "quinone"),
    # cyano_nitro: polycyano and nitro alkenes and arenes (not tetracyanoethylene: a test molecule)
    ("fumaronitrile", "N#C/C=C/C#N", "cyano_nitro"),
    ("maleonitrile", "N#C/C=C\\C#N", "cyano_nitro"),
    ("vinylidene cyanide", "C=C(C#N)C#N", "cyano_nitro"),
    ("ethylidenemalononitrile", "CC=C(C#N)C#N", "cyano_nitro"),
    ("isopropylidenemalononitrile", "CC(C)=C(C#N)C#N", "cyano_nitro"),
    ("tricyanoethylene", "N#CC=C(C#N)C#N", "cyano_nitro"),
    ("dicyanoacetylene", "N#CC#CC#N", "cyano_nitro"),
    ("(E)-crotononitrile", "C/C=C/C#N", "cyano_nitro"),
    ("(E)-2,4-pentadienenitrile", "C=C/C=C/C#N", "cyano_nitro"),
    ("(E,E)-mucononitrile", "N#C/C=C/C=C/C#N", "cyano_nitro"),
    ("methyl 2-cyanoacrylate", "C=C(C#N)C(=O)OC", "cyano_nitro"),
    ("(E)-1-nitropropene", "C/C=C/[N+](=O)[O-]", "cyano_nitro"),
    ("1-nitrocyclohexene", "O=[N+]([O-])C1=CCCCC1", "cyano_nitro"),
    ("(E)-beta-nitrostyrene", "O=[N+]([O-])/C=C/c1ccccc1", "cyano_nitro"),
    ("(E)-1-phenyl-2-nitropropene", "C/C(=C\\c1ccccc1)[N+](=O)[O-]", "cyano_nitro"),
    ("phthalonitrile", "N#Cc1ccccc1C#N", "cyano_nitro"),
    ("isophthalonitrile", "N#Cc1cccc(C#N)c1", "cyano_nitro"),
    ("terephthalonitrile", "N#Cc1ccc(C#N)cc1", "cyano_nitro"),
    ("1,3,5-tricyanobenzene", "N#Cc1cc(C#N)cc(C#N)c1", "cyano_nitro"),
    ("1,2,4,5-tetracyanobenzene", "N#Cc1cc(C#N)c(C#N)cc1C#N", "cyano_nitro"),
    ("2,3-dicyanopyrazine", "N#Cc1nccnc1C#N", "cyano_nitro"),
    ("1,2-dinitrobenzene", "O=[N+]([O-])c1ccccc1[N+](=O)[O-]", "cyano_nitro"),
    ("1,4-dinitrobenzene", "O=[N+]([O-])c1ccc([N+](=O)[O-])cc1", "cyano_nitro"),
    ("1,3,5-trinitrobenzene", "O=[N+]([O-])c1cc([N+](=O)[O-])cc([N+](=O)[O-])c1", "cyano_nitro"),
    ("4-nitrobenzonitrile", "N#Cc1ccc([N+](=O)[O-])cc1", "cyano_nitro"),
    ("2-nitrofluorene", "O=[N+]([O-])c1ccc2c(c1)Cc1ccccc1-2", "cyano_nitro"),
    ("(E)-4,4'-dinitrostilbene", "O=[N+]([O-])c1ccc(/C=C/c2ccc([N+](=O)[O-])cc2)cc1", "cyano_nitro"),
    ("tetracyanoquinodimethane", "N#CC(C#N)=C1C=CC(=C(C#N)C#N)C=C1", "cyano_nitro"),
    ("2-(dicyanomethylene)indane-1,3-dione", "N#CC(C#N)=C1C(=O)c2ccccc2C1=O", "cyano_nitro"),
    # push_pull: tertiary enamines and enol ethers with acceptors, donor-acceptor arenes
    ("(E)-3-(dimethylamino)acrolein", "CN(C)/C=C/C=O", "push_pull"),
    ("(E)-4-(dimethylamino)-3-buten-2-one", "CN(C)/C=C/C(C)=O", "push_pull"),
    ("(E)-3-(dimethylamino)acrylonitrile", "CN(C)/C=C/C#N", "push_pull"),
    ("ethyl (E)-3-(dimethylamino)acrylate", "CCOC(=O)/C=C/N(C)C", "push_pull"),
    ("(dimethylaminomethylene)malononitrile", "CN(C)C=C(C#N)C#N", "push_pull"),
    ("(E)-N,N-dimethyl-2-nitroethenamine", "CN(C)/C=C/[N+](=O)[O-]", "push_pull"),
    ("(E)-3-(dimethylamino)-1-phenyl-2-propen-1-one", "CN(C)/C=C/C(=O)c1ccccc1", "push_pull"),
    ("3-(dimethylamino)-2-cyclohexen-1-one", "CN(C)C1=CC(=O)CCC1", "push_pull"),
    ("6-(dimethylamino)fulvene", "CN(C)C=C1C=CC=C1", "push_pull"),
    ("(E)-4-methoxy-3-buten-2-one", "CO/C=C/C(C)=O", "push_pull"),
    ("methyl (E)-3-methoxyacrylate", "CO/C=C/C(=O)OC", "push_pull"),
    ("(E)-3-methoxyacrylonitrile", "CO/C=C/C#N", "push_pull"),
    ("ethoxymethylenemalononitrile", "CCOC=C(C#N)C#N", "push_pull"),
    ("diethyl ethoxymethylenemalonate", "CCOC=C(C(=O)OCC)C(=O)OCC", "push_pull"),
    ("3-methoxy-2-cyclohexen-1-one", "COC1=CC(=O)CCC1", "push_pull"),
    ("4-(dimethylamino)benzaldehyde", "CN(C)c1ccc(C=O)cc1", "push_pull"),
    ("4-(dimethylamino)benzonitrile", "CN(C)c1ccc(C#N)cc1", "push_pull"),
    ("N,N-dimethyl-4-nitroaniline", "CN(C)c1ccc([N+](=O)[O-])cc1", "push_pull"),
    ("2-nitroaniline", "Nc1ccccc1[N+](=O)[O-]", "push_pull"),
    ("2,4-dinitroaniline", "Nc1ccc([N+](=O)[O-])cc1[N+](=O)[O-]", "push_pull"),
    ("4-nitroanisole", "COc1ccc([N+](=O)[O-])cc1", "push_pull"),
    ("4-methoxybenzonitrile", "COc1ccc(C#N)cc1", "push_pull"),
    ("4-aminobenzonitrile", "Nc1ccc(C#N)cc1", "push_pull"),
    ("4-(dimethylamino)benzylidenemalononitrile", "CN(C)c1ccc(C=C(C#N)C#N)cc1", "push_pull"),
    ("4-(tricyanovinyl)-N,N-dimethylaniline", "CN(C)c1ccc(C(C#N)=C(C#N)C#N)cc1", "push_pull"),
    ("(E)-4-dimethylamino-4'-nitrostilbene", "CN(C)c1ccc(/C=C/c2ccc([N+](=O)[O-])cc2)cc1", "push_pull"),
    ("Michler's ketone", "CN(C)c1ccc(C(=O)c2ccc(N(C)C)cc2)cc1", "push_pull"),
    # azo_imine: azines, azo arenes, aryl imines and hydrazones, cyclic imines conjugated with an arene
    ("acetone azine", "CC(C)=NN=C(C)C", "azo_imine"),
    ("benzalazine", "C(=N/N=C/c1ccccc1)\\c1ccccc1", "azo_imine"),
    ("(Z)-azobenzene", "c1ccc(/N=N\\c2ccccc2)cc1", "azo_imine"),
    ("(E)-4-(dimethylamino)azobenzene", "CN(C)c1ccc(/N=N/c2ccccc2)cc1", "azo_imine"),
    ("(E)-4-nitroazobenzene", "O=[N+]([O-])c1ccc(/N=N/c2ccccc2)cc1", "azo_imine"),
    ("(E)-2-(phenylazo)pyridine", "c1ccc(/N=N/c2ccccn2)cc1", "azo_imine"),
    ("(E)-N-benzylidene-tert-butylamine", "CC(C)(C)/N=C/c1ccccc1", "azo_imine"),
    ("(E)-N-(4-nitrobenzylidene)aniline", "O=[N+]([O-])c1ccc(/C=N/c2ccccc2)cc1", "azo_imine"),
    ("MBBA", "CCCCc1ccc(/N=C/c2ccc(OC)cc2)cc1", "azo_imine"),
    ("N-cinnamylideneaniline", "C(=C/c1ccccc1)\\C=N\\c1ccccc1", "azo_imine"),
    ("N-phenylbenzophenone imine", "c1ccc(C(=Nc2ccccc2)c2ccccc2)cc1", "azo_imine"),
    ("glyoxal bis(tert-butylimine)", "CC(C)(C)/N=C/C=N/C(C)(C)C", "azo_imine"),
    ("glyoxal bis(phenylimine)", "C(=N/c1ccccc1)\\C=N\\c1ccccc1", "azo_imine"),
    ("benzaldehyde N,N-dimethylhydrazone", "CN(C)/N=C/c1ccccc1", "azo_imine"),
    ("(E)-benzaldehyde O-methyloxime", "CO/N=C/c1ccccc1", "azo_imine"),
    ("2,3,3-trimethylindolenine", "CC1=Nc2ccccc2C1(C)C", "azo_imine"),
    ("3,4-dihydroisoquinoline", "C1=NCCc2ccccc21", "azo_imine"),
    ("2-phenyl-1-pyrroline", "C1CC(c2ccccc2)=NC1", "azo_imine"),
    # fused_aromatic: polycyclic and fused heteroaromatic ring systems and fused ketones (no test scaffold)
    ("tetracene", "c1ccc2cc3cc4ccccc4cc3cc2c1", "fused_aromatic"),
    ("chrysene", "c1ccc2c(c1)ccc1c3ccccc3ccc21", "fused_aromatic"),
    ("triphenylene", "c1ccc2c(c1)c1ccccc1c1ccccc21", "fused_aromatic"),
    ("benz[a]anthracene", "c1ccc2cc3c(ccc4ccccc43)cc2c1", "fused_aromatic"),
    ("fluoranthene", "c1ccc2c(c1)-c1cccc3cccc-2c13", "fused_aromatic"),
    ("acenaphthylene", "C1=Cc2cccc3cccc1c23", "fused_aromatic"),
    ("biphenylene", "c1ccc2c(c1)-c1ccccc1-2", "fused_aromatic"),
    ("perylene", "c1cc2cccc3c4cccc5cccc(c(c1)c23)c54", "fused_aromatic"),
    ("corannulene", "c1cc2ccc3ccc4ccc5ccc1c1c2c3c4c51", "fused_aromatic"),
    ("coronene", "c1cc2ccc3ccc4ccc5ccc6ccc1c1c2c3c4c5c61", "fused_aromatic"),
    ("guaiazulene", "CC1=CC=C(C(C)C)C=C2C(C)=CC=C12", "fused_aromatic"),
    ("9-fluorenone", "O=C1c2ccccc2-c2ccccc21", "fused_aromatic"),
    ("dibenzofulvene", "C=C1c2ccccc2-c2ccccc21", "fused_aromatic"),
    ("anthrone", "O=C1c2ccccc2Cc2ccccc21", "fused_aromatic"),
    ("1-indanone", "O=C1CCc2ccccc21", "fused_aromatic"),
    ("1,3-indandione", "O=C1CC(=O)c2ccccc21", "fused_aromatic"),
    ("(E)-2-benzylidene-1-indanone", "O=C1/C(=C/c2ccccc2)Cc2ccccc21", "fused_aromatic"),
    ("benzofulvene", "C=C1C=Cc2ccccc21", "fused_aromatic"),
    ("phenazine", "c1ccc2nc3ccccc3nc2c1", "fused_aromatic"),
    ("1,10-phenanthroline", "c1cnc2c(c1)ccc1cccnc12", "fused_aromatic"),
    ("phenanthridine", "c1ccc2c(c1)cnc1ccccc12", "fused_aromatic"),
    ("benzo[h]quinoline", "c1ccc2c(c1)ccc1cccnc12", "fused_aromatic"),
    ("benzo[c]cinnoline", "c1ccc2c(c1)nnc1ccccc12", "fused_aromatic"),
    ("cinnoline", "c1ccc2nnccc2c1", "fused_aromatic"),
    ("phthalazine", "c1ccc2cnncc2c1", "fused_aromatic"),
    ("1,5-naphthyridine", "c1cnc2cccnc2c1", "fused_aromatic"),
    ("pteridine", "c1cnc2ncncc2n1", "fused_aromatic"),
    ("indolizine", "c1ccn2cccc2c1", "fused_aromatic"),
    ("pyrazolo[1,5-a]pyridine", "c1ccn2nccc2c1", "fused_aromatic"),
    ("2-methyl-2H-indazole", "Cn1cc2ccccc2n1", "fused_aromatic"),
    ("benzofurazan", "c1ccc2nonc2c1", "fused_aromatic"),
    ("anthranil", "c1ccc2nocc2c1", "fused_aromatic"),
    ("dibenzo-p-dioxin", "c1ccc2c(c1)Oc1ccccc1O2", "fused_aromatic"),
    ("phenoxazine", "c1ccc2c(c1)Nc1ccccc1O2", "fused_aromatic"),
    ("chromone", "O=c1ccoc2ccccc12", "fused_aromatic"),
    ("flavone", "O=c1cc(-c2ccccc2)oc2ccccc12", "fused_aromatic"),
    ("isocoumarin", "O=c1occc2ccccc12", "fused_aromatic"),
    ("(Z)-aurone", "O=C1/C(=C/c2ccccc2)Oc2ccccc21", "fused_aromatic"),
    # biaryl: aryl-aryl bonds (none of the test biaryls: 2,2'-bipyridine, 2-phenylfuran, 2-phenylpyrimidine, ...)
    ("p-terphenyl", "c1ccc(-c2ccc(-c3ccccc3)cc2)cc1", "biaryl"),
    ("2-methylbiphenyl", "Cc1ccccc1-c1ccccc1", "biaryl"),
    ("4-aminobiphenyl", "Nc1ccc(-c2ccccc2)cc1", "biaryl"),
    ("4-cyanobiphenyl", "N#Cc1ccc(-c2ccccc2)cc1", "biaryl"),
    ("4-cyano-4'-pentylbiphenyl", "CCCCCc1ccc(-c2ccc(C#N)cc2)cc1", "biaryl"),
    ("4,4'-bipyridine", "c1cc(-c2ccncc2)ccn1", "biaryl"),
    ("2,2'-bipyrimidine", "c1cnc(-c2ncccn2)nc1", "biaryl"),
    ("4-phenylpyridine", "c1ccc(-c2ccncc2)cc1", "biaryl"),
    ("2,2'-bifuran", "c1coc(-c2ccco2)c1", "biaryl"),
    ("1-phenylpyrrole", "c1ccc(-n2cccc2)cc1", "biaryl"),
    ("2-phenyloxazole", "c1ccc(-c2ncco2)cc1", "biaryl"),
    ("2,5-diphenyloxazole", "c1ccc(-c2cnc(-c3ccccc3)o2)cc1", "biaryl"),
    ("2-phenylbenzoxazole", "c1ccc(-c2nc3ccccc3o2)cc1", "biaryl"),
    ("2-phenylindole", "c1ccc(-c2cc3ccccc3[nH]2)cc1", "biaryl"),
    ("2-phenylnaphthalene", "c1ccc(-c2ccc3ccccc3c2)cc1", "biaryl"),
    ("1,1'-binaphthyl", "c1ccc2c(-c3cccc4ccccc34)cccc2c1", "biaryl"),
    ("9-phenylanthracene", "c1ccc(-c2c3ccccc3cc3ccccc23)cc1", "biaryl"),
    ("N-phenylcarbazole", "c1ccc(-n2c3ccccc3c3ccccc32)cc1", "biaryl"),
    # aryl_alkene: stilbenes, diphenylpolyenes, vinyl arenes
    ("(Z)-stilbene", "c1ccc(/C=C\\c2ccccc2)cc1", "aryl_alkene"),
    ("(E)-4-nitrostilbene", "O=[N+]([O-])c1ccc(/C=C/c2ccccc2)cc1", "aryl_alkene"),
    ("(E,E)-1,4-diphenyl-1,3-butadiene", "c1ccc(/C=C/C=C/c2ccccc2)cc1", "aryl_alkene"),
    ("(all-E)-1,6-diphenyl-1,3,5-hexatriene", "c1ccc(/C=C/C=C/C=C/c2ccccc2)cc1", "aryl_alkene"),
    ("(E)-1-phenyl-1,3-butadiene", "C=C/C=C/c1ccccc1", "aryl_alkene"),
    ("1,4-divinylbenzene", "C=Cc1ccc(C=C)cc1", "aryl_alkene"),
    ("4-vinylbenzonitrile", "C=Cc1ccc(C#N)cc1", "aryl_alkene"),
    ("2-vinylnaphthalene", "C=Cc1ccc2ccccc2c1", "aryl_alkene"),
    ("(E)-2-styrylpyridine", "C(=C/c1ccccn1)\\c1ccccc1", "aryl_alkene"),
    ("(E)-4-styrylpyridine", "C(=C/c1ccncc1)\\c1ccccc1", "aryl_alkene"),
    # aryl_acceptor: aryl-conjugated carbonyls and nitriles
    ("(E)-chalcone", "O=C(/C=C/c1ccccc1)c1ccccc1", "aryl_acceptor"),
    ("(E)-benzylideneacetone", "CC(=O)/C=C/c1ccccc1", "aryl_acceptor"),
    ("(E,E)-dibenzylideneacetone", "O=C(/C=C/c1ccccc1)/C=C/c1ccccc1", "aryl_acceptor"),
    ("(E,E)-2,6-dibenzylidenecyclohexanone", "O=C1/C(=C/c2ccccc2)CCC/C1=C\\c1ccccc1", "aryl_acceptor"),
    ("acrylophenone", "C=CC(=O)c1ccccc1", "aryl_acceptor"),
    ("(E)-cinnamonitrile", "N#C/C=C/c1ccccc1", "aryl_acceptor"),
    ("benzylidenemalononitrile", "N#CC(C#N)=Cc1ccccc1", "aryl_acceptor"),
    ("ethyl (E)-2-cyano-3-phenylacrylate", "CCOC(=O)/C(C#N)=C/c1ccccc1", "aryl_acceptor"),
    ("(diphenylmethylene)malononitrile", "N#CC(C#N)=C(c1ccccc1)c1ccccc1", "aryl_acceptor"),
    ("methyl (E)-cinnamate", "COC(=O)/C=C/c1ccccc1", "aryl_acceptor"),
    ("(E)-4-nitrocinnamaldehyde", "O=C/C=C/c1ccc([N+](=O)[O-])cc1", "aryl_acceptor"),
    ("(E)-3-(2-furyl)acrolein", "O=C/C=C/c1ccco1", "aryl_acceptor"),
    ("3-phenylpropiolonitrile", "N#CC#Cc1ccccc1", "aryl_acceptor"),
    ("4-phenyl-3-butyn-2-one", "CC(=O)C#Cc1ccccc1", "aryl_acceptor"),
    ("benzil", "O=C(C(=O)c1ccccc1)c1ccccc1", "aryl_acceptor"),
    ("4-cyanobenzaldehyde", "N#Cc1ccc(C=O)cc1", "aryl_acceptor"),
    ("terephthalaldehyde", "O=Cc1ccc(C=O)cc1", "aryl_acceptor"),
    ("phthalaldehyde", "O=Cc1ccccc1C=O", "aryl_acceptor"),
    ("4-acetylbenzonitrile", "CC(=O)c1ccc(C#N)cc1", "aryl_acceptor"),
    ("1-naphthaldehyde", "O=Cc1cccc2ccccc12", "aryl_acceptor"),
    ("2-naphthonitrile", "N#Cc1ccc2ccccc2c1", "aryl_acceptor"),
    ("9-anthraldehyde", "O=Cc1c2ccccc2cc2ccccc12", "aryl_acceptor"),
    ("2-acetylbenzofuran", "CC(=O)c1cc2ccccc2o1", "aryl_acceptor"),
    ("2,5-furandicarbaldehyde", "O=Cc1ccc(C=O)o1", "aryl_acceptor"),
    ("pyrrole-2-carbaldehyde", "O=Cc1ccc[nH]1", "aryl_acceptor"),
)


def read_smiles(path):
    with open(path, newline="") as f:
        return [r["smiles"] for r in csv.DictReader(f)]


def build(molecules=MOLECULES, small=SMALL, seed=MASTER_SEED):
    """The pool's rows (name, canonical smiles, category), in CURATED's order; ValueError naming a row that breaks a
    rule (module docstring)."""
    RDLogger.DisableLog("rdApp.*")
    with open(molecules, newline="") as f:
        listed = list(csv.DictReader(f))
    known = {Chem.MolToSmiles(Chem.MolFromSmiles(r["smiles"])): r["name"] for r in listed}
    known.update({Chem.MolToSmiles(Chem.MolFromSmiles(s)): "small.csv" for s in read_smiles(small)})
    return check_curated(CURATED, CATEGORIES, known, "already in the list or the small pool", atom_count_problems,
                         scaffolds_of_test(listed), test_keys(listed), seed=seed)


def atom_count_problems(mol):
    n = Chem.AddHs(mol).GetNumAtoms()
    return [] if MIN_ATOMS <= n <= MAX_ATOMS else [f"{n} atoms (limit {MIN_ATOMS}..{MAX_ATOMS})"]


def scaffolds_of_test(listed):
    """{Bemis-Murcko scaffold: name} of the list's test molecules with rings (rows of molecules.csv)."""
    out = {scaffold(r["smiles"]): r["name"] for r in listed if r["split"] == "test"}
    out.pop("", None)
    return out


def check_curated(curated, categories, known, known_text, size_problems, test_scaffolds, test, unwanted=UNWANTED,
                  key=lambda smiles: Chem.MolToSmiles(Chem.MolFromSmiles(smiles)), seed=MASTER_SEED):
    """The rows (name, canonical smiles, category) of curated (name, SMILES, category), in its order; ValueError naming
    every row that does not parse, breaks enumerate.py's problems(), size_problems(mol) or an unwanted group, has a
    category not in categories, whose key(SMILES) is in known ({key: where}) or twice here, is a test molecule or one of
    its stereoisomers (stereo_free(SMILES) in test, enumerate.test_keys: whatever key is), has the ring scaffold of a
    test molecule, or does not embed. enumerate_rare.py's families share it (key: without stereo)."""
    rows, seen, errors = [], {}, []
    for name, smiles, category in curated:
        mol = Chem.MolFromSmiles(smiles)
        if mol is None:
            errors.append(f"{name}: {smiles} does not parse or sanitise")
            continue
        smi, k = Chem.MolToSmiles(mol), key(smiles)
        why = problems(mol) + size_problems(mol)
        why += [f"unwanted group {Chem.MolToSmarts(p)}" for p in unwanted if mol.HasSubstructMatch(p)]
        if category not in categories:
            why.append(f"category {category!r}")
        if k in known:
            why.append(f"{known_text} ({known[k]})")
        if stereo_free(smi) in test:
            why.append(f"test molecule {test[stereo_free(smi)]} or its stereoisomer")
        if k in seen:
            why.append(f"the same molecule as {seen[k]}")
        if mol.GetRingInfo().NumRings() and scaffold(smi) in test_scaffolds:
            why.append(f"scaffold {scaffold(smi)} of test molecule {test_scaffolds[scaffold(smi)]}")
        if not why and not embeds(mol, seed):
            why.append("does not embed")
        if why:
            errors.append(f"{name} ({smi}): " + "; ".join(why))
            continue
        seen[k] = name
        rows.append(dict(name=name, smiles=smi, category=category))
    if errors:
        raise ValueError(f"{len(errors)} rows of CURATED break the pool's rules:\n  " + "\n  ".join(errors))
    return rows


def stereo_kept(mol, positions):
    """True when the geometry (Å, atoms as mol, hydrogens explicit) has every stereo label (CIP: E/Z, R/S) that the
    SMILES specifies; stereo the SMILES leaves open (cyclooctatetraene's ring bonds) is not compared."""
    from rdkit.Chem import rdCIPLabeler
    from rdkit.Geometry import Point3D

    def labels(m):
        rdCIPLabeler.AssignCIPLabels(m)
        return {(k, x.GetIdx()): x.GetProp("_CIPCode") for k, xs in (("b", m.GetBonds()), ("a", m.GetAtoms()))
                for x in xs if x.HasProp("_CIPCode")}
    want = labels(Chem.Mol(mol))
    if not want:
        return True
    m = Chem.Mol(mol)
    m.RemoveAllConformers()
    conf = Chem.Conformer(m.GetNumAtoms())
    for i, p in enumerate(positions):
        conf.SetAtomPosition(i, Point3D(*map(float, p)))
    m.AddConformer(conf)
    Chem.AssignStereochemistryFrom3D(m)
    got = labels(m)
    return all(got.get(k) == v for k, v in want.items())


def conformers(smiles, n, index, seed=MASTER_SEED):
    """make_starts.conformers at make_starts.seed_for(index, seed) (its own seed: a molecule whose conformers keep
    their stereo gets what make_starts.py would write), keeping only conformers with the SMILES's stereo; ETKDG + MMFF94
    can turn a double bond of a long polyene (all-E dodecapentaene: two of three conformers with a Z bond), so when
    fewer than n are kept, the next embeddings' seeds (seed_for's attempt MAX_RETRIES, 2 x MAX_RETRIES, ...: never one
    of make_starts.conformers' own retries) add conformers until n are kept."""
    import make_starts
    kept = []
    for attempt in range(make_starts.MAX_RETRIES):
        at = make_starts.seed_for(index, seed, attempt * make_starts.MAX_RETRIES)
        mol, confs, ff = make_starts.conformers(smiles, n, at)
        kept += [p for p in confs if stereo_kept(mol, p)]
        if len(kept) >= n:
            return mol, kept[:n], ff
    raise RuntimeError(f"{smiles}: only {len(kept)} of {n} conformers keep the SMILES's stereo")


def write_starts(rows, path, n_conformers=3, seed=MASTER_SEED, first=CONJUGATED_INDEX, split="conjugated"):
    """The pool's starts as make_starts.py writes them: row i embeds from seed_for(first + i), 3 conformers (ETKDG v3 +
    MMFF94, bond graph checked) with the SMILES's stereo (conformers()), split=conjugated (enumerate_rare.py writes its
    pool's with its own first index and split)."""
    import make_starts   # puts forcefield/training on the path: extxyz
    import extxyz
    uff = 0
    with extxyz._open(path, "w") as f:
        for i, r in enumerate(rows):
            mol, confs, ff = conformers(r["smiles"], n_conformers, first + i, seed)
            uff += ff == "UFF"
            make_starts.write_frames(f, mol, confs, dict(name=r["name"], smiles=r["smiles"], split=split,
                                                        index=first + i, ff=ff))
    return uff


def write_starts_and_say(rows, path, n_conformers=3, **kw):
    """write_starts (first, split as there) and the builders' --starts line: molecules x conformers, the file, the
    seconds it took and how many conformers UFF optimised."""
    t0 = time.time()
    uff = write_starts(rows, path, n_conformers, **kw)
    print(f"{len(rows)} molecules x {n_conformers} conformers -> {path} in {time.time() - t0:.1f} s "
          f"({uff} optimised with UFF)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=CONJUGATED)
    ap.add_argument("--starts", action="store_true", help="also write the starts (make_starts.py's conformers)")
    ap.add_argument("--starts-out", default=STARTS)
    ap.add_argument("--conformers", type=int, default=3, help="conformers per molecule (default 3, as make_starts.py)")
    args = ap.parse_args(argv)
    rows = build()
    write(rows, args.out)
    by = {}
    for r in rows:
        by[r["category"]] = by.get(r["category"], 0) + 1
    print(f"{len(rows)} conjugated molecules -> {args.out}: " + ", ".join(f"{k} {by.get(k, 0)}" for k in CATEGORIES))
    if args.starts:
        write_starts_and_say(rows, args.starts_out, args.conformers)


if __name__ == "__main__":
    main()
