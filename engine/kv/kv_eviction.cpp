#include "kv/kv_eviction.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "kv/kv_run.h"

namespace dlab {

std::vector<EvictionResult> runEvictionExperiment(const Model& model, Backend& backend, const std::vector<TokenId>& tokens,
                                                  const std::vector<EvictionPolicy>& policies, const EvictionOptions& o) {
    const int64_t n = static_cast<int64_t>(tokens.size());
    if (n < 2) throw Error("the eviction experiment needs a text of at least 2 tokens (got " + std::to_string(n) + ")");
    if (policies.empty()) throw Error("the eviction experiment needs at least one policy");
    for (const EvictionPolicy& p : policies)
        if (p.window < 0 || p.sinks < 0 || (p.sinks > 0 && p.window == 0))
            throw Error("eviction policy '" + p.name + "': give a window of at least 1 position with its " + std::to_string(p.sinks) +
                        " sinks (window " + std::to_string(p.window) + ")");
    const HParams& hp = model.hparams();
    const ScopedCancelFlag flag(backend, o.cancel);
    std::vector<KvBlockPool> pools;
    pools.reserve(policies.size());
    std::vector<EvictionResult> out(policies.size());
    for (size_t k = 0; k < policies.size(); ++k) {
        const EvictionPolicy& p = policies[k];
        const int64_t slots = p.evicts() ? std::min(n, p.sinks + p.window) : n;
        pools.emplace_back(hp, KvBlockPool::blocksFor(slots, 16) + 1, o.type, 16);
        pools.back().newSequence();  // sequence 0
        out[k].policy = p;
    }
    const int64_t bytesPerSlot = 2 * hp.nLayer * static_cast<int64_t>(pools[0].rowBytes());
    std::vector<float> ref, mine;
    try {
        for (int64_t i = 0; i + 1 < n; ++i) {
            if (o.cancel && o.cancel->load()) break;
            for (size_t k = 0; k < policies.size(); ++k) {
                const EvictionPolicy& p = policies[k];
                KvBlockPool& pool = pools[k];
                if (p.evicts()) out[k].evicted += pool.evict(0, p.sinks, p.window - 1);  // room for token i
                const TokenId one[1] = {tokens[i]};
                const auto logits = backend.forward(one, pool, 0, false);
                out[k].maxSlots = std::max(out[k].maxSlots, pool.length(0));
                logSoftmax(logits, k == 0 ? ref : mine);
                const std::vector<float>& lp = k == 0 ? ref : mine;
                out[k].nll.push_back(-lp[tokens[i + 1]]);
                out[k].kl.push_back(k == 0 ? 0.0f : static_cast<float>(klDivergence(ref, mine)));
            }
            if (o.progress && (i % 16 == 15 || i + 2 == n)) o.progress(i + 1, n - 1);
        }
    } catch (const Cancelled&) {
        // keep the predictions made so far (equal counts: a policy's pass is cut only at the next token)
        const size_t done = out.back().nll.size();
        for (EvictionResult& r : out) {
            r.nll.resize(std::min(r.nll.size(), done));
            r.kl.resize(std::min(r.kl.size(), done));
        }
    }
    for (EvictionResult& r : out) {
        double nll = 0.0, kl = 0.0;
        int64_t count = 0;
        for (size_t i = static_cast<size_t>(std::max<int64_t>(0, o.scoreFrom)); i < r.nll.size(); ++i, ++count) {
            nll += r.nll[i];
            kl += r.kl[i];
        }
        r.perplexity = count > 0 ? std::exp(nll / double(count)) : 0.0;
        r.meanKl = count > 0 ? kl / double(count) : 0.0;
        r.bytesPeak = r.maxSlots * bytesPerSlot;
    }
    return out;
}

}  // namespace dlab
