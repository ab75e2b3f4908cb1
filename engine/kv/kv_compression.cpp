#include "kv/kv_compression.h"

#include <algorithm>

#include "sampling/sampler.h"

namespace dlab {

namespace {
double meanDecodeMs(const KvRunResult& r) {
    double sum = 0.0;
    int n = 0;
    for (const KvRunStep& s : r.steps)
        if (s.step > 0) { sum += s.forwardMs; ++n; }
    return n > 0 ? sum / n : 0.0;
}
}  // namespace

std::vector<KvTypeComparison> compareKvTypes(const Model& model, Backend& backend, const std::vector<TokenId>& prompt, int steps,
                                             const std::vector<KvType>& types, const std::atomic<bool>* cancel,
                                             const std::function<void(int, int)>& progress) {
    std::vector<KvType> others;
    for (KvType t : types)
        if (t != KvType::F32 && std::find(others.begin(), others.end(), t) == others.end()) others.push_back(t);
    const int total = 1 + static_cast<int>(others.size());

    KvRunOptions o;
    o.steps = steps;
    o.sampler.temperature = 0.0f;
    o.type = KvType::F32;
    o.cancel = cancel;
    const KvRunResult ref = runKvExplorer(model, backend, prompt, o, {}, true);
    if (progress) progress(1, total);
    std::vector<KvTypeComparison> out;
    auto summarize = [&](KvType type, const KvRunResult& run) {
        KvTypeComparison c;
        c.type = type;
        c.bytesPerPosition = 2 * model.hparams().nLayer * static_cast<int64_t>(kvRowBytes(type, model.hparams().kvDim()));
        c.bytesInUse = run.steps.empty() ? 0 : run.steps.back().bytesInUse;
        const size_t n = std::min(run.logProbs.size(), ref.logProbs.size());
        int agree = 0;
        for (size_t i = 0; i < n; ++i) {
            const double kl = klDivergence(ref.logProbs[i], run.logProbs[i]);
            c.kl.push_back(kl);
            c.meanKl += kl;
            c.maxKl = std::max(c.maxKl, kl);
            agree += argmax(ref.logProbs[i]) == argmax(run.logProbs[i]);
        }
        if (n > 0) {
            c.meanKl /= double(n);
            c.top1Agreement = double(agree) / double(n);
        }
        c.msPerStep = meanDecodeMs(run);
        out.push_back(std::move(c));
    };
    summarize(KvType::F32, ref);
    if (ref.cancelled) return out;
    o.forcedTokens = ref.generated[0];
    o.steps = static_cast<int>(std::min<size_t>(ref.generated[0].size(), static_cast<size_t>(steps)));
    for (size_t i = 0; i < others.size(); ++i) {
        o.type = others[i];
        const KvRunResult run = runKvExplorer(model, backend, prompt, o, {}, true);
        summarize(others[i], run);
        if (progress) progress(static_cast<int>(i) + 2, total);
        if (run.cancelled) break;
    }
    return out;
}

}  // namespace dlab
