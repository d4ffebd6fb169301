#!/usr/bin/python3
"""Independent test set B of the organic student: 144 molecules nobody has looked at, SEALED: fixed and committed
before any model was evaluated on it, used only to report figures, never to design training data.

    /usr/bin/python3 forcefield/training/organic/enumerate_testset_b.py            # writes testset_b.csv
    /usr/bin/python3 forcefield/training/organic/enumerate_testset_b.py --starts   # and starts.testb.xyz.gz

Why: test set A (molecules.csv, split=test) has steered the pools (small, conjugated, rare, motifs were each designed
from A's worst molecules), so A's figures overstate how the student generalises.

How (build(), deterministic, seed B_SEED):
  * Quotas: B mirrors A's composition stratum by stratum: for every (category, origin, ring or acyclic) of A's 144
    molecules (origin: hand-named in curated.csv, or drawn from enumerate.py's scaffold x substituent product), B takes
    as many molecules of the same stratum (quota(): 87 hand-named, 57 enumerated; 40 with rings, 104 acyclic).
  * Candidates: HAND (real named molecules: solvents, building blocks, drugs, natural products, nucleosides, capped
    peptides; written for this set, categories as curated.csv names them) and enumerate.enumerate_products() (the same
    89 scaffolds x 47 substituents, filtered by enumerate.py's rules and unstable groups, classified by
    enumerate.classify()).
  * A candidate is eligible when it parses and sanitises, meets enumerate.problems() (H/C/N/O, neutral, closed shell,
    one fragment, 2..42 atoms), embeds with ETKDG, and is NEW:
      - stereo-free canonical SMILES (enumerate.stereo_free) not in molecules.csv (train or test), curated.csv,
        small.csv, conjugated.csv, rare.csv, motifs.csv, the v5 systems (water, ethanol, benzene, Ace-Ala-NMe,
        Ace-(Ala)5-NMe), nor already taken into B;
      - canonical tautomer (enumerate_motifs.tautomer) not one of those molecules' either;
      - with rings: Bemis-Murcko scaffold (chirality ignored, compared as canonical tautomer, scaffold_key()) not the
        scaffold of ANY molecule of those sources, train or test A. (Stricter than A, whose ring molecules are only
        scaffold-disjoint from the list's training molecules: B's ring systems are absent from every training source
        and from A.)
  * Draw: the eligible candidates of each stratum are shuffled with random.Random(f"{B_SEED}:{stratum}") and the first
    quota ones kept (HAND first; the enumerated draw skips anything HAND took). A stratum short of candidates is an
    error. Rows: HAND's in HAND order, then the enumerated in product order.
  * Starts: enumerate_conjugated.write_starts (make_starts.py's ETKDG v3 + MMFF94, bond-graph check, seed_for, 3
    conformers, the SMILES's stereo kept), rows indexed and seeded from TESTB_INDEX, split=testb.

Columns of testset_b.csv: name,smiles,category,split (split is always "testb"; origin and ring are recomputable).
"""
import argparse
import csv
import os
import random
import sys
import time

from rdkit import Chem, RDLogger

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from enumerate import (MOLECULES, CURATED, canonical, classify, embeds, enumerate_products, problems,  # noqa: E402
                       scaffold, stereo_free, write)

B_SEED = 20261130
TESTB_INDEX = 600000      # starts' rows indexed (and seeded) from here; the pools use 100,000..400,000
TESTB_CSV = os.path.join(HERE, "testset_b.csv")
STARTS = os.path.join(HERE, "starts.testb.xyz.gz")
# Every file of molecules that training reads or that A holds (columns name,smiles[,category[,split]]).
SOURCES = ("molecules.csv", "curated.csv", "small.csv", "conjugated.csv", "rare.csv", "motifs.csv")
V5_SYSTEMS = ("O", "CCO", "c1ccccc1", "CC(=O)NC(C)C(=O)NC",
              "CC(=O)NC(C)C(=O)NC(C)C(=O)NC(C)C(=O)NC(C)C(=O)NC(C)C(=O)NC")

# Real named molecules (name, SMILES, category as curated.csv would give it). Candidates, not all taken: the rules
# drop those already known (many are), the draw keeps a stratum's quota.
HAND = (
    # alcohols
    ("3-methyl-3-pentanol", "CCC(C)(O)CC", "alcohol"), ("2-methyl-2-butanol", "CCC(C)(C)O", "alcohol"),
    ("1,3-butanediol", "CC(O)CCO", "alcohol"), ("2,3-butanediol", "CC(O)C(C)O", "alcohol"),
    ("1,5-pentanediol", "OCCCCCO", "alcohol"), ("2-ethyl-1-hexanol", "CCCCC(CC)CO", "alcohol"),
    ("pinacol", "CC(C)(O)C(C)(C)O", "alcohol"), ("neopentyl glycol", "CC(C)(CO)CO", "alcohol"),
    ("3-buten-1-ol", "C=CCCO", "alcohol"), ("prenol", "CC(C)=CCO", "alcohol"),
    ("2-methyl-3-butyn-2-ol", "C#CC(C)(C)O", "alcohol"), ("1,2,4-butanetriol", "OCCC(O)CO", "alcohol"),
    ("2-butyne-1,4-diol", "OCC#CCO", "alcohol"), ("geraniol", "CC(C)=CCC/C(C)=C/CO", "alcohol"),
    ("isoamyl alcohol", "CC(C)CCO", "alcohol"), ("pentaerythritol", "OCC(CO)(CO)CO", "alcohol"),
    ("trimethylolpropane", "CCC(CO)(CO)CO", "alcohol"), ("1-hexanol", "CCCCCCO", "alcohol"),
    # alkanes
    ("isooctane", "CC(C)CC(C)(C)C", "alkane"), ("2,3-dimethylbutane", "CC(C)C(C)C", "alkane"),
    ("3-ethylpentane", "CCC(CC)CC", "alkane"), ("n-nonane", "CCCCCCCCC", "alkane"),
    ("2,2,3,3-tetramethylbutane", "CC(C)(C)C(C)(C)C", "alkane"), ("3-methylhexane", "CCCC(C)CC", "alkane"),
    ("n-dodecane", "CCCCCCCCCCCC", "alkane"), ("farnesane (2,6,10-trimethyldodecane)", "CCC(C)CCCC(C)CCCC(C)C", "alkane"),
    ("spiro[4.5]decane", "C1CCC2(C1)CCCCC2", "alkane"), ("bicyclo[2.2.2]octane", "C1CC2CCC1CC2", "alkane"),
    ("cubane", "C12C3C4C1C5C2C3C45", "alkane"), ("cyclooctane", "C1CCCCCCC1", "alkane"),
    ("bicyclohexyl", "C1CCC(CC1)C1CCCCC1", "alkane"), ("hydrindane", "C1CCC2CCCC2C1", "alkane"),
    ("spiropentane", "C1CC11CC1", "alkane"), ("bicyclo[1.1.1]pentane", "C1C2CC1C2", "alkane"),
    ("twistane", "C13CC2CCC1CC2CC3", "alkane"), ("bicyclo[3.3.1]nonane", "C1CC2CCCC(C1)C2", "alkane"),
    # alkenes
    ("2-methyl-2-butene", "CC=C(C)C", "alkene"), ("2,3-dimethyl-2-butene", "CC(C)=C(C)C", "alkene"),
    ("(E)-3-hexene", "CC/C=C/CC", "alkene"), ("4-methyl-1-pentene", "C=CCC(C)C", "alkene"),
    ("1-octene", "C=CCCCCCC", "alkene"), ("1,5-hexadiene", "C=CCCC=C", "alkene"),
    ("camphene", "C=C1C2CCC(C2)C1(C)C", "alkene"), ("1,5-cyclooctadiene", "C1=C\\CC/C=C\\CC/1", "alkene"),
    ("4-vinylcyclohexene", "C=CC1CCC=CC1", "alkene"), ("cycloheptene", "C1=CCCCCC1", "alkene"),
    ("beta-pinene", "C=C1CCC2CC1C2(C)C", "alkene"), ("beta-caryophyllene", "C/C1=C\\CCC(=C)C2CC(C)(C)C2CC1", "alkene"),
    ("terpinolene", "CC(C)=C1CCC(C)=CC1", "alkene"), ("valencene", "CC(=C)C1CCC2=CCCC(C)C2(C)C1", "alkene"),
    # alkynes
    ("1-hexyne", "C#CCCCC", "alkyne"), ("2-butyne", "CC#CC", "alkyne"), ("3-hexyne", "CCC#CCC", "alkyne"),
    ("1,7-octadiyne", "C#CCCCCC#C", "alkyne"), ("2-pentyne", "CC#CCC", "alkyne"), ("1,6-heptadiyne", "C#CCCCC#C", "alkyne"),
    ("4-octyne", "CCCC#CCCC", "alkyne"),
    # amides
    ("N,N-diethylacetamide", "CCN(CC)C(C)=O", "amide"), ("N-ethylacetamide", "CCNC(C)=O", "amide"),
    ("N,N-dimethylpropionamide", "CCC(=O)N(C)C", "amide"), ("isobutyramide", "CC(C)C(N)=O", "amide"),
    ("pivalamide", "CC(C)(C)C(N)=O", "amide"), ("N,N-diethylformamide", "CCN(CC)C=O", "amide"),
    ("butyramide", "CCCC(N)=O", "amide"), ("hexanamide", "CCCCCC(N)=O", "amide"),
    ("N-tert-butylformamide", "CC(C)(C)NC=O", "amide"), ("methacrylamide", "C=C(C)C(N)=O", "amide"),
    ("N,N-dimethylacrylamide", "C=CC(=O)N(C)C", "amide"), ("N-isopropylacrylamide", "C=CC(=O)NC(C)C", "amide"),
    ("succinamide", "NC(=O)CCC(N)=O", "amide"), ("adipamide", "NC(=O)CCCCC(N)=O", "amide"),
    ("N-methylpropionamide", "CCC(=O)NC", "amide"),
    ("benzanilide", "O=C(Nc1ccccc1)c1ccccc1", "amide"), ("N-benzylbenzamide", "O=C(NCc1ccccc1)c1ccccc1", "amide"),
    ("N-cyclohexylbenzamide", "O=C(NC1CCCCC1)c1ccccc1", "amide"),
    ("N-phenylcyclopropanecarboxamide", "O=C(Nc1ccccc1)C1CC1", "amide"),
    ("N-benzylacetamide", "CC(=O)NCc1ccccc1", "amide"), ("2-naphthylacetamide", "NC(=O)Cc1ccc2ccccc2c1", "amide"),
    # amines
    ("diisopropylamine", "CC(C)NC(C)C", "amine"), ("di-n-butylamine", "CCCCNCCCC", "amine"),
    ("N-methylbutylamine", "CCCCNC", "amine"), ("1,3-diaminopropane", "NCCCN", "amine"),
    ("diethylenetriamine", "NCCNCCN", "amine"), ("tri-n-propylamine", "CCCN(CCC)CCC", "amine"),
    ("N,N-diisopropylethylamine", "CCN(C(C)C)C(C)C", "amine"), ("hexamethylenediamine", "NCCCCCCN", "amine"),
    ("3-(dimethylamino)propylamine", "CN(C)CCCN", "amine"), ("isobutylamine", "CC(C)CN", "amine"),
    ("cadaverine", "NCCCCCN", "amine"), ("putrescine", "NCCCCN", "amine"), ("spermidine", "NCCCCNCCCN", "amine"),
    ("N,N-dimethylallylamine", "C=CCN(C)C", "amine"),
    ("tropane", "CN1C2CCC1CCC2", "amine"), ("quinolizidine", "C1CCN2CCCCC2C1", "amine"),
    ("pyrrolizidine", "C1CC2CCCN2C1", "amine"), ("indolizidine", "C1CCN2CCCC2C1", "amine"),
    ("hexamethylenetetramine", "C1N2CN3CN1CN(C2)C3", "amine"), ("2-azabicyclo[2.2.2]octane", "C1CC2CCC1NC2", "amine"),
    ("N-benzylpiperidine", "C(c1ccccc1)N1CCCCC1", "amine"), ("azocane", "C1CCCNCCC1", "amine"),
    ("isoindoline", "C1NCc2ccccc21", "amine"),
    # amino acids (L where chiral)
    ("L-norvaline", "CCC[C@H](N)C(=O)O", "amino_acid"), ("L-tert-leucine", "CC(C)(C)[C@H](N)C(=O)O", "amino_acid"),
    ("L-homoserine", "N[C@@H](CCO)C(=O)O", "amino_acid"), ("L-2-aminoadipic acid", "N[C@@H](CCCC(=O)O)C(=O)O", "amino_acid"),
    ("L-2,4-diaminobutyric acid", "NCC[C@H](N)C(=O)O", "amino_acid"),
    ("L-2,3-diaminopropionic acid", "NC[C@H](N)C(=O)O", "amino_acid"),
    ("N,N-dimethylglycine", "CN(C)CC(=O)O", "amino_acid"), ("5-aminovaleric acid", "NCCCCC(=O)O", "amino_acid"),
    ("isovaline", "CCC(C)(N)C(=O)O", "amino_acid"), ("L-canavanine", "NC(=N)NOCC[C@H](N)C(=O)O", "amino_acid"),
    ("L-homoarginine", "NC(=N)NCCCC[C@H](N)C(=O)O", "amino_acid"),
    ("N6-acetyl-L-lysine", "CC(=O)NCCCC[C@H](N)C(=O)O", "amino_acid"),
    ("3-aminoisobutyric acid", "CC(CN)C(=O)O", "amino_acid"), ("N-methyl-L-alanine", "CN[C@@H](C)C(=O)O", "amino_acid"),
    # aromatic hydrocarbons
    ("fluorene", "c1ccc2c(c1)Cc1ccccc1-2", "aromatic"), ("acenaphthene", "C1Cc2cccc3cccc1c23", "aromatic"),
    ("9,10-dihydroanthracene", "c1ccc2c(c1)Cc1ccccc1C2", "aromatic"),
    ("9,10-dihydrophenanthrene", "c1ccc2c(c1)CCc1ccccc1-2", "aromatic"),
    ("bibenzyl", "c1ccc(CCc2ccccc2)cc1", "aromatic"), ("triphenylmethane", "c1ccc(C(c2ccccc2)c2ccccc2)cc1", "aromatic"),
    ("indane", "c1ccc2c(c1)CCC2", "aromatic"), ("phenanthrene", "c1ccc2c(c1)ccc1ccccc12", "aromatic"),
    ("anthracene", "c1ccc2cc3ccccc3cc2c1", "aromatic"), ("[2.2]paracyclophane", "C1Cc2ccc(cc2)CCc2ccc1cc2", "aromatic"),
    ("1-phenylnaphthalene", "c1ccc(-c2cccc3ccccc23)cc1", "aromatic"),
    ("triptycene", "c1ccc2c(c1)C1c3ccccc3C2c2ccccc21", "aromatic"), ("cyclohexylbenzene", "c1ccc(C2CCCCC2)cc1", "aromatic"),
    # carbamates
    ("tert-butyl carbamate", "CC(C)(C)OC(N)=O", "carbamate"), ("methyl N-methylcarbamate", "CNC(=O)OC", "carbamate"),
    ("ethyl N-ethylcarbamate", "CCNC(=O)OCC", "carbamate"), ("butyl carbamate", "CCCCOC(N)=O", "carbamate"),
    ("isopropyl carbamate", "CC(C)OC(N)=O", "carbamate"), ("tert-butyl N-methylcarbamate", "CNC(=O)OC(C)(C)C", "carbamate"),
    ("allyl carbamate", "C=CCOC(N)=O", "carbamate"), ("ethyl N,N-diethylcarbamate", "CCOC(=O)N(CC)CC", "carbamate"),
    ("tetrahydro-1,3-oxazin-2-one", "O=C1NCCCO1", "carbamate"), ("1,3-oxazepan-2-one", "O=C1NCCCCO1", "carbamate"),
    ("isatoic anhydride", "O=C1Nc2ccccc2C(=O)O1", "carbamate"),
    ("3,4-dihydro-2H-1,3-benzoxazin-2-one", "O=C1NCc2ccccc2O1", "carbamate"),
    ("tert-butyl pyrrolidine-1-carboxylate", "CC(C)(C)OC(=O)N1CCCC1", "carbamate"),
    ("5-phenyl-2-oxazolidinone", "O=C1NCC(c2ccccc2)O1", "carbamate"),
    ("benzyl carbamate", "NC(=O)OCc1ccccc1", "carbamate"), ("phenyl N-phenylcarbamate", "O=C(Nc1ccccc1)Oc1ccccc1",
                                                            "carbamate"),
    # carboxylic acids
    ("isobutyric acid", "CC(C)C(=O)O", "carboxylic_acid"), ("pivalic acid", "CC(C)(C)C(=O)O", "carboxylic_acid"),
    ("valeric acid", "CCCCC(=O)O", "carboxylic_acid"), ("succinic acid", "O=C(O)CCC(=O)O", "carboxylic_acid"),
    ("glutaric acid", "O=C(O)CCCC(=O)O", "carboxylic_acid"), ("adipic acid", "O=C(O)CCCCC(=O)O", "carboxylic_acid"),
    ("malonic acid", "O=C(O)CC(=O)O", "carboxylic_acid"), ("methacrylic acid", "C=C(C)C(=O)O", "carboxylic_acid"),
    ("crotonic acid", "C/C=C/C(=O)O", "carboxylic_acid"), ("3-butenoic acid", "C=CCC(=O)O", "carboxylic_acid"),
    ("lactic acid", "CC(O)C(=O)O", "carboxylic_acid"), ("levulinic acid", "CC(=O)CCC(=O)O", "carboxylic_acid"),
    ("tiglic acid", "C/C=C(\\C)C(=O)O", "carboxylic_acid"), ("2-ethylhexanoic acid", "CCCCC(CC)C(=O)O",
                                                            "carboxylic_acid"),
    ("propiolic acid", "C#CC(=O)O", "carboxylic_acid"), ("malic acid", "O=C(O)CC(O)C(=O)O", "carboxylic_acid"),
    ("tartaric acid", "O=C(O)C(O)C(O)C(=O)O", "carboxylic_acid"), ("citric acid", "O=C(O)CC(O)(CC(=O)O)C(=O)O",
                                                                   "carboxylic_acid"),
    ("3-hydroxybutyric acid", "CC(O)CC(=O)O", "carboxylic_acid"), ("isovaleric acid", "CC(C)CC(=O)O", "carboxylic_acid"),
    # drugs, acyclic
    ("metformin", "CN(C)C(=N)NC(=N)N", "drug"), ("valproic acid", "CCCC(CCC)C(=O)O", "drug"),
    ("vigabatrin", "C=CC(N)CCC(=O)O", "drug"), ("meprobamate", "CCCC(C)(COC(N)=O)COC(N)=O", "drug"),
    ("carisoprodol", "CCCC(C)(COC(N)=O)COC(=O)NC(C)C", "drug"), ("hydroxyurea", "NC(=O)NO", "drug"),
    ("valnoctamide", "CCC(C)C(CC)C(N)=O", "drug"), ("emylcamate", "CCC(C)(CC)OC(N)=O", "drug"),
    ("aminocaproic acid", "NCCCCCC(=O)O", "drug"), ("dimethyl fumarate", "COC(=O)/C=C/C(=O)OC", "drug"),
    ("buformin", "CCCCNC(=N)NC(=N)N", "drug"), ("nitroglycerin", "O=[N+]([O-])OCC(CO[N+](=O)[O-])O[N+](=O)[O-]", "drug"),
    ("mebutamate", "CCC(C)C(C)(COC(N)=O)COC(N)=O", "drug"),
    # drugs with rings
    ("phenytoin", "O=C1NC(=O)C(c2ccccc2)(c2ccccc2)N1", "drug"),
    ("carbamazepine", "NC(=O)N1c2ccccc2C=Cc2ccccc21", "drug"),
    ("primidone", "CCC1(c2ccccc2)C(=O)NCNC1=O", "drug"), ("phenobarbital", "CCC1(c2ccccc2)C(=O)NC(=O)NC1=O", "drug"),
    ("ethosuximide", "CCC1(C)CC(=O)NC1=O", "drug"), ("allopurinol", "O=c1[nH]cnc2[nH]ncc12", "drug"),
    ("nitrazepam", "O=C1CN=C(c2ccccc2)c2cc([N+](=O)[O-])ccc2N1", "drug"),
    ("tacrine", "Nc1c2c(nc3ccccc13)CCCC2", "drug"), ("antipyrine", "Cc1cc(=O)n(-c2ccccc2)n1C", "drug"),
    ("tropinone", "CN1C2CCC1CC(=O)C2", "drug"),
    ("physostigmine", "CNC(=O)Oc1ccc2c(c1)[C@]1(C)CCN(C)[C@@H]1N2C", "drug"),
    ("apomorphine", "CN1CCc2cccc3c2[C@H]1Cc1ccc(O)c(O)c1-3", "drug"),
    ("harmine", "COc1ccc2c(c1)[nH]c1c(C)nccc12", "drug"), ("pentylenetetrazol", "C1CCc2nnnn2CC1", "drug"),
    ("trimethadione", "CN1C(=O)OC(C)(C)C1=O", "drug"), ("aniracetam", "COc1ccc(C(=O)N2CCCC2=O)cc1", "drug"),
    ("oxcarbazepine", "NC(=O)N1c2ccccc2CC(=O)c2ccccc21", "drug"),
    ("mianserin", "CN1CCN2c3ccccc3Cc3ccccc3C2C1", "drug"), ("mirtazapine", "CN1CCN2c3ncccc3Cc3ccccc3C2C1", "drug"),
    ("nefopam", "CN1CCOC(c2ccccc2)c2ccccc2C1", "drug"), ("methaqualone", "Cc1ccccc1-n1c(C)nc2ccccc2c1=O", "drug"),
    ("hydralazine", "NNc1nncc2ccccc12", "drug"), ("methsuximide", "CN1C(=O)CC(C)(c2ccccc2)C1=O", "drug"),
    ("glutethimide", "CCC1(c2ccccc2)CCC(=O)NC1=O", "drug"),
    ("thalidomide", "O=C1CCC(N2C(=O)c3ccccc3C2=O)C(=O)N1", "drug"),
    ("isosorbide", "O[C@@H]1CO[C@@H]2[C@@H](O)CO[C@H]12", "drug"),
    ("ribavirin", "NC(=O)c1ncn([C@@H]2O[C@H](CO)[C@@H](O)[C@H]2O)n1", "drug"),
    ("doxofylline", "Cn1c(=O)c2c(ncn2CC2OCCO2)n(C)c1=O", "drug"),
    # esters
    ("isopropyl acetate", "CC(=O)OC(C)C", "ester"), ("n-butyl acetate", "CCCCOC(C)=O", "ester"),
    ("ethyl propionate", "CCOC(=O)CC", "ester"), ("methyl butyrate", "CCCC(=O)OC", "ester"),
    ("tert-butyl acetate", "CC(=O)OC(C)(C)C", "ester"), ("isoamyl acetate", "CC(C)CCOC(C)=O", "ester"),
    ("ethyl lactate", "CCOC(=O)C(C)O", "ester"), ("diethyl malonate", "CCOC(=O)CC(=O)OCC", "ester"),
    ("dimethyl succinate", "COC(=O)CCC(=O)OC", "ester"), ("triacetin", "CC(=O)OCC(COC(C)=O)OC(C)=O", "ester"),
    ("methyl methacrylate", "C=C(C)C(=O)OC", "ester"), ("allyl acetate", "C=CCOC(C)=O", "ester"),
    ("diethyl carbonate", "CCOC(=O)OCC", "ester"), ("methyl pivalate", "COC(=O)C(C)(C)C", "ester"),
    ("ethyl butyrate", "CCCC(=O)OCC", "ester"), ("vinyl propionate", "C=COC(=O)CC", "ester"),
    ("methyl crotonate", "C/C=C/C(=O)OC", "ester"),
    # ethers
    ("diisopropyl ether", "CC(C)OC(C)C", "ether"), ("di-n-butyl ether", "CCCCOCCCC", "ether"),
    ("methyl tert-butyl ether", "COC(C)(C)C", "ether"), ("ethyl vinyl ether", "C=COCC", "ether"),
    ("ethyl tert-butyl ether", "CCOC(C)(C)C", "ether"), ("dimethoxymethane", "COCOC", "ether"),
    ("tetraglyme", "COCCOCCOCCOCCOC", "ether"), ("di-n-propyl ether", "CCCOCCC", "ether"),
    ("tert-amyl methyl ether", "CCC(C)(C)OC", "ether"), ("diallyl ether", "C=CCOCC=C", "ether"),
    ("oxepane", "C1CCCOCC1", "ether"), ("12-crown-4", "C1COCCOCCOCCO1", "ether"),
    ("15-crown-5", "C1COCCOCCOCCOCCO1", "ether"), ("18-crown-6", "C1COCCOCCOCCOCCOCCO1", "ether"),
    ("1,8-cineole", "CC12CCC(CC1)C(C)(C)O2", "ether"), ("7-oxabicyclo[2.2.1]heptane", "C1CC2CCC1O2", "ether"),
    ("diphenyl ether", "c1ccc(Oc2ccccc2)cc1", "ether"), ("2,3-dihydrobenzofuran", "c1ccc2c(c1)CCO2", "ether"),
    ("chromane", "c1ccc2c(c1)CCCO2", "ether"), ("1,4-benzodioxane", "c1ccc2c(c1)OCCO2", "ether"),
    ("xanthene", "c1ccc2c(c1)Cc1ccccc1O2", "ether"), ("phthalan", "c1ccc2c(c1)COC2", "ether"),
    ("styrene oxide", "c1ccc(C2CO2)cc1", "ether"), ("dibenzyl ether", "c1ccc(COCc2ccccc2)cc1", "ether"),
    # heteroaromatics
    ("1,2,4-triazine", "c1cnncn1", "heteroaromatic"), ("imidazo[1,2-a]pyridine", "c1ccn2ccnc2c1", "heteroaromatic"),
    ("indazole", "c1ccc2[nH]ncc2c1", "heteroaromatic"), ("benzotriazole", "c1ccc2[nH]nnc2c1", "heteroaromatic"),
    ("7-azaindole", "c1cnc2[nH]ccc2c1", "heteroaromatic"), ("quinoxaline", "c1ccc2nccnc2c1", "heteroaromatic"),
    ("quinazoline", "c1ccc2ncncc2c1", "heteroaromatic"), ("phthalazine", "c1ccc2cnncc2c1", "heteroaromatic"),
    ("1,8-naphthyridine", "c1cnc2ncccc2c1", "heteroaromatic"), ("1,2-benzisoxazole", "c1ccc2oncc2c1", "heteroaromatic"),
    ("furazan", "c1cnon1", "heteroaromatic"), ("phenanthridine", "c1ccc2c(c1)cnc1ccccc12", "heteroaromatic"),
    ("norharmane", "c1ccc2c(c1)[nH]c1cnccc12", "heteroaromatic"), ("dibenzofuran", "c1ccc2c(c1)oc1ccccc12",
                                                                     "heteroaromatic"),
    ("2-methyl-2H-tetrazole", "Cn1ncnn1", "heteroaromatic"), ("4-phenylpyrimidine", "c1ccc(-c2ccncn2)cc1",
                                                             "heteroaromatic"),
    ("pyrazolo[1,5-a]pyrimidine", "c1cnc2ccnn2c1", "heteroaromatic"),
    ("[1,2,4]triazolo[1,5-a]pyrimidine", "c1cnc2ncnn2c1", "heteroaromatic"),
    # hydrazines
    ("1,1-dimethylhydrazine", "CN(C)N", "hydrazine"), ("1,2-dimethylhydrazine", "CNNC", "hydrazine"),
    ("acetohydrazide", "CC(=O)NN", "hydrazine"), ("formic hydrazide", "NNC=O", "hydrazine"),
    ("tert-butylhydrazine", "CC(C)(C)NN", "hydrazine"), ("acetone hydrazone", "CC(C)=NN", "hydrazine"),
    ("acetone dimethylhydrazone", "CC(C)=NN(C)C", "hydrazine"), ("carbohydrazide", "NNC(=O)NN", "hydrazine"),
    ("oxalyl dihydrazide", "NNC(=O)C(=O)NN", "hydrazine"), ("N,N'-diacetylhydrazine", "CC(=O)NNC(C)=O", "hydrazine"),
    ("ethyl carbazate", "CCOC(=O)NN", "hydrazine"), ("acetone semicarbazone", "CC(C)=NNC(N)=O", "hydrazine"),
    ("azoisopropane", "CC(C)/N=N/C(C)C", "hydrazine"), ("butanone hydrazone", "CCC(C)=NN", "hydrazine"),
    ("2-hydrazinoethanol", "NNCCO", "hydrazine"), ("1,1-diethylhydrazine", "CCN(N)CC", "hydrazine"),
    ("tert-butyl carbazate", "CC(C)(C)OC(=O)NN", "hydrazine"), ("4-methylsemicarbazide", "CNC(=O)NN", "hydrazine"),
    ("acetaldehyde hydrazone", "C/C=N/N", "hydrazine"), ("formaldehyde dimethylhydrazone", "C=NN(C)C", "hydrazine"),
    ("acetaldehyde semicarbazone", "C/C=N/NC(N)=O", "hydrazine"), ("pivalic hydrazide", "CC(C)(C)C(=O)NN", "hydrazine"),
    ("malonic dihydrazide", "NNC(=O)CC(=O)NN", "hydrazine"), ("succinic dihydrazide", "NNC(=O)CCC(=O)NN", "hydrazine"),
    ("adipic dihydrazide", "NNC(=O)CCCCC(=O)NN", "hydrazine"), ("glycine hydrazide", "NCC(=O)NN", "hydrazine"),
    ("1,2-diisopropylhydrazine", "CC(C)NNC(C)C", "hydrazine"), ("1,3-diaminoguanidine", "NN=C(N)NN", "hydrazine"),
    ("biurea", "NC(=O)NNC(N)=O", "hydrazine"), ("azodicarbonamide", "NC(=O)/N=N/C(N)=O", "hydrazine"),
    ("diethyl azodicarboxylate", "CCOC(=O)/N=N/C(=O)OCC", "hydrazine"),
    # imines, amidines, guanidines
    ("N-isopropylidene-isopropylamine", "CC(C)=NC(C)C", "imine"), ("acetamidine", "CC(=N)N", "imine"),
    ("1,1,3,3-tetramethylguanidine", "CN(C)C(=N)N(C)C", "imine"), ("N,N-dimethylformamidine", "CN(C)C=N", "imine"),
    ("propionamidine", "CCC(=N)N", "imine"), ("N-tert-butylmethanimine", "C=NC(C)(C)C", "imine"),
    ("acetone imine", "CC(C)=N", "imine"), ("N-methylpropan-2-imine", "CN=C(C)C", "imine"),
    ("1,1-dimethylguanidine", "CN(C)C(=N)N", "imine"), ("O-methylisourea", "COC(=N)N", "imine"),
    ("pivalamidine", "CC(C)(C)C(=N)N", "imine"), ("N-ethylethanimine", "CC/C=N/CC", "imine"),
    # ketones
    ("2-pentanone", "CCCC(C)=O", "ketone"), ("3-pentanone", "CCC(=O)CC", "ketone"),
    ("methyl isobutyl ketone", "CC(C)CC(C)=O", "ketone"), ("pinacolone", "CC(=O)C(C)(C)C", "ketone"),
    ("diisopropyl ketone", "CC(C)C(=O)C(C)C", "ketone"), ("acetylacetone", "CC(=O)CC(C)=O", "ketone"),
    ("2,5-hexanedione", "CC(=O)CCC(C)=O", "ketone"), ("mesityl oxide", "CC(=O)C=C(C)C", "ketone"),
    ("methyl vinyl ketone", "C=CC(C)=O", "ketone"), ("diacetone alcohol", "CC(=O)CC(C)(C)O", "ketone"),
    ("2-heptanone", "CCCCCC(C)=O", "ketone"), ("4-heptanone", "CCCC(=O)CCC", "ketone"), ("acetoin", "CC(=O)C(C)O", "ketone"),
    ("methoxyacetone", "COCC(C)=O", "ketone"),
    ("cycloheptanone", "O=C1CCCCCC1", "ketone"), ("cyclooctanone", "O=C1CCCCCCC1", "ketone"),
    ("2-adamantanone", "O=C1C2CC3CC(C2)CC1C3", "ketone"), ("norcamphor", "O=C1CC2CCC1C2", "ketone"),
    ("bicyclo[2.2.2]octan-2-one", "O=C1CC2CCC1CC2", "ketone"), ("2-indanone", "O=C1Cc2ccccc2C1", "ketone"),
    ("1-indanone", "O=C1CCc2ccccc21", "ketone"), ("1-tetralone", "O=C1CCCc2ccccc21", "ketone"),
    ("deoxybenzoin", "O=C(Cc1ccccc1)c1ccccc1", "ketone"), ("dibenzosuberone", "O=C1c2ccccc2CCc2ccccc21", "ketone"),
    ("anthrone", "O=C1c2ccccc2Cc2ccccc21", "ketone"), ("pulegone", "CC1CCC(=C(C)C)C(=O)C1", "ketone"),
    ("verbenone", "CC1=CC(=O)C2CC1C2(C)C", "ketone"), ("indane-1,3-dione", "O=C1CC(=O)c2ccccc21", "ketone"),
    ("4-chromanone", "O=C1CCOc2ccccc21", "ketone"), ("1-benzosuberone", "O=C1CCCCc2ccccc21", "ketone"),
    ("nootkatone", "CC(=C)C1CC(C)C2(C)CC(=O)C=C2C1", "ketone"), ("bicyclo[3.3.1]nonan-9-one", "O=C1C2CCCC1CCC2",
                                                                 "ketone"),
    # lactams
    ("2-azetidinone", "O=C1CCN1", "lactam"), ("2-azacyclooctanone", "O=C1CCCCCCN1", "lactam"),
    ("oxindole", "O=C1Cc2ccccc2N1", "lactam"), ("carbostyril", "O=c1ccc2ccccc2[nH]1", "lactam"),
    ("3,4-dihydrocarbostyril", "O=C1CCc2ccccc2N1", "lactam"), ("isoindolinone", "O=C1NCc2ccccc21", "lactam"),
    ("piperazin-2-one", "O=C1CNCCN1", "lactam"), ("glutarimide", "O=C1CCCC(=O)N1", "lactam"),
    ("4-phenyl-2-pyrrolidinone", "O=C1CC(c2ccccc2)CN1", "lactam"), ("N-methylcaprolactam", "CN1CCCCCC1=O", "lactam"),
    # lactones
    ("delta-valerolactone", "O=C1CCCCO1", "lactone"), ("epsilon-caprolactone", "O=C1CCCCCO1", "lactone"),
    ("beta-propiolactone", "O=C1CCO1", "lactone"), ("phthalide", "O=C1OCc2ccccc21", "lactone"),
    ("3,4-dihydrocoumarin", "O=C1CCc2ccccc2O1", "lactone"), ("glycolide", "O=C1COC(=O)CO1", "lactone"),
    ("diketene", "C=C1CC(=O)O1", "lactone"), ("2(5H)-furanone", "O=C1C=CCO1", "lactone"),
    ("2-coumaranone", "O=C1Cc2ccccc2O1", "lactone"), ("3-isochromanone", "O=C1Cc2ccccc2CO1", "lactone"),
    # nitriles
    ("butyronitrile", "CCCC#N", "nitrile"), ("isobutyronitrile", "CC(C)C#N", "nitrile"),
    ("pivalonitrile", "CC(C)(C)C#N", "nitrile"), ("succinonitrile", "N#CCCC#N", "nitrile"),
    ("glutaronitrile", "N#CCCCC#N", "nitrile"), ("adiponitrile", "N#CCCCCC#N", "nitrile"),
    ("malononitrile", "N#CCC#N", "nitrile"), ("methacrylonitrile", "C=C(C)C#N", "nitrile"),
    ("allyl cyanide", "C=CCC#N", "nitrile"), ("valeronitrile", "CCCCC#N", "nitrile"),
    ("aminoacetonitrile", "NCC#N", "nitrile"), ("3-(dimethylamino)propionitrile", "CN(C)CCC#N", "nitrile"),
    ("glycolonitrile", "N#CCO", "nitrile"), ("iminodiacetonitrile", "N#CCNCC#N", "nitrile"),
    # nitro
    ("1-nitropropane", "CCC[N+](=O)[O-]", "nitro"), ("2-nitropropane", "CC(C)[N+](=O)[O-]", "nitro"),
    ("2-methyl-2-nitro-1-propanol", "CC(C)(CO)[N+](=O)[O-]", "nitro"),
    ("tris(hydroxymethyl)nitromethane", "O=[N+]([O-])C(CO)(CO)CO", "nitro"),
    ("2-methyl-2-nitro-1,3-propanediol", "CC(CO)(CO)[N+](=O)[O-]", "nitro"), ("1-nitrohexane", "CCCCCC[N+](=O)[O-]",
                                                                            "nitro"),
    ("2-nitro-1-butanol", "CCC(CO)[N+](=O)[O-]", "nitro"),
    # oximes, hydroxylamines, hydroxamic acids
    ("acetone oxime", "CC(C)=NO", "oxime"), ("butanone oxime", "CCC(C)=NO", "oxime"),
    ("dimethylglyoxime", "C/C(=N\\O)C(C)=N/O", "oxime"), ("acetohydroxamic acid", "CC(=O)NO", "oxime"),
    ("N,N-diethylhydroxylamine", "CCN(O)CC", "oxime"), ("O-methylhydroxylamine", "CON", "oxime"),
    ("isobutyraldoxime", "CC(C)/C=N/O", "oxime"), ("pivaldehyde oxime", "CC(C)(C)/C=N/O", "oxime"),
    ("propionaldoxime", "CC/C=N/O", "oxime"), ("acetamidoxime", "C/C(N)=N/O", "oxime"),
    ("formamidoxime", "N/C=N/O", "oxime"), ("O-ethyl acetaldoxime", "CC/C=N/OCC", "oxime"),
    # capped peptides, dipeptides, tripeptides (L residues)
    ("Ace-Nle-NMe", "CCCC[C@H](NC(C)=O)C(=O)NC", "peptide"), ("Ace-Abu-NMe", "CC[C@H](NC(C)=O)C(=O)NC", "peptide"),
    ("Ace-Nva-NMe", "CCC[C@H](NC(C)=O)C(=O)NC", "peptide"), ("Ace-Sar-NMe", "CNC(=O)CN(C)C(C)=O", "peptide"),
    ("Ace-Gly-Ala-NMe", "CC(=O)NCC(=O)N[C@@H](C)C(=O)NC", "peptide"),
    ("Ace-Val-Ala-NMe", "CC(=O)N[C@@H](C(C)C)C(=O)N[C@@H](C)C(=O)NC", "peptide"),
    ("Ace-Ala-Val-NMe", "CC(=O)N[C@@H](C)C(=O)N[C@@H](C(C)C)C(=O)NC", "peptide"),
    ("Ace-Gly-Ser-NMe", "CC(=O)NCC(=O)N[C@@H](CO)C(=O)NC", "peptide"),
    ("Ace-Ser-Gly-NMe", "CC(=O)N[C@@H](CO)C(=O)NCC(=O)NC", "peptide"),
    ("Ace-Leu-Gly-NMe", "CC(=O)N[C@@H](CC(C)C)C(=O)NCC(=O)NC", "peptide"),
    ("Gly-Val", "NCC(=O)N[C@@H](C(C)C)C(=O)O", "peptide"), ("Val-Gly", "N[C@@H](C(C)C)C(=O)NCC(=O)O", "peptide"),
    ("Leu-Gly", "N[C@@H](CC(C)C)C(=O)NCC(=O)O", "peptide"), ("Gly-Leu", "NCC(=O)N[C@@H](CC(C)C)C(=O)O", "peptide"),
    ("Ala-Ser", "N[C@@H](C)C(=O)N[C@@H](CO)C(=O)O", "peptide"), ("Ala-Leu", "N[C@@H](C)C(=O)N[C@@H](CC(C)C)C(=O)O", "peptide"),
    ("Gly-Ala-Gly", "NCC(=O)N[C@@H](C)C(=O)NCC(=O)O", "peptide"),
    ("Ala-Gly-Gly", "N[C@@H](C)C(=O)NCC(=O)NCC(=O)O", "peptide"),
    ("Gly-Gly-Ala", "NCC(=O)NCC(=O)N[C@@H](C)C(=O)O", "peptide"),
    # phenols
    ("2-hydroxydibenzofuran", "Oc1ccc2oc3ccccc3c2c1", "phenol"), ("2-hydroxyfluorene", "Oc1ccc2c(c1)Cc1ccccc1-2", "phenol"),
    ("daidzein", "O=c1c(-c2ccc(O)cc2)coc2cc(O)ccc12", "phenol"),
    ("phloretin", "O=C(CCc1ccc(O)cc1)c1c(O)cc(O)cc1O", "phenol"),
    ("estrone", "C[C@]12CC[C@@H]3c4ccc(O)cc4CC[C@H]3[C@@H]1CCC2=O", "phenol"),
    ("2,2,5,7,8-pentamethyl-6-chromanol", "Cc1c(C)c2c(c(C)c1O)CCC(C)(C)O2", "phenol"),
    ("5-indanol", "Oc1ccc2c(c1)CCC2", "phenol"), ("4-cyclohexylphenol", "Oc1ccc(C2CCCCC2)cc1", "phenol"),
    ("4-(1-adamantyl)phenol", "Oc1ccc(C23CC4CC(CC(C4)C2)C3)cc1", "phenol"),
    ("4-benzylphenol", "Oc1ccc(Cc2ccccc2)cc1", "phenol"), ("bisphenol A", "CC(C)(c1ccc(O)cc1)c1ccc(O)cc1", "phenol"),
    ("4-phenylphenol", "Oc1ccc(-c2ccccc2)cc1", "phenol"), ("9-phenanthrol", "Oc1cc2ccccc2c2ccccc12", "phenol"),
    ("equol", "Oc1ccc([C@@H]2COc3cc(O)ccc3C2)cc1", "phenol"),
    # polyfunctional
    ("2-amino-2-methyl-1,3-propanediol", "CC(N)(CO)CO", "polyfunctional"),
    ("3-amino-1,2-propanediol", "NCC(O)CO", "polyfunctional"), ("bicine", "OCCN(CCO)CC(=O)O", "polyfunctional"),
    ("tricine", "OCC(CO)(CO)NCC(=O)O", "polyfunctional"), ("bis-tris", "OCCN(CCO)C(CO)(CO)CO", "polyfunctional"),
    ("lactamide", "CC(O)C(N)=O", "polyfunctional"), ("malonamide", "NC(=O)CC(N)=O", "polyfunctional"),
    ("cyanoacetohydrazide", "N#CCC(=O)NN", "polyfunctional"), ("glycinamide", "NCC(N)=O", "polyfunctional"),
    ("2-hydroxyisobutyric acid", "CC(C)(O)C(=O)O", "polyfunctional"),
    ("2,2-bis(hydroxymethyl)propionic acid", "CC(CO)(CO)C(=O)O", "polyfunctional"),
    ("N-methyldiethanolamine", "CN(CCO)CCO", "polyfunctional"), ("iminodiacetic acid", "O=C(O)CNCC(=O)O",
                                                                 "polyfunctional"),
    ("2-(2-aminoethoxy)ethanol", "NCCOCCO", "polyfunctional"),
    ("2-amino-2-ethyl-1,3-propanediol", "CCC(N)(CO)CO", "polyfunctional"),
    # sugars, open chain (stereo left open: the set's key is stereo-free)
    ("erythrulose", "O=C(CO)C(O)CO", "sugar"), ("ribulose (open chain)", "O=C(CO)C(O)C(O)CO", "sugar"),
    ("fructose (open chain)", "O=C(CO)C(O)C(O)C(O)CO", "sugar"),
    ("2-deoxyribose (open chain)", "O=CCC(O)C(O)CO", "sugar"),
    ("rhamnose (open chain)", "CC(O)C(O)C(O)C(O)C=O", "sugar"),
    ("2-deoxyglucose (open chain)", "O=CCC(O)C(O)C(O)CO", "sugar"),
    ("volemitol (heptitol)", "OCC(O)C(O)C(O)C(O)C(O)CO", "sugar"), ("2-C-methylerythritol", "CC(O)(CO)C(O)CO", "sugar"),
    ("apiose (open chain)", "O=CC(O)C(O)(CO)CO", "sugar"),
    ("sedoheptulose (open chain)", "O=C(CO)C(O)C(O)C(O)C(O)CO", "sugar"),
    # nucleobases and nucleosides
    ("inosine", "O=c1[nH]cnc2c1ncn2[C@@H]1O[C@H](CO)[C@@H](O)[C@H]1O", "nucleobase"),
    ("tubercidin", "Nc1ncnc2c1ccn2[C@@H]1O[C@H](CO)[C@@H](O)[C@H]1O", "nucleobase"),
    ("7-deazaadenine", "Nc1ncnc2[nH]ccc12", "nucleobase"), ("8-azaguanine", "Nc1nc2[nH]nnc2c(=O)[nH]1", "nucleobase"),
    ("8-azaadenine", "Nc1ncnc2[nH]nnc12", "nucleobase"), ("5-azacytosine", "Nc1ncnc(=O)[nH]1", "nucleobase"),
    ("6-azauracil", "O=c1cn[nH]c(=O)[nH]1", "nucleobase"), ("5,6-dihydrouracil", "O=C1CCNC(=O)N1", "nucleobase"),
    ("pseudouridine", "O=c1[nH]cc([C@@H]2O[C@H](CO)[C@@H](O)[C@H]2O)c(=O)[nH]1", "nucleobase"),
    ("zebularine", "O=c1ncccn1[C@@H]1O[C@H](CO)[C@@H](O)[C@H]1O", "nucleobase"),
    ("lumazine", "O=c1[nH]c(=O)c2nccnc2[nH]1", "nucleobase"),
    # ureas
    ("hydantoin", "O=C1CNC(=O)N1", "urea"), ("DMPU", "CN1CCCN(C)C1=O", "urea"), ("DMI", "CN1CCN(C)C1=O", "urea"),
    ("tetrahydro-2-pyrimidinone", "O=C1NCCCN1", "urea"), ("5,5-dimethylhydantoin", "CC1(C)NC(=O)NC1=O", "urea"),
    ("2-benzimidazolinone", "O=c1[nH]c2ccccc2[nH]1", "urea"), ("glycoluril", "O=C1NC2NC(=O)NC2N1", "urea"),
    ("1,1-diphenylurea", "NC(=O)N(c1ccccc1)c1ccccc1", "urea"),
    ("N-phenylmorpholine-4-carboxamide", "O=C(Nc1ccccc1)N1CCOCC1", "urea"),
    ("1-cyclohexyl-3-phenylurea", "O=C(Nc1ccccc1)NC1CCCCC1", "urea"),
)


def scaffold_key(smiles):
    """A ring molecule's scaffold as compared here: its Bemis-Murcko scaffold (chirality ignored) as RDKit's canonical
    tautomer, so 1H- and 2H-tautomeric ring systems are one ('' for an acyclic molecule)."""
    s = scaffold(smiles)
    return tautomer(s) if s else ""


def tautomer(smiles):
    from enumerate_motifs import tautomer as canonical_tautomer
    try:
        return canonical_tautomer(smiles)
    except Exception:   # noqa: BLE001 - a scaffold RDKit cannot re-kekulise keeps its own SMILES
        return stereo_free(smiles)


def read_rows(name):
    with open(os.path.join(HERE, name), newline="") as f:
        return list(csv.DictReader(f))


def known_smiles():
    """[(where, name, smiles)] of every molecule B must avoid: SOURCES (train and test A) and the v5 systems."""
    out = [(f, r["name"], r["smiles"]) for f in SOURCES for r in read_rows(f)]
    out += [("v5 systems", s, s) for s in V5_SYSTEMS]
    return out


def is_ring(smiles):
    return Chem.MolFromSmiles(smiles).GetRingInfo().NumRings() > 0


def quota(listed=None):
    """{(category, origin, 'ring'|'acyclic'): count} of test set A (origin 'hand': curated.csv's, else 'enumerated')."""
    listed = read_rows("molecules.csv") if listed is None else listed
    curated = {canonical(r["smiles"])[0] for r in read_rows("curated.csv")}
    out = {}
    for r in listed:
        if r["split"] == "test":
            k = (r["category"], "hand" if r["smiles"] in curated else "enumerated",
                 "ring" if is_ring(r["smiles"]) else "acyclic")
            out[k] = out.get(k, 0) + 1
    return out


def build(seed=B_SEED, verbose=False):
    """B's rows (name, smiles, category, split='testb', origin, ring) and the rejected candidates [(name, why)]."""
    RDLogger.DisableLog("rdApp.*")
    known = known_smiles()
    keys = {stereo_free(s): f"{w}: {n}" for w, n, s in known}
    tauts = {tautomer(s): f"{w}: {n}" for w, n, s in known}
    scaffolds = {}
    for w, n, s in known:
        k = scaffold_key(s)
        if k:
            scaffolds.setdefault(k, f"{w}: {n}")
    want = quota()
    taken, rows, rejected, short = set(), [], [], []

    def why_not(smi, mol):
        why = problems(mol)
        k = stereo_free(smi)
        if k in keys:
            why.append(f"known ({keys[k]})")
        elif k in taken:
            why.append("already in B")
        elif tautomer(smi) in tauts:
            why.append(f"a tautomer of {tauts[tautomer(smi)]}")
        sk = scaffold_key(smi) if mol.GetRingInfo().NumRings() else ""
        if sk in scaffolds:
            why.append(f"ring scaffold {sk} of {scaffolds[sk]}")
        if not why and not embeds(mol, seed):
            why.append("does not embed")
        return why

    def draw(cands, origin):
        strata = {}
        for c in cands:
            strata.setdefault((c["category"], origin, "ring" if c["ring"] else "acyclic"), []).append(c)
        chosen = []
        for stratum in sorted(k for k in want if k[1] == origin):
            pool = strata.get(stratum, [])
            if len(pool) < want[stratum]:
                short.append(f"stratum {stratum}: {len(pool)} eligible candidates for a quota of {want[stratum]}")
            order = list(range(len(pool)))
            random.Random(f"{seed}:{':'.join(stratum)}").shuffle(order)
            chosen += [pool[i] for i in order[:want[stratum]]]
        return chosen

    hand = []
    for name, smiles, category in HAND:
        mol = Chem.MolFromSmiles(smiles)
        if mol is None:
            raise ValueError(f"HAND: {name}: {smiles} does not parse or sanitise")
        smi = Chem.MolToSmiles(mol)
        why = why_not(smi, mol)
        if why:
            rejected.append((name, "; ".join(why)))
            continue
        taken.add(stereo_free(smi))
        hand.append(dict(name=name, smiles=smi, category=category, ring=mol.GetRingInfo().NumRings() > 0, order=len(hand)))
    chosen_hand = sorted(draw(hand, "hand"), key=lambda c: c["order"])
    taken = {stereo_free(c["smiles"]) for c in chosen_hand}
    enumerated = []
    for name, smi, mol in enumerate_products():
        if stereo_free(smi) in taken or stereo_free(smi) in keys:
            continue
        sk = scaffold_key(smi) if mol.GetRingInfo().NumRings() else ""
        if sk in scaffolds:
            continue
        if tautomer(smi) in tauts or problems(mol) or not embeds(mol, seed):
            continue
        enumerated.append(dict(name=name, smiles=smi, category=classify(mol), ring=mol.GetRingInfo().NumRings() > 0,
                               order=len(enumerated)))
    chosen_enum = sorted(draw(enumerated, "enumerated"), key=lambda c: c["order"])
    if short:
        raise ValueError("strata short of candidates:\n  " + "\n  ".join(short) + "\nrejected HAND candidates:\n  "
                         + "\n  ".join(f"{n}: {w}" for n, w in rejected))
    for origin, chosen in (("hand", chosen_hand), ("enumerated", chosen_enum)):
        for c in chosen:
            rows.append(dict(name=c["name"], smiles=c["smiles"], category=c["category"], split="testb", origin=origin,
                             ring=c["ring"]))
    if verbose:
        print(f"HAND: {len(HAND)} candidates, {len(hand)} eligible, {len(chosen_hand)} drawn; enumerated: "
              f"{len(enumerated)} eligible, {len(chosen_enum)} drawn")
    return rows, rejected


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=TESTB_CSV)
    ap.add_argument("--starts", action="store_true", help="also write the starts (make_starts.py's conformers)")
    ap.add_argument("--starts-out", default=STARTS)
    ap.add_argument("--conformers", type=int, default=3, help="conformers per molecule (default 3, as make_starts.py)")
    ap.add_argument("--rejected", action="store_true", help="print the HAND candidates the rules dropped, and why")
    args = ap.parse_args(argv)
    t0 = time.time()
    rows, rejected = build(verbose=True)
    write(rows, args.out)
    by = {}
    for r in rows:
        by[r["category"]] = by.get(r["category"], 0) + 1
    print(f"{len(rows)} molecules ({sum(r['ring'] for r in rows)} with rings, "
          f"{sum(r['origin'] == 'hand' for r in rows)} hand-named) -> {args.out} in {time.time() - t0:.1f} s")
    print(", ".join(f"{k} {v}" for k, v in sorted(by.items())))
    if args.rejected:
        for n, why in rejected:
            print(f"  rejected {n}: {why}")
    if args.starts:
        from enumerate_conjugated import write_starts_and_say
        write_starts_and_say(rows, args.starts_out, args.conformers, first=TESTB_INDEX, split="testb")


if __name__ == "__main__":
    sys.exit(main())
