#pragma once
// Value structs that cross the worker thread boundary through queued signals. Engine structs
// (StepTrace, SampleResult, SamplerParams) travel as they are; Q_DECLARE_METATYPE makes them
// QVariant-able and registerEngineTypes() registers them for queued connections.
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include "generate/step_trace.h"
#include "sampling/sampler_chain.h"
#include "sampling/sampler_params.h"
#include "widgets/distribution_chart.h"

namespace dlab::ui {

struct ModelSummary {
    QString path;
    QString name;             // general.name, else the file name
    QString arch;             // "llama", "qwen2", "gpt2"
    qint64 parameters = 0;
    qint64 vocab = 0;
    qint64 layers = 0;
    qint64 contextLength = 0;
    QString tensorTypes;      // "Q4_1 (210), F32 (61)"
    QString backend;          // "cpu (2 threads)"
};

// What the playground shows for one step (or one re-sample of it), ready to draw.
struct StepView {
    int step = -1;
    QList<widgets::DistributionBar> bars;   // top-N by raw logit
    QString chosenText;                     // the chosen token, printable
    float chosenProbability = 0.0f;
    QString generatedText;                  // everything generated so far on this branch
};

// Printable form of a token piece for labels: spaces as '␣', newlines as '↵', tabs as '⇥'.
QString printableToken(const std::string& piece);

void registerEngineTypes();

}  // namespace dlab::ui

Q_DECLARE_METATYPE(dlab::ui::ModelSummary)
Q_DECLARE_METATYPE(dlab::ui::StepView)
Q_DECLARE_METATYPE(dlab::StepTrace)
Q_DECLARE_METATYPE(dlab::SampleResult)
Q_DECLARE_METATYPE(dlab::SamplerParams)
