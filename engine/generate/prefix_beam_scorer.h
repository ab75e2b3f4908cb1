#pragma once
// A BeamScorer whose search starts from a prompt already evaluated in a KvBlockPool: the root beam
// IS a given sequence (its K/V and last logits are reused, nothing is recomputed), and every beam
// forks from it, so all beams share the prompt's blocks. compareRuns() uses it to run beam search
// next to greedy and sampled runs on one prefill. Otherwise like ModelBeamScorer: lazy forward
// passes, one per beam and step.
#include <functional>
#include <map>
#include <vector>

#include "generate/beam_scorer.h"
#include "model/backend.h"

namespace dlab {

class PrefixBeamScorer : public BeamScorer {
public:
    // root: a pool sequence holding the prompt; rootLogits: (nVocab) after its last token. The
    // scorer takes the root over (it is freed like any beam). afterForward runs after every forward
    // pass (the caller's KV high-water mark).
    PrefixBeamScorer(Backend& backend, KvBlockPool& pool, SeqId root, std::vector<float> rootLogits,
                     std::function<void()> afterForward = {});
    ~PrefixBeamScorer() override;
    PrefixBeamScorer(const PrefixBeamScorer&) = delete;
    PrefixBeamScorer& operator=(const PrefixBeamScorer&) = delete;

    // Called once, with the root's tokens; returns the root. Throws dlab::Error for other tokens.
    int newSequence(const std::vector<TokenId>& prompt) override;
    int fork(int seq) override;
    void append(int seq, TokenId token) override;
    void release(int seq) override;
    std::span<const float> logits(int seq) override;

    std::vector<SeqId> kvSequences() const;  // the pool ids of the live beams
    int forwardCalls() const { return forwardCalls_; }

private:
    struct Seq {
        SeqId kv = -1;
        std::vector<TokenId> pending;  // appended, not yet evaluated
        std::vector<float> logits;     // (nVocab) after the last evaluated token
    };
    Seq& at(int seq);

    Backend& backend_;
    KvBlockPool& pool_;
    std::function<void()> afterForward_;
    std::map<int, Seq> seqs_;
    bool rootTaken_ = false;
    int next_ = 1;  // 0 is the root
    int forwardCalls_ = 0;
};

}  // namespace dlab
