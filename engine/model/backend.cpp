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
    statsFilled_ = false;
    rowStats_.clear();
    if (!recomputePrefix_ || len == 0) {
        lastEvaluated_ = static_cast<int64_t>(tokens.size());
        const auto logits = evaluate(tokens, pool, seq, len, allLogits);
        if (statsTopN_ > 0 && !statsFilled_)
            rowStats_ = logitRowStats(logits, static_cast<int64_t>(logits.size()) / (allLogits ? static_cast<int64_t>(tokens.size()) : 1), statsTopN_);
        return logits;
    }

    // No-cache mode: the prefix's tokens go through the model again, from position 0.
    std::vector<TokenId> all(pool.tokens(seq));
    all.insert(all.end(), tokens.begin(), tokens.end());
    lastEvaluated_ = static_cast<int64_t>(all.size());
    const auto logits = evaluate(all, pool, seq, 0, allLogits);
    const auto mine = allLogits ? logits.subspan(static_cast<size_t>(len) * (logits.size() / all.size())) : logits;
    if (statsTopN_ > 0 && (!statsFilled_ || allLogits))   // the device's rows include the prefix's
        rowStats_ = logitRowStats(mine, static_cast<int64_t>(mine.size()) / (allLogits ? static_cast<int64_t>(tokens.size()) : 1), statsTopN_);
    return mine;
}

std::vector<std::span<const float>> Backend::forwardBatch(std::span<const BatchItem> items, KvBlockPool& pool) {
    attentionOut_ = nullptr;
    std::vector<int64_t> lengths;   // to roll every sequence back to if the batch fails
    for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].tokens.empty())
            throw Error("nothing to evaluate: batch item " + std::to_string(i) + " (KV sequence " + std::to_string(items[i].seq) +
                        ") holds no tokens");
        for (size_t j = 0; j < i; ++j)
            if (items[j].seq == items[i].seq)
                throw Error("KV sequence " + std::to_string(items[i].seq) + " is in the batch twice (items " + std::to_string(j) +
                            " and " + std::to_string(i) + "); give each sequence's tokens as one item");
        lengths.push_back(pool.length(items[i].seq));  // throws for a sequence that does not exist
    }
    std::vector<std::pair<size_t, size_t>> where;
    int64_t evaluated = 0;
    try {
        if (recomputePrefix_) {
            // No-cache mode: each item through forward(), which recomputes its prefix.
            batchOut_.clear();
            for (const BatchItem& it : items) {
                const auto l = forward(it.tokens, pool, it.seq, it.allLogits);
                where.emplace_back(batchOut_.size(), l.size());
                batchOut_.insert(batchOut_.end(), l.begin(), l.end());
                evaluated += lastEvaluated_;
            }
        } else {
            statsFilled_ = false;
            rowStats_.clear();
            evaluateBatch(items, pool, batchOut_, where);
            for (const BatchItem& it : items) evaluated += static_cast<int64_t>(it.tokens.size());
        }
    } catch (...) {
        for (size_t i = 0; i < items.size(); ++i) pool.truncate(items[i].seq, lengths[i]);  // also frees blocks prepared past it
        throw;
    }
    lastEvaluated_ = evaluated;
    std::vector<std::span<const float>> out;
    for (const auto& [offset, count] : where) out.emplace_back(batchOut_.data() + offset, count);
    if (statsTopN_ > 0 && (!statsFilled_ || recomputePrefix_)) {
        rowStats_.clear();
        for (size_t i = 0; i < items.size(); ++i) {
            const int64_t rows = items[i].allLogits ? static_cast<int64_t>(items[i].tokens.size()) : 1;
            for (auto& s : logitRowStats(out[i], static_cast<int64_t>(out[i].size()) / rows, statsTopN_)) rowStats_.push_back(std::move(s));
        }
    }
    return out;
}

void Backend::evaluateBatch(std::span<const BatchItem> items, KvBlockPool& pool, std::vector<float>& out,
                            std::vector<std::pair<size_t, size_t>>& where) {
    // One item after another (forwardBatch rolls them all back if one fails).
    out.clear();
    where.clear();
    for (const BatchItem& it : items) {
        const auto l = evaluate(it.tokens, pool, it.seq, pool.length(it.seq), it.allLogits);
        where.emplace_back(out.size(), l.size());
        out.insert(out.end(), l.begin(), l.end());
    }
}

void Backend::setHostLogits(bool on) {
    if (!on) throw Error("the " + std::string(name()) + " backend computes its logits on the host; they cannot stay on a device");
    hostLogits_ = true;
}

void Backend::setThreads(int threads) {
    throw Error("the " + std::string(name()) + " backend cannot change its thread count (asked for " + std::to_string(threads) + ")");
}

}  // namespace dlab
