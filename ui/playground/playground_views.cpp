#include "ui/playground/playground_views.h"

#include <algorithm>

#include "generate/repetition.h"
#include "ui/engine/step_views.h"

namespace dlab::ui {

StepView stepView(int step, const Tokenizer& tok, std::span<const float> logits, const LogitSummary& raw,
                  const std::vector<StageSnapshot>& stages, TokenId chosen, float chosenP, const SamplerParams& params,
                  int chartBars) {
    StepView v;
    v.step = step;
    v.chosenText = printableToken(tok.tokenToPiece(chosen, true));
    v.chosenProbability = chosenP;
    const std::vector<int> top = topByLogit(logits, std::max(chartBars, kWaterfallBars));
    v.bars = distributionBars(tok, logits, raw, stages, top, chartBars);
    for (const auto& bar : v.bars) v.logits << logits[static_cast<size_t>(bar.id)];
    v.cutoffs = distributionCutoffs(v.bars, logits, raw, stages, params.topK, params.topP, params.minP);
    v.stages = stagePanels(tok, logits, raw, stages, top, kWaterfallBars);
    return v;
}

widgets::StripToken stepChip(const Tokenizer& tok, std::span<const TokenId> before, int step, TokenId chosen, float chosenP,
                             std::span<const float> logits, const LogitSummary& raw, const std::vector<StageSnapshot>& stages,
                             bool forced) {
    QString text = tokenTexts(tok, before, std::span(&chosen, 1)).front();
    if (text.isEmpty() && tok.isEndOfGeneration(chosen)) text = QString::fromStdString(tok.tokenToPiece(chosen, true));
    return stripToken(tok, step, chosen, chosenP, text, logits, raw, stages, kChipAlternatives, forced);
}

void addBranchState(StepView& v, const Tokenizer& tok, std::span<const TokenId> generated, size_t promptSize,
                    const QList<widgets::StripToken>& strip, qint64 kvBytes) {
    v.generatedText = QString::fromStdString(tok.decode(std::vector<TokenId>(generated.begin(), generated.end()), false));
    if (v.step >= 0 && v.step < strip.size()) v.token = strip[v.step];
    const RepetitionSpan loop = findRepetition(generated);
    if (loop.found) {
        v.repetition.found = true;
        v.repetition.first = static_cast<int>(loop.start);
        v.repetition.count = static_cast<int>(loop.length);
        v.repetition.period = loop.period;
        v.repetition.repeats = loop.repeats;
    }
    v.contextUsed = static_cast<qint64>(promptSize + generated.size());
    v.kvBytes = kvBytes;
}

QList<widgets::StripToken> promptChips(const Tokenizer& tok, const std::vector<TokenId>& prompt) {
    const QList<QString> texts = tokenTexts(tok, {}, prompt);
    QList<widgets::StripToken> chips;
    for (size_t i = 0; i < prompt.size(); ++i) {
        widgets::StripToken t;
        t.step = -1;
        t.id = prompt[i];
        t.p = -1.0;
        const TokenType type = tok.tokenType(t.id);
        t.special = type == TokenType::Control || t.id == tok.bos() || tok.isEndOfGeneration(t.id);
        // Spaces as '␣' (as the chart and the table write them): " quick" is one token with its space.
        t.text = t.special ? QString::fromStdString(tok.tokenToPiece(t.id, true)) : printableToken(texts[static_cast<qsizetype>(i)].toStdString());
        chips << t;
    }
    return chips;
}

}  // namespace dlab::ui
