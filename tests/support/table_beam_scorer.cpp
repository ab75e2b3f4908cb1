#include "table_beam_scorer.h"

#include <algorithm>
#include <utility>

#include "core/error.h"

namespace dlab::test {

uint64_t splitmix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

std::vector<float> hashedLogits(const std::vector<TokenId>& tokens, int vocab, uint64_t seed, float endBias) {
    uint64_t h = splitmix(seed);
    for (TokenId t : tokens) h = splitmix(h ^ uint64_t(t + 1));
    std::vector<float> l(vocab);
    for (int v = 0; v < vocab; ++v) l[v] = float(splitmix(h + 7919u * (v + 1)) >> 11) * 0x1.0p-53f * 8.0f - 4.0f;
    if (endBias != 0.0f && vocab > 0) l[0] += endBias;
    return l;
}

TableBeamScorer::Table hashedTable(int vocab, uint64_t seed, float endBias) {
    return [vocab, seed, endBias](const std::vector<TokenId>& tokens) {
        return hashedLogits(tokens, vocab, seed, endBias);
    };
}

TableBeamScorer::TableBeamScorer(Table table, bool reportKvBlocks)
    : table_(std::move(table)), reportKvBlocks_(reportKvBlocks) {}

int TableBeamScorer::newSequence(const std::vector<TokenId>& prompt) { return add(prompt); }

int TableBeamScorer::fork(int seq) { return add(at(seq), announced_[seq]); }

void TableBeamScorer::append(int seq, TokenId token) {
    at(seq).push_back(token);
    announced_[seq] = false;
}

void TableBeamScorer::release(int seq) {
    if (!seqs_.erase(seq)) throw Error("released an unknown sequence");
    announced_.erase(seq);
}

std::span<const float> TableBeamScorer::logits(int seq) {
    buf_ = table_(at(seq));
    ++logitCalls;
    if (!announced_[seq]) ++unannounced;
    return buf_;
}

void TableBeamScorer::prefetch(std::span<const int> seqs) {
    prefetchSizes.push_back(seqs.size());
    for (int seq : seqs) {
        at(seq);  // throws for a handle that is not live
        announced_[seq] = true;
    }
}

std::vector<int32_t> TableBeamScorer::kvBlocks(int seq) const {
    if (!reportKvBlocks_) return {};
    return {int32_t(seqs_.at(seq).size())};
}

int TableBeamScorer::add(std::vector<TokenId> tokens, bool announced) {
    seqs_[next_] = std::move(tokens);
    announced_[next_] = announced;
    maxLive = std::max(maxLive, seqs_.size());
    return next_++;
}

std::vector<TokenId>& TableBeamScorer::at(int seq) {
    auto it = seqs_.find(seq);
    if (it == seqs_.end()) throw Error("unknown sequence");
    return it->second;
}

}  // namespace dlab::test
