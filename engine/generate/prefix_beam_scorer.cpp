#include "generate/prefix_beam_scorer.h"

#include <string>

#include "core/error.h"

namespace dlab {

PrefixBeamScorer::PrefixBeamScorer(Backend& backend, KvBlockPool& pool, SeqId root, std::vector<float> rootLogits,
                                   std::function<void()> afterForward)
    : backend_(backend), pool_(pool), afterForward_(std::move(afterForward)) {
    Seq s;
    s.kv = root;
    s.logits = std::move(rootLogits);
    seqs_.emplace(0, std::move(s));
}

PrefixBeamScorer::~PrefixBeamScorer() {
    for (auto& [id, s] : seqs_)
        if (pool_.contains(s.kv)) pool_.freeSequence(s.kv);
}

PrefixBeamScorer::Seq& PrefixBeamScorer::at(int seq) {
    auto it = seqs_.find(seq);
    if (it == seqs_.end()) throw Error("beam search used sequence " + std::to_string(seq) + " after releasing it (a bug in the caller)");
    return it->second;
}

int PrefixBeamScorer::newSequence(const std::vector<TokenId>& prompt) {
    if (rootTaken_ || !seqs_.count(0)) throw Error("a prefix beam scorer runs one search; make a new scorer for the next");
    if (prompt != pool_.tokens(seqs_.at(0).kv))
        throw Error("beam search was given a prompt other than the one evaluated in the shared KV sequence (a bug in the caller)");
    rootTaken_ = true;
    return 0;
}

int PrefixBeamScorer::fork(int seq) {
    const Seq& parent = at(seq);
    Seq child;
    child.kv = pool_.fork(parent.kv, pool_.length(parent.kv));  // shares every block, copies none
    child.pending = parent.pending;
    child.logits = parent.logits;
    seqs_.emplace(next_, std::move(child));
    return next_++;
}

void PrefixBeamScorer::append(int seq, TokenId token) { at(seq).pending.push_back(token); }

void PrefixBeamScorer::release(int seq) {
    auto it = seqs_.find(seq);
    if (it == seqs_.end()) return;
    pool_.freeSequence(it->second.kv);
    seqs_.erase(it);
}

std::span<const float> PrefixBeamScorer::logits(int seq) {
    Seq& s = at(seq);
    if (!s.pending.empty()) {
        const std::span<const float> out = backend_.forward(s.pending, pool_, s.kv, false);
        ++forwardCalls_;
        s.logits.assign(out.begin(), out.end());
        s.pending.clear();
        if (afterForward_) afterForward_();
    }
    return s.logits;
}

std::vector<SeqId> PrefixBeamScorer::kvSequences() const {
    std::vector<SeqId> ids;
    for (const auto& [id, s] : seqs_) ids.push_back(s.kv);
    return ids;
}

}  // namespace dlab
