#include "model/backend.h"

#include <string>
#include <vector>

#include "core/error.h"

namespace dlab {

std::span<const float> Backend::forward(std::span<const TokenId> tokens, KvBlockPool& pool, SeqId seq, bool allLogits) {
    if (tokens.empty()) throw Error("nothing to evaluate: the batch holds no tokens");
    struct LapseRequest {  // the attention request covers this one call, whatever happens
        AttentionWeights*& out;
        ~LapseRequest() { out = nullptr; }
    } lapse{attentionOut_};
    const int64_t len = pool.length(seq);
    if (!recomputePrefix_ || len == 0) {
        lastEvaluated_ = static_cast<int64_t>(tokens.size());
        return evaluate(tokens, pool, seq, len, allLogits);
    }

    // No-cache mode: the prefix's tokens go through the model again, from position 0.
    std::vector<TokenId> all(pool.tokens(seq));
    all.insert(all.end(), tokens.begin(), tokens.end());
    lastEvaluated_ = static_cast<int64_t>(all.size());
    const auto logits = evaluate(all, pool, seq, 0, allLogits);
    if (!allLogits) return logits;
    const size_t vocab = logits.size() / all.size();
    return logits.subspan(static_cast<size_t>(len) * vocab);
}

void Backend::setThreads(int threads) {
    throw Error("the " + std::string(name()) + " backend cannot change its thread count (asked for " + std::to_string(threads) + ")");
}

}  // namespace dlab
