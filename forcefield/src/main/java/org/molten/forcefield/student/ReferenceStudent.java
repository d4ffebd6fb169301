package org.molten.forcefield.student;

import org.molten.core.Atoms;
import org.molten.core.ForceField;
import org.molten.forcefield.neighbours.AllPairsSearch;
import org.molten.forcefield.neighbours.EdgeList;

import static org.molten.forcefield.student.ReferenceOps.cutoff;
import static org.molten.forcefield.student.ReferenceOps.cutoffPrime;
import static org.molten.forcefield.student.ReferenceOps.linear;
import static org.molten.forcefield.student.ReferenceOps.linearBackward;
import static org.molten.forcefield.student.ReferenceOps.rbf;
import static org.molten.forcefield.student.ReferenceOps.rbfPrime;
import static org.molten.forcefield.student.ReferenceOps.silu;
import static org.molten.forcefield.student.ReferenceOps.siluBackward;

/**
 * The reference student: the PaiNN-style model of docs/model.md (Schütt, Unke and Gastegger,
 * ICML 2021) in float64, all-pairs neighbour search, every operation of the spec as its own
 * plain step with its intermediates kept, and exact forces from a hand-written backward pass
 * following the spec's checklist. It is the oracle that every fast path (optimised CPU, CUDA,
 * TorchScript) is tested against; it is written to be read, not to be fast.
 *
 * <p>Not thread-safe (as every {@link ForceField}); holds no native resources.
 */
public final class ReferenceStudent implements ForceField {
    private final StudentWeights weights;
    private final int f;
    private final int layers;
    private final int nRbf;
    private final double rc;
    private final double gamma;
    private final AllPairsSearch search = new AllPairsSearch();
    private final EdgeList edgeList = new EdgeList();

    /** A reference student for these weights. */
    public ReferenceStudent(StudentWeights weights) {
        this.weights = weights;
        this.f = weights.hidden();
        this.layers = weights.layers();
        this.nRbf = weights.nRbf();
        this.rc = weights.cutoffA();
        this.gamma = weights.gammaPerA2();
    }

    @Override
    public String name() {
        return "student/reference";
    }

    /** The weights' SHA-256 ({@link StudentWeights#fingerprint()}): a restart with other weights is refused. */
    @Override
    public String parametersFingerprint() {
        return "student-weights sha256:" + weights.fingerprint();
    }

    /** The weights this model evaluates. */
    public StudentWeights weights() {
        return weights;
    }

    @Override
    public boolean providesPerAtomEnergies() {
        return true;
    }

    @Override
    public double energyAndForces(Atoms atoms, double[] forces) {
        return energyAndForces(atoms, forces, null);
    }

    @Override
    public double energyAndForces(Atoms atoms, double[] forces, double[] perAtomEnergiesEv) {
        int n = atoms.size();
        ForceField.requireOutputLengths(atoms, forces, perAtomEnergiesEv);
        int[] species = weights.speciesIndices(atoms);
        Graph g = graph(atoms);

        // ---- forward
        double[][] s = embed(species);
        double[][][] v = new double[n][3][f];
        MessageCache[] mc = new MessageCache[layers];
        UpdateCache[] uc = new UpdateCache[layers];
        for (int t = 0; t < layers; t++) {
            mc[t] = messageForward(t, g, s, v);
            s = mc[t].sOut;
            v = mc[t].vOut;
            uc[t] = updateForward(t, s, v);
            s = uc[t].sOut;
            v = uc[t].vOut;
        }
        ReadoutCache rcache = readoutForward(species, s);
        double energy = 0.0;
        for (int i = 0; i < n; i++) {
            energy += rcache.atomEnergy[i];
            if (perAtomEnergiesEv != null) {
                perAtomEnergiesEv[i] = rcache.atomEnergy[i];
            }
        }

        // ---- backward
        double[][] gS = readoutBackward(rcache);
        double[][][] gV = new double[n][3][f];
        double[] gD = new double[g.size()];
        double[][] gU = new double[g.size()][3];
        for (int t = layers - 1; t >= 0; t--) {
            Grad gu = updateBackward(t, uc[t], gS, gV);
            Grad gm = messageBackward(t, g, mc[t], gu.gS, gu.gV, gD, gU);
            gS = gm.gS;
            gV = gm.gV;
        }
        double[] gR = geometryBackward(g, gD, gU, n);
        for (int k = 0; k < 3 * n; k++) {
            forces[k] = -gR[k];
        }
        return energy;
    }

    // ================================================================== graph and geometry

    /** Directed edges i &lt;- j with r_ij = r_j - r_i (minimum image), d_ij and u_ij = r_ij / d_ij. */
    static final class Graph {
        final int atoms;
        final int[] i;
        final int[] j;
        final double[][] r;
        final double[] d;
        final double[][] u;

        Graph(int atoms, int[] i, int[] j, double[][] r) {
            this.atoms = atoms;
            this.i = i;
            this.j = j;
            this.r = r;
            this.d = new double[i.length];
            this.u = new double[i.length][3];
            for (int e = 0; e < i.length; e++) {
                d[e] = Math.sqrt(r[e][0] * r[e][0] + r[e][1] * r[e][1] + r[e][2] * r[e][2]);
                for (int a = 0; a < 3; a++) {
                    u[e][a] = r[e][a] / d[e];
                }
            }
        }

        int size() {
            return i.length;
        }
    }

    /** All-pairs edges of {@code atoms} within the model's cutoff. */
    Graph graph(Atoms atoms) {
        search.search(atoms, rc, edgeList);
        int e = edgeList.size();
        int[] ii = new int[e];
        int[] jj = new int[e];
        double[][] r = new double[e][3];
        for (int a = 0; a < atoms.size(); a++) {
            for (int k = edgeList.rowStart(a); k < edgeList.rowStart(a + 1); k++) {
                ii[k] = a;
                jj[k] = edgeList.neighbour(k);
                for (int c = 0; c < 3; c++) {
                    r[k][c] = edgeList.vector(k, c);
                }
            }
        }
        return new Graph(atoms.size(), ii, jj, r);
    }

    /**
     * Geometry to positions: g_r_ij = g_d u + (g_u - (u . g_u) u) / d; g_r_j += g_r_ij,
     * g_r_i -= g_r_ij. Returns dE/dr flat [3N].
     */
    static double[] geometryBackward(Graph g, double[] gD, double[][] gU, int n) {
        double[] gR = new double[3 * n];
        for (int e = 0; e < g.size(); e++) {
            double[] u = g.u[e];
            double ug = u[0] * gU[e][0] + u[1] * gU[e][1] + u[2] * gU[e][2];
            for (int a = 0; a < 3; a++) {
                double gr = gD[e] * u[a] + (gU[e][a] - ug * u[a]) / g.d[e];
                gR[3 * g.j[e] + a] += gr;
                gR[3 * g.i[e] + a] -= gr;
            }
        }
        return gR;
    }

    // ================================================================== embedding

    double[][] embed(int[] species) {
        double[] emb = weights.embedding();
        double[][] s = new double[species.length][f];
        for (int i = 0; i < species.length; i++) {
            System.arraycopy(emb, species[i] * f, s[i], 0, f);
        }
        return s;
    }

    // ================================================================== message block

    /** Intermediates of one message block, kept for its backward pass. */
    static final class MessageCache {
        double[][] sIn;
        double[][][] vIn;
        double[][] phiPre;   // [N][F]   Linear1(s)
        double[][] phi;      // [N][3F]  Linear2(SiLU(Linear1(s)))
        double[][] rbf;      // [E][n_rbf]
        double[] fcut;       // [E]
        double[][] h;        // [E][3F]  Wf rbf + bf
        double[][] filter;   // [E][3F]  h * fcut
        double[][] x;        // [E][3F]  phi_j o filter
        double[][] sOut;
        double[][][] vOut;
    }

    MessageCache messageForward(int t, Graph g, double[][] s, double[][][] v) {
        int n = s.length;
        double[] w1 = weights.phi0Weight(t);
        double[] b1 = weights.phi0Bias(t);
        double[] w2 = weights.phi2Weight(t);
        double[] b2 = weights.phi2Bias(t);
        double[] wf = weights.filterWeight(t);
        double[] bf = weights.filterBias(t);
        MessageCache c = new MessageCache();
        c.sIn = s;
        c.vIn = v;
        // phi(s_j) = Linear2(SiLU(Linear1(s_j))), per atom
        c.phiPre = new double[n][];
        c.phi = new double[n][];
        for (int a = 0; a < n; a++) {
            c.phiPre[a] = linear(w1, b1, s[a], f, f);
            c.phi[a] = linear(w2, b2, silu(c.phiPre[a]), 3 * f, f);
        }
        // W(d_ij) = (Wf rbf(d_ij) + bf) fcut(d_ij), per edge
        int ne = g.size();
        c.rbf = new double[ne][];
        c.fcut = new double[ne];
        c.h = new double[ne][];
        c.filter = new double[ne][3 * f];
        c.x = new double[ne][3 * f];
        for (int e = 0; e < ne; e++) {
            c.rbf[e] = rbf(g.d[e], nRbf, rc, gamma);
            c.fcut[e] = cutoff(g.d[e], rc);
            c.h[e] = linear(wf, bf, c.rbf[e], 3 * f, nRbf);
            for (int k = 0; k < 3 * f; k++) {
                c.filter[e][k] = c.h[e][k] * c.fcut[e];
            }
            // x_ij = phi(s_j) o W(d_ij) = [x_vv | x_s | x_vs]
            for (int k = 0; k < 3 * f; k++) {
                c.x[e][k] = c.phi[g.j[e]][k] * c.filter[e][k];
            }
        }
        // Aggregation and residual: s_i += sum_j x_s; v_i += sum_j (x_vv o v_j + u_ij (outer) x_vs)
        c.sOut = new double[n][];
        c.vOut = new double[n][3][];
        for (int a = 0; a < n; a++) {
            c.sOut[a] = s[a].clone();
            for (int xyz = 0; xyz < 3; xyz++) {
                c.vOut[a][xyz] = v[a][xyz].clone();
            }
        }
        for (int e = 0; e < ne; e++) {
            int i = g.i[e];
            int j = g.j[e];
            for (int k = 0; k < f; k++) {
                double xvv = c.x[e][k];
                double xs = c.x[e][f + k];
                double xvs = c.x[e][2 * f + k];
                c.sOut[i][k] += xs;
                for (int xyz = 0; xyz < 3; xyz++) {
                    c.vOut[i][xyz][k] += xvv * v[j][xyz][k] + g.u[e][xyz] * xvs;
                }
            }
        }
        return c;
    }

    /** Gradients with respect to a block's inputs. */
    static final class Grad {
        final double[][] gS;
        final double[][][] gV;

        Grad(double[][] gS, double[][][] gV) {
            this.gS = gS;
            this.gV = gV;
        }
    }

    /**
     * Backward through one message block, given g_s', g_v' of its outputs; accumulates the
     * per-edge geometry gradients g_d and g_u.
     */
    Grad messageBackward(int t, Graph g, MessageCache c, double[][] gSout, double[][][] gVout,
                         double[] gD, double[][] gU) {
        int n = gSout.length;
        double[] w1 = weights.phi0Weight(t);
        double[] w2 = weights.phi2Weight(t);
        double[] wf = weights.filterWeight(t);
        // The residual passes g_s', g_v' through unchanged.
        double[][] gS = new double[n][];
        double[][][] gV = new double[n][3][];
        for (int a = 0; a < n; a++) {
            gS[a] = gSout[a].clone();
            for (int xyz = 0; xyz < 3; xyz++) {
                gV[a][xyz] = gVout[a][xyz].clone();
            }
        }
        double[][] gPhi = new double[n][3 * f];
        for (int e = 0; e < g.size(); e++) {
            int i = g.i[e];
            int j = g.j[e];
            double[] gx = new double[3 * f];
            for (int k = 0; k < f; k++) {
                double gxvv = 0.0;
                double gxvs = 0.0;
                for (int xyz = 0; xyz < 3; xyz++) {
                    gxvv += gVout[i][xyz][k] * c.vIn[j][xyz][k];
                    gxvs += gVout[i][xyz][k] * g.u[e][xyz];
                    // g_v_j += g_v'_i o x_vv_ij
                    gV[j][xyz][k] += gVout[i][xyz][k] * c.x[e][k];
                    // g_u_ij += sum_f g_v'_i[:, f] x_vs_ij[f]
                    gU[e][xyz] += gVout[i][xyz][k] * c.x[e][2 * f + k];
                }
                gx[k] = gxvv;
                gx[f + k] = gSout[i][k];
                gx[2 * f + k] = gxvs;
            }
            // g_phi_j += gx o W_ij;  g_W = gx o phi_j
            double[] gW = new double[3 * f];
            for (int k = 0; k < 3 * f; k++) {
                gPhi[j][k] += gx[k] * c.filter[e][k];
                gW[k] = gx[k] * c.phi[j][k];
            }
            // g_d += sum_c g_W[c] ((Wf rbf'(d))[c] fcut(d) + h[c] fcut'(d))
            double[] drbf = rbfPrime(g.d[e], nRbf, rc, gamma);
            double[] wfDrbf = linear(wf, null, drbf, 3 * f, nRbf);
            double dfc = cutoffPrime(g.d[e], rc);
            double acc = 0.0;
            for (int k = 0; k < 3 * f; k++) {
                acc += gW[k] * (wfDrbf[k] * c.fcut[e] + c.h[e][k] * dfc);
            }
            gD[e] += acc;
        }
        // Back through phi (atom-wise MLP) from g_phi_j to g_s_j.
        for (int a = 0; a < n; a++) {
            double[] gHidden = linearBackward(w2, gPhi[a], 3 * f, f);
            double[] gPre = siluBackward(c.phiPre[a], gHidden);
            double[] gs = linearBackward(w1, gPre, f, f);
            for (int k = 0; k < f; k++) {
                gS[a][k] += gs[k];
            }
        }
        return new Grad(gS, gV);
    }

    // ================================================================== update block

    /** Intermediates of one update block. */
    static final class UpdateCache {
        double[][][] vIn;
        double[][][] uv;     // [N][3][F]  U v
        double[][][] vv;     // [N][3][F]  V v
        double[][] norm;     // [N][F]     sqrt(sum_xyz Vv^2 + 1e-8)
        double[][] pre;      // [N][F]     Linear3([s, n])
        double[][] a;        // [N][3F]    Linear4(SiLU(pre)) = [a_vv | a_sv | a_ss]
        double[][] sp;       // [N][F]     sum_xyz Uv o Vv
        double[][] sOut;
        double[][][] vOut;
    }

    /** Epsilon inside the norm of V v, Å-free (features are dimensionless). */
    static final double NORM_EPSILON = 1e-8;

    UpdateCache updateForward(int t, double[][] s, double[][][] v) {
        int n = s.length;
        double[] wu = weights.updateU(t);
        double[] wv = weights.updateV(t);
        double[] w3 = weights.mlp0Weight(t);
        double[] b3 = weights.mlp0Bias(t);
        double[] w4 = weights.mlp2Weight(t);
        double[] b4 = weights.mlp2Bias(t);
        UpdateCache c = new UpdateCache();
        c.vIn = v;
        c.uv = new double[n][3][];
        c.vv = new double[n][3][];
        c.norm = new double[n][f];
        c.pre = new double[n][];
        c.a = new double[n][];
        c.sp = new double[n][f];
        c.sOut = new double[n][f];
        c.vOut = new double[n][3][f];
        for (int i = 0; i < n; i++) {
            for (int xyz = 0; xyz < 3; xyz++) {
                c.uv[i][xyz] = linear(wu, null, v[i][xyz], f, f);
                c.vv[i][xyz] = linear(wv, null, v[i][xyz], f, f);
            }
            double[] in = new double[2 * f];
            for (int k = 0; k < f; k++) {
                double sq = 0.0;
                for (int xyz = 0; xyz < 3; xyz++) {
                    sq += c.vv[i][xyz][k] * c.vv[i][xyz][k];
                    c.sp[i][k] += c.uv[i][xyz][k] * c.vv[i][xyz][k];
                }
                c.norm[i][k] = Math.sqrt(sq + NORM_EPSILON);
                in[k] = s[i][k];
                in[f + k] = c.norm[i][k];
            }
            c.pre[i] = linear(w3, b3, in, f, 2 * f);
            c.a[i] = linear(w4, b4, silu(c.pre[i]), 3 * f, f);
            for (int k = 0; k < f; k++) {
                double avv = c.a[i][k];
                double asv = c.a[i][f + k];
                double ass = c.a[i][2 * f + k];
                for (int xyz = 0; xyz < 3; xyz++) {
                    c.vOut[i][xyz][k] = v[i][xyz][k] + avv * c.uv[i][xyz][k];
                }
                c.sOut[i][k] = s[i][k] + ass + asv * c.sp[i][k];
            }
        }
        return c;
    }

    Grad updateBackward(int t, UpdateCache c, double[][] gSout, double[][][] gVout) {
        int n = gSout.length;
        double[] wu = weights.updateU(t);
        double[] wv = weights.updateV(t);
        double[] w3 = weights.mlp0Weight(t);
        double[] w4 = weights.mlp2Weight(t);
        double[][] gS = new double[n][];
        double[][][] gV = new double[n][3][];
        for (int i = 0; i < n; i++) {
            double[] ga = new double[3 * f];   // [g_a_vv | g_a_sv | g_a_ss]
            double[] gsp = new double[f];
            for (int k = 0; k < f; k++) {
                double gavv = 0.0;
                for (int xyz = 0; xyz < 3; xyz++) {
                    gavv += gVout[i][xyz][k] * c.uv[i][xyz][k];
                }
                ga[k] = gavv;
                ga[f + k] = gSout[i][k] * c.sp[i][k];
                ga[2 * f + k] = gSout[i][k];
                gsp[k] = gSout[i][k] * c.a[i][f + k];
            }
            double[] gHidden = linearBackward(w4, ga, 3 * f, f);
            double[] gPre = siluBackward(c.pre[i], gHidden);
            double[] gIn = linearBackward(w3, gPre, f, 2 * f);   // [g_s | g_n]
            gS[i] = new double[f];
            for (int k = 0; k < f; k++) {
                gS[i][k] = gSout[i][k] + gIn[k];
            }
            for (int xyz = 0; xyz < 3; xyz++) {
                double[] gUv = new double[f];
                double[] gVv = new double[f];
                for (int k = 0; k < f; k++) {
                    gUv[k] = gVout[i][xyz][k] * c.a[i][k] + gsp[k] * c.vv[i][xyz][k];
                    gVv[k] = gsp[k] * c.uv[i][xyz][k] + gIn[f + k] / c.norm[i][k] * c.vv[i][xyz][k];
                }
                double[] fromU = linearBackward(wu, gUv, f, f);
                double[] fromV = linearBackward(wv, gVv, f, f);
                gV[i][xyz] = new double[f];
                for (int k = 0; k < f; k++) {
                    gV[i][xyz][k] = gVout[i][xyz][k] + fromU[k] + fromV[k];
                }
            }
        }
        return new Grad(gS, gV);
    }

    // ================================================================== readout

    /** Intermediates of the readout. */
    static final class ReadoutCache {
        double[][] pre;       // [N][F/2] Linear5(s)
        double[] y;           // [N]
        double[] atomEnergy;  // [N] scale y + atomref, eV
    }

    ReadoutCache readoutForward(int[] species, double[][] s) {
        int n = s.length;
        int h = weights.readoutHidden();
        double[] w5 = weights.readout0Weight();
        double[] b5 = weights.readout0Bias();
        double[] w6 = weights.readout2Weight();
        double b6 = weights.readout2Bias();
        double[] atomref = weights.atomref();
        double scale = weights.scale();
        ReadoutCache c = new ReadoutCache();
        c.pre = new double[n][];
        c.y = new double[n];
        c.atomEnergy = new double[n];
        for (int i = 0; i < n; i++) {
            c.pre[i] = linear(w5, b5, s[i], h, f);
            c.y[i] = linear(w6, new double[]{b6}, silu(c.pre[i]), 1, h)[0];
            c.atomEnergy[i] = scale * c.y[i] + atomref[species[i]];
        }
        return c;
    }

    /** g_s_i = scale W5^T (SiLU'(z5_i) o W6^T). */
    double[][] readoutBackward(ReadoutCache c) {
        int n = c.pre.length;
        int h = weights.readoutHidden();
        double[] w5 = weights.readout0Weight();
        double[] w6 = weights.readout2Weight();
        double scale = weights.scale();
        double[][] gS = new double[n][];
        for (int i = 0; i < n; i++) {
            double[] gHidden = linearBackward(w6, new double[]{scale}, 1, h);
            gS[i] = linearBackward(w5, siluBackward(c.pre[i], gHidden), h, f);
        }
        return gS;
    }
}
