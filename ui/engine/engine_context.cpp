#include "ui/engine/engine_context.h"

#include "cuda/backend_choice.h"

#include <QThread>

#include <algorithm>

#include "core/error.h"
#include "generate/session.h"
#include "model/backend.h"
#include "model/model.h"
#include "model/published_name.h"
#include "sampling/dry_breakers.h"

namespace dlab::ui {

EngineContext::EngineContext(QObject* parent) : QObject(parent) {}

EngineContext::~EngineContext() {
    qDeleteAll(findChildren<QObject*>(Qt::FindDirectChildrenOnly));
    backend_.reset();
    model_.reset();
}

int EngineContext::automaticThreads() { return std::max(1, std::min(QThread::idealThreadCount(), 8)); }

SamplerParams EngineContext::withModelDefaults(SamplerParams p) const {
    if (p.dryMultiplier > 0.0f && p.dryBreakers.empty()) p.dryBreakers = dryBreakers_;
    return p;
}

void EngineContext::loadModel(const QString& path, int threads, int backendKind) {
    beginWork();
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
        if (threads <= 0) threads = automaticThreads();
        BackendChoice choice = makeBackend(*model, static_cast<BackendKind>(backendKind), threads);
        auto backend = std::move(choice.backend);
        backend->setCancelFlag(&cancel_);
        // Only now is the previous model replaced: a failed or cancelled load leaves it usable.
        emit aboutToReplaceModel();
        backend_ = std::move(backend);
        model_ = std::move(model);
        dryBreakers_ = dryBreakersFromStrings(defaultDryBreakers(), model_->tokenizer());

        const GgufFile& f = model_->file();
        const GgufValue* name = f.find("general.name");
        ModelSummary s;
        s.path = path;
        s.internalName = name && name->type == GgufValueType::String ? QString::fromStdString(name->s) : QString();
        s.name = QString::fromStdString(publishedModelName(path.toStdString()));
        modelName_ = s.name;
        s.arch = QString::fromStdString(model_->hparams().archName);
        s.parameters = model_->parameterCount();
        s.vocab = model_->hparams().nVocab;
        s.layers = model_->hparams().nLayer;
        s.contextLength = defaultSessionContext(model_->hparams());
        s.fileBytes = static_cast<qint64>(f.fileSize());
        s.tensorTypes = QString::fromStdString(model_->tensorTypeSummary());
        s.backend = QString::fromUtf8(backend_->name());
        s.threads = backend_->threads();
        s.gpuFallback = choice.fallback;
        emit modelLoaded(s);
    } catch (const Cancelled&) {
        emit cancelled();
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void EngineContext::setThreads(int threads) {
    if (!backend_) return;   // the next load takes them
    try {
        backend_->setThreads(threads <= 0 ? automaticThreads() : threads);
        emit threadsChanged(backend_->threads());
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

}  // namespace dlab::ui
