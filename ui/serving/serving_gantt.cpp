#include "ui/serving/serving_gantt.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <map>

namespace dlab::ui {

namespace {
// The translation context of this file's strings (it has no QObject).
struct ServingGantt {
    Q_DECLARE_TR_FUNCTIONS(ServingGantt)
};

// The step axis: how many steps had started by `ms`.
double stepsBefore(const TraceRunResult& run, double ms) {
    const auto it = std::lower_bound(run.steps.begin(), run.steps.end(), ms,
                                     [](const dlab::StepRecord& s, double t) { return s.startMs < t; });
    return double(it - run.steps.begin());
}
}  // namespace

widgets::GanttWork ganttWork(dlab::StepRecord::Work work) {
    switch (work) {
        case dlab::StepRecord::Work::Prefill: return widgets::GanttWork::Prefill;
        case dlab::StepRecord::Work::Decode: return widgets::GanttWork::Decode;
        case dlab::StepRecord::Work::Padding: return widgets::GanttWork::Padding;
    }
    return widgets::GanttWork::Decode;
}

double servingGanttExtent(const TraceRunResult& run, GanttAxis axis) {
    if (axis == GanttAxis::Steps) return double(run.steps.size());
    double end = run.wallMs;
    if (!run.steps.empty()) end = std::max(end, run.steps.back().startMs + run.steps.back().ms);
    return end;
}

widgets::GanttChart servingGantt(const TraceRunResult& run, int requests, GanttAxis axis) {
    widgets::GanttChart c;
    // Rows in trace order. runTrace submits the trace in order and the scheduler numbers requests
    // from 1, so a request not finished yet sits at row id - 1; a finished one says its index.
    std::map<RequestId, int> rowOf;
    for (const RequestOutcome& o : run.requests)
        if (o.index >= 0) rowOf[o.id] = o.index;
    int rows = requests;
    for (const dlab::StepRecord& s : run.steps)
        for (const dlab::StepRecord::Item& it : s.items) rows = std::max<int>(rows, int(rowOf.count(it.request) ? rowOf[it.request] : it.request - 1) + 1);
    for (int i = 0; i < rows; ++i) c.rows.push_back({QStringLiteral("#%1").arg(i + 1), -1.0, -1.0, ServingGantt::tr("request %1: not finished yet").arg(i + 1)});

    const QLocale loc;
    const auto ms = [&](double v) { return loc.toString(v, 'f', 0); };
    for (const RequestOutcome& o : run.requests) {
        if (o.index < 0 || o.index >= rows) continue;
        widgets::GanttRow& row = c.rows[o.index];
        const RequestTimings& t = o.timings;
        if (axis == GanttAxis::Milliseconds) {
            row.arrival = t.arrivalMs;
            row.admitted = t.admittedMs;
        } else {
            row.arrival = stepsBefore(run, t.arrivalMs);
            row.admitted = t.admittedMs >= 0 ? stepsBefore(run, t.admittedMs) : -1.0;
        }
        if (!o.error.empty()) {
            row.toolTip = ServingGantt::tr("request %1: %2").arg(o.index + 1).arg(QString::fromStdString(o.error));
            continue;
        }
        row.toolTip = ServingGantt::tr("request %1: %2 prompt tokens (%3 from the prefix cache), %4 generated\n"
                         "arrived at %5 ms, admitted at %6 ms (waited %7 ms)\n"
                         "first token at %8 ms (TTFT %9 ms), finished at %10 ms")
                          .arg(o.index + 1)
                          .arg(t.promptTokens)
                          .arg(t.cachedPromptTokens)
                          .arg(t.generatedTokens)
                          .arg(ms(t.arrivalMs), ms(t.admittedMs), ms(t.admittedMs - t.arrivalMs), ms(t.firstTokenMs), ms(t.ttftMs()),
                               ms(t.finishedMs));
    }
    for (size_t k = 0; k < run.steps.size(); ++k) {
        const dlab::StepRecord& s = run.steps[k];
        const double x0 = axis == GanttAxis::Milliseconds ? s.startMs : double(k);
        const double x1 = axis == GanttAxis::Milliseconds ? s.startMs + s.ms : double(k + 1);
        for (const dlab::StepRecord::Item& it : s.items) {
            widgets::GanttSegment g;
            g.row = rowOf.count(it.request) ? rowOf[it.request] : int(it.request - 1);
            g.start = x0;
            g.end = x1;
            g.work = ganttWork(it.work);
            g.tokens = it.tokens;
            g.step = s.index;
            c.segments.push_back(g);
        }
    }
    c.xTitle = axis == GanttAxis::Milliseconds ? ServingGantt::tr("ms since the run started") : ServingGantt::tr("step");
    return c;
}

}  // namespace dlab::ui
