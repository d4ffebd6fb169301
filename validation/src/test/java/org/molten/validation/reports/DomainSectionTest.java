package org.molten.validation.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** report.md's domain lines: a warning naming the atoms outside, a quiet line when all are inside, "unknown" once. */
class DomainSectionTest {
    static ValidationReport with(List<DomainNote> notes) {
        ValidationReport r = ReportWritersTest.sample();
        return new ValidationReport(r.tool(), r.createdUtc(), r.command(), r.environment(), r.settings(), r.thresholds(),
                r.optimised(), r.baseline(), r.systems(), r.summary(), r.warnings(), notes);
    }

    static final DomainNote WATER = new DomainNote("water", true, 3, List.of(), "every atom's environment is in the training data");

    @Test
    void atomsOutsideAreNamedUnderTheVerdictTableAndInTheSection() {
        DomainNote acn = new DomainNote("acn", true, 6, List.of(new DomainNote.Atom(1, "C(C,N)", 0)),
                "1 of 6 atoms in environments absent from the training data: C(C,N) (atom 1)");
        String md = MarkdownReportWriter.render(with(List.of(WATER, acn)));
        assertTrue(md.contains("- **Domain warning** (not a criterion): acn: 1 of 6 atoms in environments absent from the "
                + "training data: C(C,N) (atom 1); the forces"), md);
        assertTrue(md.contains("| water | 3 | none |\n| acn | 6 | 1 of 6 atoms"), md);
        assertTrue(md.indexOf("Domain warning") < md.indexOf("- Command:"), "the note follows the verdict table");
    }

    @Test
    void aBondBetweenEnvironmentsNeverBondedIsAWarningThoughEveryAtomIsKnown() {
        DomainNote ethylene = new DomainNote("ethylene", true, 6, List.of(), "1 bond between environments never bonded in "
                + "the training data: C(C,H,H)-C(C,H,H) (atoms 0-1)", List.of(new DomainNote.Bond(0, 1, "C(C,H,H)-C(C,H,H)")));
        assertFalse(ethylene.inside());
        String md = MarkdownReportWriter.render(with(List.of(WATER, ethylene)));
        assertTrue(md.contains("- **Domain warning** (not a criterion): ethylene: 1 bond between environments never bonded in "
                + "the training data: C(C,H,H)-C(C,H,H) (atoms 0-1); the forces"), md);
        assertTrue(md.contains("| ethylene | 6 | 1 bond between"), md);
        assertTrue(WATER.inside());
    }

    @Test
    void allInsideIsOneQuietLineAndAnUnknownDomainIsSaidOnce() {
        String inside = MarkdownReportWriter.render(with(List.of(WATER)));
        assertTrue(inside.contains("- Domain: every atom of every system is in an atom environment"), inside);
        DomainNote unknown = new DomainNote("water", false, 3, List.of(), "domain unknown: ...");
        String md = MarkdownReportWriter.render(with(List.of(unknown, new DomainNote("ethanol", false, 9, List.of(), "x"))));
        assertEquals(1, md.split("Domain: unknown", -1).length - 1, md);
        assertFalse(md.contains("## Model domain"), md);
        assertFalse(MarkdownReportWriter.render(ReportWritersTest.sample()).contains("Domain"), "no notes, no lines");
    }
}
