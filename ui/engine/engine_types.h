#pragma once
// Value structs that cross the worker thread boundary through queued signals. Engine structs
// (StepTrace, SampleResult, SamplerParams) travel as they are; Q_DECLARE_METATYPE makes them
// QVariant-able and registerEngineTypes() registers them for queued connections.
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <memory>

#include "cuda/cuda_backend.h"
#include "generate/step_trace.h"
#include "sampling/sampler_chain.h"
#include "sampling/sampler_params.h"
#include "session/saved_session.h"
#include "widgets/distribution_chart.h"
#include "widgets/sampler_waterfall.h"
#include "widgets/token_strip.h"

namespace dlab::ui {

struct ModelSummary {
    QString path;
    QString name;             // what the user knows the model as: its file name (publishedModelName)
    QString internalName;     // general.name from the file's metadata, "" if none
    QString arch;             // "llama", "qwen2", "gpt2"
    qint64 parameters = 0;
    qint64 vocab = 0;
    qint64 layers = 0;
    qint64 contextLength = 0; // positions a session may use (min(trained context, 2048))
    qint64 fileBytes = 0;
    QString tensorTypes;      // "Q4_1 (210), F32 (61)"
    QString backend;          // "cpu" or "cuda" (Backend::name())
    GpuCheck gpuFallback;     // automatic choice fell back to the CPU: why (problem None otherwise)
    int threads = 0;          // the backend's threads
};

// The loop the repetition detector found at the end of the generated tokens (strip indices).
struct RepetitionView {
    bool found = false;
    int first = 0;            // first strip index of the looping span
    int count = 0;            // tokens in the span
    int period = 0;           // tokens in the repeated block
    int repeats = 0;          // whole repetitions
};

// The model's side of a saved session (engine/session/saved_session.h), made once per model and
// shared by every step record: which model it is and every token's pieces, by id.
struct RecordedModel {
    SavedModel model;
    std::vector<SavedToken> tokens;         // (vocabulary) index = id
};

// What File → Save Session keeps of a step (or of the token a branch forced), sent with its view.
struct StepRecord {
    SavedStep step;                         // the trace, its settings, the raw logits its views read
    std::shared_ptr<const RecordedModel> model;
};

// What the playground shows for one step (or one re-sample of it), ready to draw.
struct StepView {
    int step = -1;
    QList<widgets::DistributionBar> bars;   // top-N by raw logit
    QList<double> logits;                   // their raw logits (same order)
    widgets::DistributionCutoffs cutoffs;   // cumulative line and top-k / top-p markers
    QList<widgets::StagePanel> stages;      // "raw", then one panel per chain stage
    QString chosenText;                     // the chosen token, printable
    float chosenProbability = 0.0f;
    // The branch's state: set for steps and branches, left empty for re-samples (they change none of it).
    widgets::StripToken token;              // the chosen token as a strip chip
    QString generatedText;                  // everything generated so far on this branch
    RepetitionView repetition;              // over the whole strip of this branch
    qint64 contextUsed = 0;                 // positions of this branch (prompt + generated)
    qint64 kvBytes = 0;                     // KV cache bytes in use
    std::shared_ptr<const StepRecord> record;   // set for steps and branches, null for re-samples and switches
};

// A branch replaced the strip from some step on: the whole strip of the new current branch.
struct BranchView {
    int branch = 0;
    int step = -1;                          // the step that took the chosen alternative (a switch: the last step)
    bool switched = false;                  // a switch to an existing branch, not a new one
    QList<widgets::StripToken> strip;       // every generated token of the new branch
    StepView view;                          // that step re-sampled under the page's settings
};

// One branch of the playground's session, for the branch list.
struct BranchEntry {
    int id = 0;
    int parent = -1;          // -1: the first branch
    int forkStep = -1;        // the step it replaced in its parent; -1 for the first branch
    QString forkToken;        // the token it took there (printable), "" for the first branch
    int steps = 0;            // tokens generated on it
    bool current = false;
};

// One chat message as the chat page and the worker exchange it.
struct ChatTurn {
    QString role;             // "system", "user", "assistant"
    QString text;
};

// How one answer went.
struct ChatStats {
    int promptTokens = 0;
    int reusedTokens = 0;           // prompt positions taken from the previous answer's KV cache
    int tokens = 0;                 // generated
    double timeToFirstTokenMs = 0.0;
    double tokensPerSecond = 0.0;   // decode rate after the first token
    QString stopReason;             // "eos", "length", "context", "stopped"
    bool stopped = false;           // Stop was pressed
    // The chat session after the answer (for the status bar): positions of the conversation
    // (prompt + generated) and KV cache bytes in use; -1 when not measured (a failed answer).
    qint64 contextUsed = -1;
    qint64 kvBytes = -1;
    bool jsonMode = false;          // the reply was constrained to a JSON object (the chat's JSON mode)
};

// Printable form of a token piece for labels: spaces as '␣', newlines as '↵', tabs as '⇥', other control characters as their control pictures (␀ … ␟, ␡).
QString printableToken(const std::string& piece);

void registerEngineTypes();

}  // namespace dlab::ui

Q_DECLARE_METATYPE(dlab::ui::ModelSummary)
Q_DECLARE_METATYPE(dlab::ui::StepView)
Q_DECLARE_METATYPE(dlab::ui::BranchView)
Q_DECLARE_METATYPE(dlab::ui::ChatTurn)
Q_DECLARE_METATYPE(dlab::ui::BranchEntry)
Q_DECLARE_METATYPE(dlab::ui::ChatStats)
Q_DECLARE_METATYPE(dlab::StepTrace)
Q_DECLARE_METATYPE(dlab::SampleResult)
Q_DECLARE_METATYPE(dlab::SamplerParams)
