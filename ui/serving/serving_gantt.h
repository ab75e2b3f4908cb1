#pragma once
// A serving run (serve/trace_run.h) as the Gantt view draws it (widgets/gantt_view.h): one row per
// request of the trace, one segment per item of every StepRecord (the step's prefill chunk,
// decode token or padding for that request), the wait from arrival to admission from the
// request's RequestTimings. Nothing is computed that the run did not measure; the step axis is
// the order of the run's steps.
#include "serve/trace_run.h"
#include "widgets/gantt_view.h"

namespace dlab::ui {

enum class GanttAxis { Milliseconds, Steps };

// `requests`: the trace's size (rows for requests not submitted yet stay empty while a run goes).
widgets::GanttChart servingGantt(const dlab::TraceRunResult& run, int requests, GanttAxis axis);
// How far the run reaches on the axis (its wall time, or its last step's end; its step count).
double servingGanttExtent(const dlab::TraceRunResult& run, GanttAxis axis);
widgets::GanttWork ganttWork(dlab::StepRecord::Work work);

}  // namespace dlab::ui
