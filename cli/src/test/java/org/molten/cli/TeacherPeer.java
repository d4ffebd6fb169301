package org.molten.cli;

import org.junit.jupiter.api.Assumptions;
import org.molten.forcefield.teacher.XtbTeacher;

/**
 * Tests that need the real teacher (libxtb): they skip where it is missing, except under CI=true,
 * where a missing libxtb fails them, so that a broken install step cannot hide.
 */
final class TeacherPeer {
    private TeacherPeer() {}

    static void require() {
        XtbTeacher.Availability a = XtbTeacher.availability();
        if (!a.available() && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("CI=true but the teacher cannot run: " + a.reason());
        }
        Assumptions.assumeTrue(a.available(), () -> "teacher unavailable: " + a.reason());
    }
}
