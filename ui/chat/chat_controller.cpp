// ChatController::chat(): one streamed answer of the chat page. Runs on the engine thread.
//
// The conversation is rendered with the model's chat template into the chat session (the
// playground's session is left alone); from the second answer on, the session keeps the KV cache
// of the conversation it has already seen (Session::restart), so the prefill covers only the new turn. Each step's chip is built here, on the worker thread, and
// the chips go to the GUI in batches at most every kBatchMs (and once at the end), so a fast model
// does not flood the GUI's event queue with one queued signal per token.

#include <algorithm>
#include <chrono>
#include <span>
#include <vector>

#include "core/error.h"
#include "generate/chat_prompt.h"
#include "generate/session.h"
#include "model/backend.h"
#include "model/kv_block_pool.h"
#include "model/model.h"
#include "ui/chat/chat_controller.h"
#include "ui/chat/utf8_stream_decoder.h"
#include "ui/engine/step_views.h"

namespace dlab::ui {

namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kBatch = std::chrono::milliseconds(30);

double msBetween(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

}  // namespace

ChatController::ChatController(EngineContext* engine) : QObject(engine), engine_(*engine) {
    connect(engine, &EngineContext::aboutToReplaceModel, this, [this] {
        chatSession_.reset();
        compiler_.reset();
    }, Qt::DirectConnection);
}

ChatController::~ChatController() = default;

void ChatController::setJsonMode(bool on) { jsonMode_ = on; }

void ChatController::chat(const QList<ChatTurn>& conversation, const SamplerParams& params, int maxTokens) {
    const Clock::time_point t0 = Clock::now();
    engine_.beginWork();
    if (!engine_.hasModel()) {
        emit failed(tr("No model is loaded."));
        return;
    }
    if (maxTokens < 1) {
        emit failed(tr("An answer needs at least 1 token (max tokens is %1).").arg(maxTokens));
        return;
    }

    ChatStats stats;
    QList<widgets::StripToken> pending;  // chips not yet sent
    // What the chat's cache holds once the answer ends, also after a Stop.
    const auto measureCache = [&] {
        if (!chatSession_) return;
        stats.contextUsed = static_cast<qint64>(chatSession_->tokens(chatSession_->current()).size());
        stats.kvBytes = chatSession_->kvStats().bytesInUse;
    };
    try {
        std::vector<ChatMessage> messages;
        for (const ChatTurn& turn : conversation) {
            // An empty system prompt means no system message (the template may insert its default).
            if (turn.role == QLatin1String("system") && turn.text.trimmed().isEmpty()) continue;
            messages.push_back({turn.role.toStdString(), turn.text.toStdString()});
        }
        std::vector<TokenId> prompt = chatPromptTokens(engine_.model(), messages);
        SamplerParams used = engine_.withModelDefaults(params);
        if (jsonMode_) {
            // The reply alone is constrained: the grammar reads History::generated(), which starts
            // after the chat template's prompt.
            used.constraint = compiler_.compile(engine_.model(), {true, {ConstraintSpec::Kind::JsonObject, "", "JSON mode"}});
            stats.jsonMode = true;
        }

        const int64_t context = defaultSessionContext(engine_.model().hparams());
        if (static_cast<int64_t>(prompt.size()) >= context) {
            emit failed(tr("The conversation is %1 tokens long but the model's context holds only %2 positions. "
                           "Clear the chat or shorten the system prompt, then try again.")
                            .arg(prompt.size())
                            .arg(context));
            return;
        }

        if (chatSession_) {
            // The next turn repeats the conversation so far: the session keeps the KV cache of
            // what it repeats and evaluates only the rest (a Regenerate evaluates one token).
            stats.reusedTokens = static_cast<int>(chatSession_->restart(std::move(prompt), used));
        } else {
            SessionOptions options;
            options.sampler = used;
            options.traceTopN = std::max(16, kAlternatives);  // enough candidates for the chips' alternatives
            options.maxKeptSteps = 1;                         // only the newest step's logits are read
            options.contextLength = context;
            options.kvBlocks = KvBlockPool::blocksFor(context, options.kvBlockSize);  // one sequence, no branches
            chatSession_ = std::make_unique<Session>(engine_.model(), engine_.backend(), std::move(prompt), options);
        }
        stats.promptTokens = static_cast<int>(chatSession_->prompt().size());
        emit chatStarted(stats.promptTokens);

        const Tokenizer& tok = engine_.model().tokenizer();
        Session& session = *chatSession_;
        const int64_t contextLimit = session.pool().contextLimit();
        Utf8StreamDecoder decoder;
        Clock::time_point firstAt{}, lastAt{}, sentAt = t0;
        bool first = true;
        stats.stopReason = QStringLiteral("length");
        try {
            while (true) {
                if (engine_.cancelRequested()) {
                    stats.stopReason = QStringLiteral("stopped");
                    break;
                }
                if (stats.tokens >= maxTokens) {
                    stats.stopReason = QStringLiteral("length");
                    break;
                }
                if (static_cast<int64_t>(session.tokens(session.current()).size()) > contextLimit) {
                    stats.stopReason = QStringLiteral("context");
                    break;
                }
                const StepTrace trace = session.step();
                const Clock::time_point now = Clock::now();
                if (first) {
                    stats.timeToFirstTokenMs = msBetween(t0, now);
                    firstAt = now;
                    first = false;
                }
                if (tok.isEndOfGeneration(trace.chosen)) {
                    stats.stopReason = QStringLiteral("eos");
                    break;
                }
                const TokenId chosen = trace.chosen;
                // One decoder for the whole answer: a character split over several tokens appears
                // on the token that completes it, and the chips' texts add up to the answer's
                // bytes decoded in one go.
                const QString text = decoder.next(tok.tokenToPiece(chosen, false));
                pending.append(stripToken(tok, trace.step, chosen, trace.chosenProbability, text, session.logits(trace.step),
                                          trace.raw, trace.stages, kAlternatives));
                ++stats.tokens;
                lastAt = now;
                if (now - sentAt >= kBatch) {
                    emit chatTokens(pending);
                    pending.clear();
                    sentAt = now;
                }
            }
        } catch (const Cancelled&) {
            stats.stopReason = QStringLiteral("stopped");
        }
        stats.stopped = stats.stopReason == QLatin1String("stopped");
        if (stats.tokens > 1) {
            const double ms = msBetween(firstAt, lastAt);
            stats.tokensPerSecond = ms > 0.0 ? (stats.tokens - 1) * 1000.0 / ms : 0.0;
        }
        if (!pending.isEmpty()) emit chatTokens(pending);
        measureCache();
        emit chatFinished(stats);
    } catch (const Cancelled&) {
        // Raised before the answer started (e.g. during the prefill's first layers): still a Stop.
        if (!pending.isEmpty()) emit chatTokens(pending);
        stats.stopReason = QStringLiteral("stopped");
        stats.stopped = true;
        measureCache();
        emit chatFinished(stats);
    } catch (const std::exception& e) {
        if (!pending.isEmpty()) emit chatTokens(pending);
        emit failed(QString::fromUtf8(e.what()));
    }
}

}  // namespace dlab::ui
