#include "ui/playground/session_replay.h"

#include "ui/playground/playground_views.h"

namespace dlab::ui {

namespace {
std::vector<TokenId> chosenTokens(const SavedBranch& b, size_t count) {
    std::vector<TokenId> ids;
    for (size_t i = 0; i < count && i < b.steps.size(); ++i) ids.push_back(b.steps[i].trace.chosen);
    return ids;
}
}  // namespace

SessionReplay::SessionReplay(SavedSession session, QString fileName)
    : session_(std::move(session)), fileName_(std::move(fileName)), tok_(session_) {
    buildStrip();
}

const SavedBranch& SessionReplay::branch() const {
    // parseSessionJson guarantees the current branch exists; a session built in code may not have it.
    static const SavedBranch none;
    const SavedBranch* b = session_.branch(session_.currentBranch);
    return b ? *b : none;
}

void SessionReplay::buildStrip() {
    strip_.clear();
    const SavedBranch& b = branch();
    const std::vector<TokenId> generated = chosenTokens(b, b.steps.size());
    for (size_t i = 0; i < b.steps.size(); ++i) {
        const SavedStep& s = b.steps[i];
        const std::vector<float> logits = replayLogits(s);
        strip_ << stepChip(tok_, std::span(generated.data(), i), static_cast<int>(i), s.trace.chosen, s.trace.chosenProbability, logits,
                           s.trace.raw, s.trace.stages, s.forced);
    }
}

QList<widgets::StripToken> SessionReplay::promptChips() const { return ui::promptChips(tok_, session_.promptTokens); }

QList<BranchEntry> SessionReplay::branches() const {
    QList<BranchEntry> out;
    for (const SavedBranch& b : session_.branches) {
        BranchEntry e;
        e.id = b.id;
        e.parent = b.parent;
        e.forkStep = b.forkStep;
        e.steps = static_cast<int>(b.steps.size());
        e.current = b.id == session_.currentBranch;
        if (b.forkStep >= 0 && static_cast<size_t>(b.forkStep) < b.steps.size())
            e.forkToken = printableToken(tok_.tokenToPiece(b.steps[static_cast<size_t>(b.forkStep)].trace.chosen, true));
        out << e;
    }
    return out;
}

void SessionReplay::switchTo(int branchId) {
    if (!session_.branch(branchId)) return;
    session_.currentBranch = branchId;
    buildStrip();
}

StepView SessionReplay::view(int index, int chartBars) const {
    const SavedStep& s = step(index);
    const StepTrace& t = s.trace;
    const std::vector<float> logits = replayLogits(s);
    StepView v = stepView(index, tok_, logits, t.raw, t.stages, t.chosen, t.chosenProbability, s.sampler, chartBars);
    const std::vector<TokenId> generated = chosenTokens(branch(), static_cast<size_t>(index) + 1);
    addBranchState(v, tok_, generated, session_.promptTokens.size(), strip_, t.kv.bytesInUse);
    return v;
}

}  // namespace dlab::ui
