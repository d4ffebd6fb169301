package org.molten.forcefield.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.molten.core.Atoms;

/**
 * Bonded pairs of environments: a domain of ethane and propene holds both of ethylene's environments, C(C,H,H) and
 * H(C), but never a bond between two C(C,H,H): ethylene's C=C is named by its atoms, propene and ethane are inside, and
 * a domain entry without pairs (files written before them) names no bond. The domain's JSON is the one
 * forcefield/training/domain.py writes for ethane.xyz and propene.xyz (test_domain.PairTest asserts the same pairs).
 */
class BondedPairDomainTest {
    static final String ENVIRONMENTS = "\"environments\":{\"C(C,C,H)\":1,\"C(C,H,H)\":1,\"C(C,H,H,H)\":3,\"H(C)\":14}";
    static final String PAIRS = "\"pair_definition\":\"...\",\"pairs_source\":\"frames\",\"pairs\":{\"C(C,C,H)-C(C,H,H)\":1,"
            + "\"C(C,C,H)-C(C,H,H,H)\":1,\"C(C,C,H)-H(C)\":1,\"C(C,H,H)-H(C)\":2,\"C(C,H,H,H)-C(C,H,H,H)\":1,"
            + "\"C(C,H,H,H)-H(C)\":9}";
    static final ModelDomain WITH_PAIRS = ModelDomain.parse("{\"frames\":2,\"molecule_count\":2," + ENVIRONMENTS + ","
            + PAIRS + "}", "ethane+propene");
    static final ModelDomain WITHOUT_PAIRS = ModelDomain.parse("{\"frames\":2,\"molecule_count\":2," + ENVIRONMENTS + "}",
            "ethane+propene, no pairs");

    static Atoms molecule(String name) throws IOException {
        return ModelDomainTest.outside(name);
    }

    @Test
    void ethylenesDoubleBondIsNamedByItsAtomsThoughBothEnvironmentsAreKnown() throws IOException {
        DomainReport r = WITH_PAIRS.check(molecule("ethylene"));   // C0=C1, H2 H3 on C0, H4 H5 on C1
        assertFalse(r.inside(), r.describe());
        assertEquals(List.of(), r.unseen());
        assertEquals(List.of(new DomainReport.UnseenBond(0, 1, EnvironmentPair.parse("C(C,H,H)-C(C,H,H)"))), r.unseenBonds());
        assertEquals("1 bond between environments never bonded in the training data: C(C,H,H)-C(C,H,H) (atoms 0-1)",
                r.describe());
    }

    @Test
    void theTrainingMoleculesThemselvesAreInside() throws IOException {
        for (String m : List.of("ethane", "propene")) {
            DomainReport r = WITH_PAIRS.check(molecule(m));
            assertTrue(r.inside(), m + ": " + r.describe());
        }
        assertTrue(WITH_PAIRS.hasPairs());
        assertEquals(6, WITH_PAIRS.pairs().size());
        assertEquals(9L, WITH_PAIRS.pairs().get(EnvironmentPair.parse("H(C)-C(C,H,H,H)")));
        assertEquals("frames", WITH_PAIRS.pairsSource());
        assertTrue(WITH_PAIRS.summary().endsWith("4 atom environments; 6 bonded pairs of environments"), WITH_PAIRS.summary());
    }

    @Test
    void aDomainWithoutPairsNamesNoBond() throws IOException {
        DomainReport r = WITHOUT_PAIRS.check(molecule("ethylene"));
        assertTrue(r.inside(), r.describe());
        assertEquals(List.of(), r.unseenBonds());
        assertFalse(WITHOUT_PAIRS.hasPairs());
        assertTrue(WITHOUT_PAIRS.contains(EnvironmentPair.parse("C(C,H,H)-C(C,H,H)")));
        assertFalse(WITHOUT_PAIRS.summary().contains("pairs"), WITHOUT_PAIRS.summary());
    }

    @Test
    void aBondOfAnAtomAlreadyNamedIsNotNamedAgain() throws IOException {
        DomainReport r = WITH_PAIRS.check(molecule("acetonitrile"));   // C0 H3-C1#N2: C(C,N) and N(C) unknown here
        assertEquals(List.of(1, 2), r.unseen().stream().map(DomainReport.UnseenAtom::index).toList(), r.describe());
        assertEquals(List.of(), r.unseenBonds(), r.describe());
    }

    @Test
    void thePairTextRoundTripsWhicheverEnvironmentComesFirst() {
        EnvironmentPair p = EnvironmentPair.parse("H(C)-C(H,C,H)");
        assertEquals("C(C,H,H)-H(C)", p.canonical());
        assertEquals(p, EnvironmentPair.parse(p.canonical()));
        assertEquals(p, new EnvironmentPair(AtomEnvironment.parse("C(C,H,H)"), AtomEnvironment.parse("H(C)")));
        assertEquals("N()-O()", EnvironmentPair.parse("O()-N()").canonical());
        for (String bad : List.of("C(C,H,H)", "C-C", "C(C)-C(C)-C(C)", "")) {
            assertThrows(IllegalArgumentException.class, () -> EnvironmentPair.parse(bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> ModelDomain.parse("{" + ENVIRONMENTS + ",\"pairs\":{\"C(C)-C(C)\":0}}",
                "zero"));
    }
}
