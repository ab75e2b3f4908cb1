#pragma once
// What the playground draws for one step, from that step's data alone: no Session, no model. The
// live controller passes the session's full logits and the model's tokenizer; a replay of a saved
// session passes replayLogits() of the saved step and a RecordedTokenizer. Same code, same inputs
// where the views look (the best logits, the stages' candidates, the token pieces): same numbers.
#include <QList>

#include <span>
#include <vector>

#include "sampling/sampler_params.h"
#include "sampling/snapshot.h"
#include "tokenizer/tokenizer.h"
#include "ui/engine/engine_types.h"

namespace dlab::ui {

inline constexpr int kChipAlternatives = 8;   // alternatives per strip chip
inline constexpr int kWaterfallBars = 8;      // candidates per waterfall panel

// The step's distribution: chart bars (the best chartBars by raw logit), their logits, the
// cut-offs under params' top-k / top-p / min-p, the waterfall panels, the chosen token's label and
// probability. This is all a re-sample changes. logits: (raw.vocab).
StepView stepView(int step, const Tokenizer& tok, std::span<const float> logits, const LogitSummary& raw,
                  const std::vector<StageSnapshot>& stages, TokenId chosen, float chosenP, const SamplerParams& params,
                  int chartBars);

// The strip chip of a step's chosen token: its text as it reads after `before` (the branch's
// earlier generated tokens; a token that ends inside a character reads ""), an end-of-generation
// token by its name, and its best alternatives.
widgets::StripToken stepChip(const Tokenizer& tok, std::span<const TokenId> before, int step, TokenId chosen, float chosenP,
                             std::span<const float> logits, const LogitSummary& raw, const std::vector<StageSnapshot>& stages,
                             bool forced);

// The branch's state after its newest step: everything generated (`generated`, that step's token
// last), the step's chip from `strip`, the loop at the end, the positions used and the KV bytes.
void addBranchState(StepView& view, const Tokenizer& tok, std::span<const TokenId> generated, size_t promptSize,
                    const QList<widgets::StripToken>& strip, qint64 kvBytes);

// The prompt as the model sees it: one chip per token with its id (p < 0: no probability),
// control tokens, BOS and end-of-generation tokens framed and by name.
QList<widgets::StripToken> promptChips(const Tokenizer& tok, const std::vector<TokenId>& prompt);

}  // namespace dlab::ui
