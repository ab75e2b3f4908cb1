#include "ui/playground/playground_controller.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "generate/session.h"
#include "model/backend.h"
#include "model/kv_block_pool.h"
#include "model/model.h"
#include "sampling/stage_grammar.h"
#include "session/saved_session.h"
#include "ui/engine/step_views.h"
#include "ui/playground/playground_views.h"

namespace dlab::ui {

namespace {
QString stopReasonText(StopReason r) {
    switch (r) {
    case StopReason::EndOfGeneration: return QStringLiteral("eos");
    case StopReason::ContextFull: return QStringLiteral("context");
    case StopReason::Cancelled: return QStringLiteral("stopped");
    default: return QStringLiteral("length");
    }
}
}  // namespace

PlaygroundController::PlaygroundController(EngineContext* engine) : QObject(engine), engine_(*engine) {
    connect(engine, &EngineContext::aboutToReplaceModel, this, &PlaygroundController::dropSession, Qt::DirectConnection);
    // The KV page may show this session's branches as block tables.
    engine->setKvPoolSource(QStringLiteral("playground"),
                            {[this]() -> const KvBlockPool* { return session_ ? &session_->pool() : nullptr; },
                             [this](int seq) {
                                 if (!session_) return QString();
                                 for (const BranchInfo& b : session_->branches()) {
                                     if (b.seq != seq) continue;
                                     const QString name = b.parent < 0 ? tr("original") : tr("branch %1").arg(b.id);
                                     return b.id == session_->current() ? tr("%1 (current)").arg(name) : name;
                                 }
                                 return QString();
                             }});
}

PlaygroundController::~PlaygroundController() { engine_.removeKvPoolSource(QStringLiteral("playground")); }

void PlaygroundController::dropSession() {
    session_.reset();
    dropShadow();
    strips_.clear();
    recordedModel_.reset();   // the next model has other tokens
    // Compiled for this model's vocabulary: the page asks again once the next one is loaded.
    compiler_.reset();
    putConstraint(nullptr);
}

std::shared_ptr<const Constraint> PlaygroundController::constraint() const {
    const std::lock_guard lock(constraintMutex_);
    return constraint_;
}

void PlaygroundController::putConstraint(std::shared_ptr<const Constraint> c) {
    const std::lock_guard lock(constraintMutex_);
    constraint_ = std::move(c);
}

bool PlaygroundController::fitsConstraint(std::span<const TokenId> generated) const {
    const auto c = constraint();
    if (!c || generated.empty()) return true;
    try {
        GrammarStage(c).stateAfter(generated);
        return true;
    } catch (const Error&) {
        return false;
    }
}

SamplerParams PlaygroundController::unconstrained(SamplerParams p) const {
    p = engine_.withModelDefaults(std::move(p));
    p.constraint.reset();
    return p;
}

void PlaygroundController::setConstraint(const ConstraintChoice& choice, int request) {
    choice_ = choice;
    ConstraintStatus st;
    st.request = request;
    std::shared_ptr<const Constraint> c;
    if (choice.on && engine_.hasModel()) {
        try {
            c = compiler_.compile(engine_.model(), choice);
            describeConstraint(*c, st);
            st.on = true;
        } catch (const std::exception& e) {
            st.error = QString::fromUtf8(e.what());
        }
    }
    putConstraint(c);
    if (session_) {
        const auto& all = session_->tokens(session_->current());
        const size_t promptSize = session_->prompt().size();
        st.fitsSession = fitsConstraint(std::span(all.data() + promptSize, all.size() - promptSize));
        if (st.fitsSession) {
            // The next steps and every re-sample run under it.
            SamplerParams p = session_->samplerParams();
            p.constraint = c;
            try {
                session_->setSamplerParams(p);
            } catch (const std::exception& e) {
                emit failed(QString::fromUtf8(e.what()));
            }
        }
    }
    if (!c) dropShadow();
    else if (shadow_) findShadowMisfit();
    else if (st.fitsSession) startShadow();
    emit constraintChanged(st);
}

void PlaygroundController::setCompareUnconstrained(bool on) {
    compare_ = on;
    if (!on) {
        dropShadow();
        return;
    }
    startShadow();
}

void PlaygroundController::dropShadow() {
    const bool had = shadow_ != nullptr || !shadowTokens_.empty();
    shadow_.reset();
    shadowTokens_.clear();
    shadowEnded_ = false;
    shadowMisfit_ = -1;
    if (had) emit unconstrainedTokens({}, true, -1, false);
}

void PlaygroundController::startShadow() {
    if (!compare_ || !session_ || !constraint() || shadow_) return;
    try {
        SessionOptions options;
        options.sampler = unconstrained(session_->samplerParams());
        options.maxKeptSteps = 1;   // only the newest step's logits are read (for its chip)
        options.contextLength = session_->pool().contextLimit();
        options.kvBlocks = KvBlockPool::blocksFor(options.contextLength, options.kvBlockSize);   // one sequence
        shadow_ = std::make_unique<Session>(engine_.model(), engine_.backend(), session_->prompt(), options);
        shadowTokens_.clear();
        shadowEnded_ = false;
        shadowMisfit_ = -1;
        emit unconstrainedTokens({}, true, -1, false);
        const auto strip = strips_.find(session_->current());
        advanceShadow(strip != strips_.end() ? int(strip->second.size()) : 0);
    } catch (const Cancelled&) {
        // Stopped while catching up: it goes on with the next step.
    } catch (const std::exception& e) {
        shadow_.reset();
        emit failed(QString::fromUtf8(e.what()));
    }
}

void PlaygroundController::advanceShadow(int steps) {
    if (!shadow_) return;
    const Tokenizer& tok = engine_.model().tokenizer();
    const auto c = constraint();
    QList<widgets::StripToken> chips;
    try {
        while (!shadowEnded_ && static_cast<int>(shadowTokens_.size()) < steps) {
            if (static_cast<int64_t>(shadow_->tokens(shadow_->current()).size()) > shadow_->pool().contextLimit()) break;
            const StepTrace t = shadow_->step();
            chips << stepChip(tok, shadowTokens_, t.step, t.chosen, t.chosenProbability, shadow_->logits(t.step), t.raw, t.stages, false);
            shadowTokens_.push_back(t.chosen);
            if (tok.isEndOfGeneration(t.chosen)) shadowEnded_ = true;
        }
    } catch (const Cancelled&) {
        // The run was stopped: the comparison catches up at the next step.
    }
    if (chips.isEmpty()) return;
    if (shadowMisfit_ < 0 && c) findShadowMisfit();
    emit unconstrainedTokens(chips, false, shadowMisfit_, shadowEnded_);
}

void PlaygroundController::findShadowMisfit() {
    shadowMisfit_ = -1;
    const auto c = constraint();
    if (!c) return;
    GrammarAutomaton& a = c->automaton();
    GrammarAutomaton::StateId s = a.initial();
    for (size_t i = 0; i < shadowTokens_.size(); ++i) {
        s = a.advance(s, shadowTokens_[i]);
        if (s == GrammarAutomaton::kDead) {
            shadowMisfit_ = static_cast<int>(i);
            break;
        }
    }
}

std::shared_ptr<const RecordedModel> PlaygroundController::recordedModel() {
    if (recordedModel_) return recordedModel_;
    // Once per model: every token's pieces, so a saved session labels what it shows without the model.
    const Model& model = engine_.model();
    const Tokenizer& tok = model.tokenizer();
    auto m = std::make_shared<RecordedModel>();
    m->model = {engine_.modelName().toStdString(), model.hparams().archName, model.hparams().nVocab, tok.bos()};
    m->tokens.reserve(static_cast<size_t>(model.hparams().nVocab));
    for (TokenId id = 0; id < model.hparams().nVocab; ++id)
        m->tokens.push_back(id < tok.vocabSize() ? savedToken(tok, id) : SavedToken{id, {}, {}, false, false});
    recordedModel_ = std::move(m);
    return recordedModel_;
}

std::shared_ptr<const StepRecord> PlaygroundController::record(const StepTrace& trace, const SamplerParams& params, bool forced) {
    auto r = std::make_shared<StepRecord>();
    r->step = SavedStep{trace, params, savedRawLogits(session_->logits(trace.step), trace.stages), forced};
    r->model = recordedModel();
    return r;
}

SamplerParams PlaygroundController::withModelDefaults(SamplerParams p) const {
    p = engine_.withModelDefaults(std::move(p));
    p.constraint = constraint();   // the page's knobs never carry it: it is compiled here
    return p;
}

void PlaygroundController::setChartBars(int bars) { chartBars_ = std::clamp(bars, kMinChartBars, kMaxChartBars); }

QList<widgets::StripToken> PlaygroundController::promptChips() const {
    return ui::promptChips(engine_.model().tokenizer(), session_->prompt());
}

void PlaygroundController::emitBranches() {
    QList<BranchEntry> out;
    const Tokenizer& tok = engine_.model().tokenizer();
    const size_t promptSize = session_->prompt().size();
    for (const BranchInfo& b : session_->branches()) {
        BranchEntry e;
        e.id = b.id;
        e.parent = b.parent;
        e.forkStep = b.forkStep;
        e.steps = b.steps;
        e.current = b.id == session_->current();
        const auto& tokens = session_->tokens(b.id);
        if (b.forkStep >= 0 && promptSize + static_cast<size_t>(b.forkStep) < tokens.size())
            e.forkToken = printableToken(tok.tokenToPiece(tokens[promptSize + static_cast<size_t>(b.forkStep)], true));
        out << e;
    }
    emit branchesChanged(out);
}

void PlaygroundController::switchBranch(int id, const SamplerParams& params) {
    if (!session_) return;
    try {
        session_->switchTo(id);
        BranchView b;
        b.branch = id;
        b.switched = true;
        b.strip = strips_[id];
        b.step = static_cast<int>(b.strip.size()) - 1;
        if (b.step >= 0) {
            const SampleResult r = session_->resample(b.step, withModelDefaults(params));
            const widgets::StripToken& last = b.strip.back();
            b.view = makeView(b.step, r.raw, r.stages, last.id, static_cast<float>(last.p), params);
        }
        b.view.step = b.step;
        addBranchState(b.view);
        emit branched(b);
        emitBranches();
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void PlaygroundController::endSession() {
    session_.reset();
    dropShadow();
    strips_.clear();
    startFailed_ = false;
    emit sessionEnded();
}

void PlaygroundController::startSession(const QString& prompt, const SamplerParams& params) {
    session_.reset();
    dropShadow();
    strips_.clear();
    startFailed_ = true;   // until the session stands
    if (!engine_.hasModel()) {
        emit failed(tr("No model is loaded."));
        return;
    }
    try {
        const Tokenizer& tok = engine_.model().tokenizer();
        const std::string text = prompt.toStdString();
        std::vector<TokenId> ids = tok.encode(text, tok.addsBosByDefault(), false);
        SessionOptions options;
        options.sampler = withModelDefaults(params);
        session_ = std::make_unique<Session>(engine_.model(), engine_.backend(), std::move(ids), options);
        strips_[session_->current()] = {};
        startFailed_ = false;
        emit sessionStarted(static_cast<int>(session_->prompt().size()));
        emit promptTokens(promptChips());
        emitBranches();
        startShadow();
    } catch (const std::exception& e) {
        session_.reset();
        emit failed(QString::fromUtf8(e.what()));
    }
}

void PlaygroundController::emitStep(const StepTrace& trace) {
    const Tokenizer& tok = engine_.model().tokenizer();
    const auto& all = session_->tokens(session_->current());
    const size_t promptSize = session_->prompt().size();
    // The chosen token is the last one of the branch; everything before it sets the UTF-8 state.
    const std::span<const TokenId> before(all.data() + promptSize, all.size() - promptSize - 1);
    QList<widgets::StripToken>& strip = strips_[session_->current()];
    strip.resize(trace.step);  // a step replaces anything at or after it (it cannot, but be exact)
    strip << stepChip(tok, before, trace.step, trace.chosen, trace.chosenProbability, session_->logits(trace.step), trace.raw,
                      trace.stages, false);
    StepView view = makeView(trace.step, trace.raw, trace.stages, trace.chosen, trace.chosenProbability, session_->samplerParams());
    addBranchState(view);
    view.record = record(trace, session_->samplerParams(), false);
    emit stepDone(trace, view);
    // The comparison takes its step after the session's: as many tokens as this branch has.
    advanceShadow(static_cast<int>(strip.size()));
}

void PlaygroundController::step() {
    if (!session_) {
        if (!startFailed_) emit failed(tr("Start a session before stepping."));
        return;
    }
    engine_.beginWork();
    try {
        emitStep(session_->step());
    } catch (const Cancelled&) {
        emit cancelled();
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void PlaygroundController::run(int maxSteps) {
    if (!session_) {
        if (!startFailed_) emit failed(tr("Start a session before running."));
        return;
    }
    engine_.beginWork();
    try {
        {
            const std::lock_guard lock(offeredMutex_);
            offered_.reset();   // anything offered before the run is already in the session
        }
        const SessionRunResult r = session_->run(maxSteps, engine_.cancelFlag(), [this](const StepTrace& t) {
            emitStep(t);
            std::optional<SamplerParams> next;
            {
                const std::lock_guard lock(offeredMutex_);
                next.swap(offered_);
            }
            if (next) {
                session_->setSamplerParams(withModelDefaults(*next));   // validated there: bad ones end the run with failed()
                if (shadow_) shadow_->setSamplerParams(unconstrained(*next));
            }
        });
        emit runFinished(stopReasonText(r.stop));
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
        emit runFinished(QStringLiteral("error"));
    }
}

void PlaygroundController::resample(int step, const SamplerParams& params) {
    if (!session_) return;  // nothing to re-sample yet: not an error for a slider move
    try {
        SampleResult r = session_->resample(step, withModelDefaults(params));
        StepView view = makeView(step, r.raw, r.stages, r.token, r.probability, params);
        emit resampled(step, r, view);
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void PlaygroundController::branch(int step, int token, const SamplerParams& params) {
    if (!session_) {
        emit failed(tr("Start a session before branching."));
        return;
    }
    try {
        if (const auto c = constraint()) {
            // A token the grammar forbids here would leave the text no valid continuation.
            const auto& have = session_->tokens(session_->current());
            const size_t promptSize = session_->prompt().size();
            const size_t n = std::min(have.size() - promptSize, static_cast<size_t>(std::max(0, step)));
            const int32_t state = GrammarStage(c).stateAfter(std::span(have.data() + promptSize, n));
            if (c->automaton().advance(state, token) == GrammarAutomaton::kDead) {
                emit failed(tr("The constraint forbids \u201c%1\u201d at step %2: choose a token it allows, or switch the constraint off.")
                                .arg(printableToken(engine_.model().tokenizer().tokenToPiece(token, true)))
                                .arg(step + 1));
                return;
            }
        }
        const BranchId parent = session_->current();
        const BranchId id = session_->branch(step, token);
        const Tokenizer& tok = engine_.model().tokenizer();
        const auto& all = session_->tokens(id);
        const size_t promptSize = session_->prompt().size();
        const std::span<const TokenId> before(all.data() + promptSize, static_cast<size_t>(step));

        // The forced token's probability under the page's settings, from the cached logits.
        const SamplerParams used = withModelDefaults(params);
        const SampleResult r = session_->resample(step, used);
        float p = 0.0f;
        if (!r.stages.empty())
            for (const Candidate& c : r.stages.back().top)
                if (c.id == token && std::isfinite(c.logit)) p = c.p;

        QList<widgets::StripToken> strip = strips_[parent].mid(0, step);
        strip << stepChip(tok, before, step, token, p, session_->logits(step), r.raw, r.stages, true);
        strips_[id] = strip;

        BranchView b;
        b.branch = id;
        b.step = step;
        b.strip = strip;
        b.view = makeView(step, r.raw, r.stages, token, p, params);
        addBranchState(b.view);
        // Recorded as a step of the new branch: the step's distribution with the forced token.
        StepTrace forced;
        forced.step = step;
        forced.seq = id;
        forced.pos = static_cast<int64_t>(promptSize) + step;
        forced.phase = step == 0 ? Phase::Prefill : Phase::Decode;
        forced.evaluated = 0;   // nothing was evaluated: the logits are the step's cached ones
        forced.chosen = token;
        forced.text = tok.tokenToPiece(token, true);
        forced.chosenProbability = p;
        forced.raw = r.raw;
        forced.stages = r.stages;
        forced.kv = kvTraceStats(session_->kvStats(), forced.pos);
        b.view.record = record(forced, used, true);
        emit branched(b);
        emitBranches();
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void PlaygroundController::offerSamplerParams(const SamplerParams& params) {
    const std::lock_guard lock(offeredMutex_);
    offered_ = params;
}

void PlaygroundController::setSamplerParams(const SamplerParams& params) {
    if (!session_) return;   // startSession() brings its own
    try {
        session_->setSamplerParams(withModelDefaults(params));
        if (shadow_) shadow_->setSamplerParams(unconstrained(params));
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

StepView PlaygroundController::makeView(int step, const LogitSummary& raw, const std::vector<StageSnapshot>& stages, TokenId chosen,
                                float chosenP, const SamplerParams& params) const {
    return stepView(step, engine_.model().tokenizer(), session_->logits(step), raw, stages, chosen, chosenP, params, chartBars_);
}

void PlaygroundController::addBranchState(StepView& v) const {
    const BranchId current = session_->current();
    const auto& all = session_->tokens(current);
    const size_t promptSize = session_->prompt().size();
    const std::span<const TokenId> generated(all.data() + promptSize, all.size() - promptSize);
    const auto strip = strips_.find(current);
    ui::addBranchState(v, engine_.model().tokenizer(), generated, promptSize, strip != strips_.end() ? strip->second : QList<widgets::StripToken>{},
                       session_->kvStats().bytesInUse);
}

}  // namespace dlab::ui
