#pragma once
// The chat page's engine side: a controller on the engine thread (a child of the EngineContext)
// with the chat's own Session, apart from the playground's. From the second answer on the
// session keeps the KV cache of the conversation it has already seen (Session::restart), so the
// prefill covers only the new turn. Stop goes to EngineContext::cancel().
#include <QList>
#include <QObject>
#include <QString>

#include <memory>

#include "ui/engine/constraint_compiler.h"
#include "ui/engine/engine_context.h"
#include "ui/engine/engine_types.h"

namespace dlab {
class Session;
}

namespace dlab::ui {

class ChatController : public QObject {
    Q_OBJECT
public:
    // Created on the GUI thread before the context moves to the engine thread (it moves along).
    explicit ChatController(EngineContext* engine);
    ~ChatController() override;

    static constexpr int kAlternatives = 8;   // per chip

public slots:
    // Renders the conversation with the model's chat template, then streams the answer
    // (chatTokens batches, at most one per ~30 ms) until end-of-generation, maxTokens, a full
    // context or cancel(); then chatFinished().
    void chat(const QList<dlab::ui::ChatTurn>& conversation, const dlab::SamplerParams& params, int maxTokens);
    // JSON mode (OpenAI's response_format "json_object"): the replies from the next one on are
    // constrained to one JSON object (ConstraintSpec::Kind::JsonObject over the reply alone; the
    // chat template's prompt is not constrained).
    void setJsonMode(bool on);

signals:
    void chatStarted(int promptTokens);
    void chatTokens(const QList<dlab::widgets::StripToken>& tokens);
    void chatFinished(const dlab::ui::ChatStats& stats);
    void failed(const QString& message);

private:
    EngineContext& engine_;
    std::unique_ptr<Session> chatSession_;
    ConstraintCompiler compiler_;   // JSON mode's grammar for the loaded model's vocabulary
    bool jsonMode_ = false;
};

}  // namespace dlab::ui
