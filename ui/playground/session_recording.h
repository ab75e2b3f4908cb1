#pragma once
// What the playground page keeps of its live session for File → Save Session: the prompt and, per
// branch, the record of every step it was sent (StepView::record), in the order they came. The
// page feeds it from the same signals it draws (a step, a new branch, a switch), on the GUI
// thread; session() turns it into a SavedSession. Nothing here calls the engine.
#include <QString>

#include <map>
#include <memory>
#include <vector>

#include "session/saved_session.h"
#include "ui/engine/engine_types.h"

namespace dlab::ui {

class SessionRecording {
public:
    void clear();
    void start(const QString& prompt);                     // a session starts on this prompt text
    void setPromptTokens(std::vector<TokenId> ids);        // as the model saw it
    void addStep(const StepRecord& record);                // a step of the current branch
    void addBranch(int id, const StepRecord& forced);      // a new current branch, forked from the current one at forced's step
    void switchTo(int id);                                 // an existing branch becomes current

    bool hasSteps() const;
    int currentBranch() const { return current_; }
    // The recorded session under the page's current settings; hasSteps() first.
    SavedSession session(const SamplerParams& settings) const;

private:
    std::string prompt_;
    std::vector<TokenId> promptTokens_;
    std::map<int, SavedBranch> branches_;   // by id: a branch's parent always has a lower id
    int current_ = 0;
    std::shared_ptr<const RecordedModel> model_;
};

}  // namespace dlab::ui
