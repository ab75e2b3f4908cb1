#include "ui/engine_worker.h"

#include <QFileInfo>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/error.h"
#include "generate/session.h"
#include "model/backend.h"
#include "model/model.h"

namespace dlab::ui {

QString printableToken(const std::string& piece) {
    QString s = QString::fromUtf8(piece.data(), static_cast<qsizetype>(piece.size()));
    s.replace(QLatin1Char(' '), QChar(0x2423));
    s.replace(QLatin1Char('\n'), QChar(0x21B5));
    s.replace(QLatin1Char('\t'), QChar(0x21E5));
    return s.isEmpty() ? QStringLiteral("∅") : s;
}

void registerEngineTypes() {
    qRegisterMetaType<dlab::ui::ModelSummary>();
    qRegisterMetaType<dlab::ui::StepView>();
    qRegisterMetaType<dlab::StepTrace>();
    qRegisterMetaType<dlab::SampleResult>();
    qRegisterMetaType<dlab::SamplerParams>();
    qRegisterMetaType<dlab::widgets::DistributionBar>();
}

EngineWorker::EngineWorker(QObject* parent) : QObject(parent) {}

EngineWorker::~EngineWorker() {
    session_.reset();
    backend_.reset();
    model_.reset();
}

void EngineWorker::loadModel(const QString& path) {
    cancel_.store(false);
    session_.reset();
    backend_.reset();
    model_.reset();
    try {
        int lastPercent = -1;
        auto model = Model::load(path.toStdString(), [&](float f) {
            // Throttled: one queued signal per percent, not per tensor.
            const int percent = static_cast<int>(f * 100.0f);
            if (percent != lastPercent) {
                lastPercent = percent;
                emit progress(f);
            }
            return !cancel_.load();
        });
        const int threads = std::max(1, std::min(QThread::idealThreadCount(), 8));
        backend_ = makeCpuBackend(*model, threads);
        backend_->setCancelFlag(&cancel_);
        model_ = std::move(model);

        const GgufFile& f = model_->file();
        const GgufValue* name = f.find("general.name");
        ModelSummary s;
        s.path = path;
        s.name = name && name->type == GgufValueType::String ? QString::fromStdString(name->s)
                                                             : QFileInfo(path).fileName();
        s.arch = QString::fromStdString(model_->hparams().archName);
        s.parameters = model_->parameterCount();
        s.vocab = model_->hparams().nVocab;
        s.layers = model_->hparams().nLayer;
        s.contextLength = model_->hparams().nCtxTrain;
        s.tensorTypes = QString::fromStdString(model_->tensorTypeSummary());
        s.backend = tr("%1 (%2 threads)").arg(QString::fromUtf8(backend_->name())).arg(backend_->threads());
        emit modelLoaded(s);
    } catch (const Cancelled&) {
        backend_.reset();
        model_.reset();
        emit cancelled();
    } catch (const std::exception& e) {
        backend_.reset();
        model_.reset();
        emit failed(QString::fromUtf8(e.what()));
    }
}

void EngineWorker::startSession(const QString& prompt, const SamplerParams& params) {
    session_.reset();
    if (!model_) {
        emit failed(tr("No model is loaded."));
        return;
    }
    try {
        const Tokenizer& tok = model_->tokenizer();
        const std::string text = prompt.toStdString();
        std::vector<TokenId> ids = tok.encode(text, tok.addsBosByDefault(), false);
        params_ = params;
        SessionOptions options;
        options.sampler = params;
        session_ = std::make_unique<Session>(*model_, *backend_, std::move(ids), options);
        emit sessionStarted(static_cast<int>(session_->prompt().size()));
    } catch (const std::exception& e) {
        session_.reset();
        emit failed(QString::fromUtf8(e.what()));
    }
}

void EngineWorker::step() {
    if (!session_) {
        emit failed(tr("Start a session before stepping."));
        return;
    }
    cancel_.store(false);
    try {
        StepTrace trace = session_->step();
        StepView view = makeView(trace.step, trace.raw, trace.stages, trace.chosen, trace.chosenProbability);
        emit stepDone(trace, view);
    } catch (const Cancelled&) {
        emit cancelled();
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void EngineWorker::resample(int step, const SamplerParams& params) {
    if (!session_) return;  // nothing to re-sample yet: not an error for a slider move
    try {
        SampleResult r = session_->resample(step, params);
        StepView view = makeView(step, r.raw, r.stages, r.token, r.probability);
        emit resampled(step, r, view);
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void EngineWorker::setSamplerParams(const SamplerParams& params) {
    params_ = params;
    if (!session_) return;
    try {
        session_->setSamplerParams(params);
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

StepView EngineWorker::makeView(int step, const LogitSummary& raw, const std::vector<StageSnapshot>& stages,
                                TokenId chosen, float chosenP) const {
    const Tokenizer& tok = model_->tokenizer();
    StepView v;
    v.step = step;
    v.chosenText = printableToken(tok.tokenToPiece(chosen, true));
    v.chosenProbability = chosenP;

    // Top-N by raw logit (the chain's stages here never reorder survivors, so "before" and
    // "after" line up token by token).
    std::span<const float> logits = session_->logits(step);
    const int n = std::min<int>(kChartBars, static_cast<int>(logits.size()));
    std::vector<int> ids(logits.size());
    std::iota(ids.begin(), ids.end(), 0);
    std::partial_sort(ids.begin(), ids.begin() + n, ids.end(), [&](int a, int b) {
        return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
    });
    const StageSnapshot* last = stages.empty() ? nullptr : &stages.back();
    // The last snapshot lists all survivors when there are no more of them than it holds.
    const bool lastIsComplete = last && last->kept <= static_cast<int>(last->top.size());
    for (int i = 0; i < n; ++i) {
        widgets::DistributionBar bar;
        bar.id = ids[i];
        bar.label = printableToken(tok.tokenToPiece(ids[i], true));
        bar.before = std::exp(double(logits[ids[i]]) - raw.logSumExp);
        bar.after = 0.0;
        bar.removed = lastIsComplete;
        if (last) {
            for (const Candidate& c : last->top) {
                if (c.id == ids[i]) {
                    bar.after = c.p;
                    bar.removed = !std::isfinite(c.logit);
                    break;
                }
            }
        }
        v.bars << bar;
    }
    const auto& all = session_->tokens(session_->current());
    std::vector<TokenId> generated(all.begin() + static_cast<std::ptrdiff_t>(session_->prompt().size()), all.end());
    v.generatedText = QString::fromStdString(tok.decode(generated, false));
    return v;
}

}  // namespace dlab::ui
