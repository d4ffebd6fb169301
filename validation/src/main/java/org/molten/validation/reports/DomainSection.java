package org.molten.validation.reports;

import java.util.List;

/**
 * The domain lines of report.md: a note under the verdict table (every system inside, the systems with atoms outside,
 * or "domain unknown" once) and the "Model domain" section listing each system's unseen atom environments.
 */
final class DomainSection {
    private DomainSection() {
    }

    /** The note under the verdict table; nothing when the report has no domain notes. */
    static void note(StringBuilder md, ValidationReport r) {
        List<DomainNote> notes = r.domain() == null ? List.of() : r.domain();
        if (notes.isEmpty()) {
            return;
        }
        if (notes.stream().anyMatch(n -> !n.known())) {
            md.append("- Domain: unknown (the weight file of the model under test has no `domain` entry; no atom "
                    + "environment was checked)\n");
        } else if (notes.stream().allMatch(DomainNote::inside)) {
            md.append("- Domain: every atom of every system is in an atom environment of the model's training data\n");
        } else {
            md.append("- **Domain warning** (not a criterion): ");
            md.append(String.join("; ", notes.stream().filter(n -> !n.inside())
                    .map(n -> n.system() + ": " + n.summary()).toList()));
            md.append("; the forces on those atoms are extrapolated (section Model domain)\n");
        }
    }

    /** The section; nothing when the domain is unknown or absent. */
    static void section(StringBuilder md, ValidationReport r) {
        List<DomainNote> notes = r.domain() == null ? List.of() : r.domain();
        if (notes.isEmpty() || notes.stream().anyMatch(n -> !n.known())) {
            return;
        }
        md.append("\n## Model domain\n\n");
        md.append("Atom environments (element and the elements of its bonded neighbours, docs/model.md) absent from the "
                + "training data of the model under test, and bonds between two environments it never held bonded (where "
                + "its domain has bonded pairs); atoms indexed from 0.\n\n");
        md.append("| System | Atoms | Outside the training data |\n|---|---:|---|\n");
        for (DomainNote n : notes) {
            md.append("| ").append(n.system()).append(" | ").append(n.atoms()).append(" | ")
                    .append(n.inside() ? "none" : MarkdownReportWriter.escape(n.summary())).append(" |\n");
        }
    }
}
