#include "ui/playground/session_recording.h"

#include "core/error.h"

namespace dlab::ui {

void SessionRecording::clear() { *this = SessionRecording{}; }

void SessionRecording::start(const QString& prompt) {
    clear();
    prompt_ = prompt.toStdString();
    branches_[0] = SavedBranch{};   // the session's first branch is 0 (Session)
}

void SessionRecording::setPromptTokens(std::vector<TokenId> ids) { promptTokens_ = std::move(ids); }

void SessionRecording::addStep(const StepRecord& r) {
    SavedBranch& b = branches_[current_];
    b.id = current_;
    b.steps.resize(static_cast<size_t>(std::max(0, r.step.trace.step)));   // a step replaces anything at or after it
    b.steps.push_back(r.step);
    model_ = r.model;
}

void SessionRecording::addBranch(int id, const StepRecord& forced) {
    const SavedBranch& parent = branches_[current_];
    SavedBranch b;
    b.id = id;
    b.parent = current_;
    b.forkStep = forced.step.trace.step;
    b.steps.assign(parent.steps.begin(), parent.steps.begin() + std::min<ptrdiff_t>(b.forkStep, static_cast<ptrdiff_t>(parent.steps.size())));
    b.steps.push_back(forced.step);
    branches_[id] = std::move(b);
    current_ = id;
    model_ = forced.model;
}

void SessionRecording::switchTo(int id) {
    if (branches_.count(id)) current_ = id;
}

bool SessionRecording::hasSteps() const {
    for (const auto& [id, b] : branches_)
        if (!b.steps.empty()) return true;
    return false;
}

SavedSession SessionRecording::session(const SamplerParams& settings) const {
    if (!hasSteps() || !model_) throw Error("no step is recorded yet");   // the page asks hasSteps() first
    SavedSession s;
    s.model = model_->model;
    s.prompt = prompt_;
    s.promptTokens = promptTokens_;
    s.sampler = settings;
    for (const auto& [id, b] : branches_) s.branches.push_back(b);
    s.currentBranch = current_;
    for (TokenId id : shownTokenIds(s))
        s.tokens.push_back(id >= 0 && static_cast<size_t>(id) < model_->tokens.size() ? model_->tokens[static_cast<size_t>(id)]
                                                                                      : SavedToken{id, {}, {}, false, false});
    return s;
}

}  // namespace dlab::ui
