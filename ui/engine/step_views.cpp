#include "ui/engine/step_views.h"

#include <QStringDecoder>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "ui/engine/engine_types.h"

namespace dlab::ui {

namespace {

double rawP(std::span<const float> logits, const LogitSummary& raw, TokenId id) {
    return std::exp(double(logits[static_cast<size_t>(id)]) - raw.logSumExp);
}

// p of `id` in a snapshot: its listed p, or 0 when it is not listed or was removed.
double snapshotP(const StageSnapshot& s, TokenId id, bool* listed = nullptr) {
    for (const Candidate& c : s.top) {
        if (c.id == id) {
            if (listed) *listed = true;
            return std::isfinite(c.logit) ? c.p : 0.0;
        }
    }
    if (listed) *listed = false;
    return 0.0;
}

QString printable(const Tokenizer& tok, TokenId id) { return printableToken(tok.tokenToPiece(id, true)); }

// The mass a masking stage removed: what entered it (the snapshot before, or the raw 1) minus
// what it kept.
double massRemovedAt(const std::vector<StageSnapshot>& stages, size_t i) {
    const double entering = i > 0 ? stages[i - 1].massKept : 1.0;
    return std::max(0.0, entering - double(stages[i].massKept));
}

}  // namespace

const StageSnapshot* grammarSnapshot(const std::vector<StageSnapshot>& stages, size_t* index) {
    for (size_t i = 0; i < stages.size(); ++i)
        if (stages[i].stage == "grammar") {
            if (index) *index = i;
            return &stages[i];
        }
    return nullptr;
}

bool forbiddenByGrammar(const StageSnapshot& g, TokenId id, float logit) {
    // A stage that changed nothing forbade nothing.
    if (g.forbiddenCount == 0 || (!g.changed && g.forbiddenCount < 0)) return false;
    for (const Candidate& c : g.forbidden)
        if (c.id == id) return true;
    // Not among the best forbidden listed: allowed if it survived (the snapshot lists the best
    // survivors). A token that ranks above the last survivor listed but is not listed did not
    // survive; one that ranks below the last forbidden listed of a complete list was allowed.
    for (const Candidate& c : g.top)
        if (c.id == id) return !std::isfinite(c.logit);
    const Candidate me{id, logit, 0.0f};
    const bool topComplete = g.kept <= static_cast<int>(g.top.size());
    if (topComplete || g.top.empty() || ranksAbove(me, g.top.back())) return true;
    return false;   // below both lists: not drawn as forbidden (the chart's bars never reach here)
}

widgets::StepMask stepMask(const Tokenizer& tok, const std::vector<StageSnapshot>& stages) {
    widgets::StepMask m;
    size_t i = 0;
    const StageSnapshot* g = grammarSnapshot(stages, &i);
    if (!g) return m;
    m.removed = massRemovedAt(stages, i);
    m.forbidden = std::max(0, g->forbiddenCount);
    if (!g->forbidden.empty()) {
        m.best = printable(tok, g->forbidden.front().id);
        m.bestP = g->forbidden.front().p;
    }
    return m;
}

std::vector<int> topByLogit(std::span<const float> logits, int n) {
    n = std::min<int>(n, static_cast<int>(logits.size()));
    std::vector<int> ids(logits.size());
    std::iota(ids.begin(), ids.end(), 0);
    std::partial_sort(ids.begin(), ids.begin() + n, ids.end(), [&](int a, int b) {
        return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
    });
    ids.resize(static_cast<size_t>(n));
    return ids;
}

QList<QString> tokenTexts(const Tokenizer& tok, std::span<const TokenId> before, std::span<const TokenId> tokens) {
    QStringDecoder decoder(QStringDecoder::Utf8);
    // Only the bytes since the last complete character matter for the decoder's state; feeding the
    // last few earlier tokens is enough (a UTF-8 character is at most 4 bytes).
    const size_t from = before.size() > 4 ? before.size() - 4 : 0;
    for (size_t i = from; i < before.size(); ++i) {
        const std::string piece = tok.tokenToPiece(before[i], false);
        (void)QString(decoder(QByteArrayView(piece.data(), static_cast<qsizetype>(piece.size()))));
    }
    QList<QString> out;
    out.reserve(static_cast<qsizetype>(tokens.size()));
    for (TokenId id : tokens) {
        const std::string piece = tok.tokenToPiece(id, false);
        out << QString(decoder(QByteArrayView(piece.data(), static_cast<qsizetype>(piece.size()))));
    }
    return out;
}

widgets::StripToken stripToken(const Tokenizer& tok, int step, TokenId chosen, float chosenP, const QString& text,
                               std::span<const float> rawLogits, const LogitSummary& raw,
                               const std::vector<StageSnapshot>& stages, int alternatives, bool forced) {
    widgets::StripToken t;
    t.step = step;
    t.id = chosen;
    t.text = text;
    t.p = chosenP;
    t.forced = forced;
    t.mask = stepMask(tok, stages);
    const StageSnapshot* last = stages.empty() ? nullptr : &stages.back();
    std::vector<int> seen;
    if (last) {
        // Snapshot candidates come higher logit first, which is most probable first.
        for (const Candidate& c : last->top) {
            if (t.alternatives.size() >= alternatives) break;
            if (!std::isfinite(c.logit)) continue;
            t.alternatives << widgets::TokenAlternative{c.id, printable(tok, c.id), c.p, rawP(rawLogits, raw, c.id)};
            seen.push_back(c.id);
        }
    }
    if (t.alternatives.size() < alternatives) {
        for (int id : topByLogit(rawLogits, alternatives + static_cast<int>(seen.size()))) {
            if (t.alternatives.size() >= alternatives) break;
            if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
            t.alternatives << widgets::TokenAlternative{id, printable(tok, id), 0.0, rawP(rawLogits, raw, id)};
        }
    }
    return t;
}

QList<widgets::StagePanel> stagePanels(const Tokenizer& tok, std::span<const float> rawLogits, const LogitSummary& raw,
                                       const std::vector<StageSnapshot>& stages, std::span<const int> top, int bars) {
    QList<widgets::StagePanel> panels;
    widgets::StagePanel first;
    first.stage = QStringLiteral("raw");
    first.kept = raw.finite;
    first.massKept = 1.0;
    first.entropy = raw.entropy;
    first.changed = false;
    for (int id : top.first(std::min(top.size(), static_cast<size_t>(bars)))) {
        first.labels << printable(tok, id);
        first.p << rawP(rawLogits, raw, id);
    }
    panels << first;
    for (const StageSnapshot& s : stages) {
        widgets::StagePanel p;
        p.forbiddenCount = s.forbiddenCount;
        for (const Candidate& c : s.forbidden) {
            if (p.forbiddenLabels.size() >= bars) break;
            p.forbiddenLabels << printable(tok, c.id);
            p.forbiddenP << c.p;
        }
        p.stage = QString::fromStdString(s.stage);
        p.kept = s.kept;
        p.massKept = s.massKept;
        if (s.inputMassKept) p.inputMassKept = *s.inputMassKept;
        p.entropy = s.entropy;
        p.changed = s.changed;
        for (const Candidate& c : s.top) {
            if (p.labels.size() >= bars) break;
            if (!std::isfinite(c.logit)) continue;
            p.labels << printable(tok, c.id);
            p.p << c.p;
        }
        panels << p;
    }
    return panels;
}

QList<widgets::DistributionBar> distributionBars(const Tokenizer& tok, std::span<const float> rawLogits,
                                                 const LogitSummary& raw, const std::vector<StageSnapshot>& stages,
                                                 std::span<const int> top, int n) {
    QList<widgets::DistributionBar> bars;
    const StageSnapshot* last = stages.empty() ? nullptr : &stages.back();
    // The last snapshot lists every survivor when there are no more of them than it holds.
    const bool lastIsComplete = last && last->kept <= static_cast<int>(last->top.size());
    const StageSnapshot* grammar = grammarSnapshot(stages);
    for (int id : top.first(std::min(top.size(), static_cast<size_t>(n)))) {
        widgets::DistributionBar bar;
        bar.id = id;
        bar.label = printable(tok, id);
        bar.before = rawP(rawLogits, raw, id);
        bar.after = 0.0;
        bar.removed = lastIsComplete;
        if (last) {
            bool listed = false;
            bar.after = snapshotP(*last, id, &listed);
            if (listed) bar.removed = bar.after == 0.0;
        } else {
            bar.after = bar.before;
        }
        // The grammar runs first, on the raw logits: the bars' order is the order it ranks in.
        if (grammar) bar.forbidden = forbiddenByGrammar(*grammar, id, rawLogits[static_cast<size_t>(id)]);
        if (bar.forbidden) bar.removed = true;
        bars << bar;
    }
    return bars;
}

widgets::DistributionCutoffs distributionCutoffs(const QList<widgets::DistributionBar>& bars, std::span<const float> rawLogits,
                                                 const LogitSummary& raw, const std::vector<StageSnapshot>& stages,
                                                 int topK, float topP, float minP) {
    widgets::DistributionCutoffs c;
    c.topK = topK;
    c.topP = topP;
    c.minP = minP;
    const StageSnapshot* enteringTopP = nullptr;  // null: top-p sees the raw distribution
    bool topPFound = false;
    for (size_t i = 0; i < stages.size(); ++i) {
        if (stages[i].stage == "top-k") {
            c.topKKept = stages[i].kept;
            c.topKCut = stages[i].changed;
        }
        if (stages[i].stage == "min-p") {
            c.minPKept = stages[i].kept;
            c.minPCut = stages[i].changed;
        }
        if (stages[i].stage == "top-p") {
            c.topPKept = stages[i].kept;
            c.topPCut = stages[i].changed;
            topPFound = true;
            enteringTopP = i > 0 ? &stages[i - 1] : nullptr;
        }
    }
    // Without a top-p stage the line shows the final distribution (what would be cut next).
    if (!topPFound && !stages.empty()) enteringTopP = &stages.back();
    double sum = 0.0;
    for (const auto& bar : bars) {
        sum += enteringTopP ? snapshotP(*enteringTopP, bar.id) : rawP(rawLogits, raw, bar.id);
        c.cumulative << std::min(1.0, sum);
    }
    return c;
}

}  // namespace dlab::ui
