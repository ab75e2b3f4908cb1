#pragma once
// Turns one step's engine data (raw logits, stage snapshots, the chosen token) into the plain
// values the views draw: strip chips with alternatives, waterfall panels, the distribution's bars
// and cut-offs. Runs on the worker thread; no widget is touched.
#include <QList>
#include <QString>

#include <span>
#include <string>
#include <vector>

#include "sampling/snapshot.h"
#include "tokenizer/tokenizer.h"
#include "widgets/distribution_chart.h"
#include "widgets/sampler_waterfall.h"
#include "widgets/token_strip.h"

namespace dlab::ui {

// The snapshot of the chain's "grammar" stage (a constraint), or nullptr; `index` gets its place.
const StageSnapshot* grammarSnapshot(const std::vector<StageSnapshot>& stages, size_t* index = nullptr);
// Whether the grammar stage forbade token `id` (raw logit `logit`), from its snapshot alone: its
// best forbidden tokens and its best survivors. Exact for any token that ranks among the best
// GrammarStage::kForbiddenShown forbidden or the snapshot's survivors (the chart's bars do).
bool forbiddenByGrammar(const StageSnapshot& grammar, TokenId id, float logit);
// What the grammar stage did this step (removed < 0 without one): the mass it removed, how many
// tokens it forbade and the best of them.
widgets::StepMask stepMask(const Tokenizer& tok, const std::vector<StageSnapshot>& stages);

// The text each token adds to the output, decoding the byte pieces as one UTF-8 stream: a token
// that ends inside a character gets "" and the one that completes it carries the character.
// `before` are tokens already emitted (they set the decoder's state; their texts are not returned).
QList<QString> tokenTexts(const Tokenizer& tok, std::span<const TokenId> before, std::span<const TokenId> tokens);

// A strip chip for the chosen token: its probability in the final distribution and the best
// `alternatives` tokens of that distribution (most probable first; when fewer tokens survived
// the chain, the best removed ones follow with p = 0). rawLogits: the step's logits (nVocab).
widgets::StripToken stripToken(const Tokenizer& tok, int step, TokenId chosen, float chosenP, const QString& text,
                               std::span<const float> rawLogits, const LogitSummary& raw,
                               const std::vector<StageSnapshot>& stages, int alternatives, bool forced = false);

// The best n token ids by raw logit, best first (ties to the lower id). One selection over the
// vocabulary serves both the chart and the waterfall's "raw" panel.
std::vector<int> topByLogit(std::span<const float> logits, int n);

// "raw" (the first `bars` of `top`, the untouched distribution) and one panel per stage, `bars`
// candidates each.
QList<widgets::StagePanel> stagePanels(const Tokenizer& tok, std::span<const float> rawLogits, const LogitSummary& raw,
                                       const std::vector<StageSnapshot>& stages, std::span<const int> top, int bars);

// The chart's bars for the first n of `top` (topByLogit): softmax(raw) beside the last stage's
// probabilities.
QList<widgets::DistributionBar> distributionBars(const Tokenizer& tok, std::span<const float> rawLogits,
                                                 const LogitSummary& raw, const std::vector<StageSnapshot>& stages,
                                                 std::span<const int> top, int n);

// The cumulative line (over `bars`, under the distribution entering the top-p stage) and the
// top-k / top-p / min-p survivor counts of this step, with whether each stage removed tokens
// (its snapshot's `changed`: at T = 0 the temperature stage leaves one token and the cut-offs
// after it remove nothing).
widgets::DistributionCutoffs distributionCutoffs(const QList<widgets::DistributionBar>& bars, std::span<const float> rawLogits,
                                                 const LogitSummary& raw, const std::vector<StageSnapshot>& stages,
                                                 int topK, float topP, float minP = 0.0f);

}  // namespace dlab::ui
