#pragma once
// A saved playground session shown without the engine: the prompt's chips, each branch's strip
// and every recorded step's views, built by the live controller's own functions
// (playground_views.h) from the file's numbers — the traces, the raw logits the views read, the
// token pieces (RecordedTokenizer). Runs on the GUI thread; cheap enough to build a view per click.
#include <QList>
#include <QString>

#include <memory>

#include "session/recorded_tokenizer.h"
#include "session/saved_session.h"
#include "ui/engine/engine_types.h"

namespace dlab::ui {

class SessionReplay {
public:
    // Shows the session's current branch. fileName: what the banner calls it.
    SessionReplay(SavedSession session, QString fileName);

    const SavedSession& session() const { return session_; }   // with the branch shown as current
    const QString& fileName() const { return fileName_; }
    QString modelName() const { return QString::fromStdString(session_.model.name); }

    QList<widgets::StripToken> promptChips() const;
    QList<BranchEntry> branches() const;
    void switchTo(int branchId);   // an unknown id is ignored
    int steps() const { return static_cast<int>(branch().steps.size()); }
    const SavedStep& step(int index) const { return branch().steps.at(static_cast<size_t>(index)); }
    const QList<widgets::StripToken>& strip() const { return strip_; }   // every chip of the branch shown
    // Step `index` of the branch shown, as the live page drew it when that step came.
    StepView view(int index, int chartBars) const;

private:
    const SavedBranch& branch() const;
    void buildStrip();

    SavedSession session_;
    QString fileName_;
    RecordedTokenizer tok_;
    QList<widgets::StripToken> strip_;
};

}  // namespace dlab::ui
