package org.molten.validation.runs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.molten.validation.BaselineKind;
import org.molten.validation.ValidationSettings;
import org.molten.validation.reports.ModelInfo;

/**
 * The models of a validation, one set per worker thread: force fields hold scratch buffers and
 * neighbour lists and are not thread-safe, so each thread that runs replicas gets its own
 * instances, created on first use and closed together at the end.
 */
final class WorkerModels implements AutoCloseable {
    private final ModelProvider provider;
    private final ValidationSettings settings;
    private final int threadsPerModel;
    private final List<String> warnings;
    private final List<AutoCloseable> created = Collections.synchronizedList(new ArrayList<>());
    private final ThreadLocal<Set> perThread = ThreadLocal.withInitial(Set::new);
    private volatile ModelInfo optimisedInfo;
    private volatile ModelInfo baselineInfo;
    private volatile ModelInfo teacherInfo;

    WorkerModels(ModelProvider provider, ValidationSettings settings, int threadsPerModel, List<String> warnings) {
        this.provider = provider;
        this.settings = settings;
        this.threadsPerModel = threadsPerModel;
        this.warnings = warnings;
    }

    /** This thread's models. */
    private final class Set {
        ModelProvider.Model optimised;
        ModelProvider.Model baseline;
        ModelProvider.Model periodicBaseline;
        ModelProvider.Teacher teacher;
        ModelProvider.Teacher periodicTeacher;
    }

    /** The model under test, this thread's instance. */
    ModelProvider.Model optimised() {
        Set s = perThread.get();
        if (s.optimised == null) {
            s.optimised = register(provider.optimised(settings.device(), threadsPerModel, warnings));
            if (optimisedInfo == null) {
                optimisedInfo = s.optimised.info();
            }
        }
        return s.optimised;
    }

    /** The implementation baseline (TorchScript or reference) for isolated or periodic systems. */
    ModelProvider.Model baseline(boolean periodic) {
        if (settings.baseline() == BaselineKind.TEACHER) {
            throw new IllegalStateException("the teacher baseline is not an implementation baseline");
        }
        Set s = perThread.get();
        if (periodic) {
            if (s.periodicBaseline == null) {
                s.periodicBaseline = register(provider.baseline(settings.baseline(), true, warnings));
                if (baselineInfo == null) {
                    baselineInfo = s.periodicBaseline.info();
                }
            }
            return s.periodicBaseline;
        }
        if (s.baseline == null) {
            s.baseline = register(provider.baseline(settings.baseline(), false, warnings));
            baselineInfo = s.baseline.info();
        }
        return s.baseline;
    }

    /** The teacher for isolated or periodic systems, this thread's instance, or the reason there is none. */
    ModelProvider.Teacher teacher(boolean periodic) {
        Set s = perThread.get();
        if (periodic) {
            if (s.periodicTeacher == null) {
                s.periodicTeacher = register(provider.teacher(true, warnings));
            }
            noteTeacher(s.periodicTeacher);
            return s.periodicTeacher;
        }
        if (s.teacher == null) {
            s.teacher = register(provider.teacher(false, warnings));
        }
        noteTeacher(s.teacher);
        return s.teacher;
    }

    private void noteTeacher(ModelProvider.Teacher t) {
        if (teacherInfo == null || (t.available() && teacherInfo.device() == null)) {
            teacherInfo = t.available() ? t.model().info()
                    : new ModelInfo("teacher (not run)", t.skippedReason(), null, null, "", java.util.Map.of());
        }
    }

    /** The description of the model under test (of the first instance created), or null if none was. */
    ModelInfo firstOptimisedInfo() {
        return optimisedInfo;
    }

    /** The implementation baseline's description (isolated molecules preferred), or null if none was created. */
    ModelInfo firstBaselineInfo() {
        return baselineInfo;
    }

    /** The teacher's description, or a description of why it did not run; null if never asked for. */
    ModelInfo firstTeacherInfo() {
        return teacherInfo;
    }

    private <T extends AutoCloseable> T register(T model) {
        created.add(model);
        return model;
    }

    @Override
    public void close() {
        RuntimeException first = null;
        synchronized (created) {
            for (AutoCloseable c : created) {
                try {
                    c.close();
                } catch (Exception e) {
                    if (first == null) {
                        first = new IllegalStateException("closing a model failed: " + e.getMessage(), e);
                    }
                }
            }
            created.clear();
        }
        if (first != null) {
            throw first;
        }
    }
}
