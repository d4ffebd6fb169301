package org.molten.validation.runs;

import java.util.ArrayList;
import java.util.List;
import org.molten.forcefield.domain.DomainReport;
import org.molten.validation.reports.DomainNote;

/** The report's domain notes: each system's starting structure checked against the model under test's domain. */
final class DomainNotes {
    private DomainNotes() {
    }

    /** One note per system; empty when the provider knows no domain. */
    static List<DomainNote> of(List<SystemSource> systems, ModelProvider models, long seed) {
        List<DomainNote> out = new ArrayList<>();
        for (SystemSource s : systems) {
            DomainReport r;
            try {
                r = models.domain(s.load(seed));
            } catch (RuntimeException e) {
                continue; // a structure the check cannot handle (coincident atoms, ...) is reported by the runs themselves
            }
            if (r == null) {
                return List.of();
            }
            out.add(new DomainNote(s.name(), r.known(), r.atoms(), r.unseen().stream()
                    .map(a -> new DomainNote.Atom(a.index(), a.environment().canonical(), a.seenAtomFrames())).toList(), r.describe(),
                    r.unseenBonds().stream().map(b -> new DomainNote.Bond(b.i(), b.j(), b.pair().canonical())).toList()));
        }
        return out;
    }
}
