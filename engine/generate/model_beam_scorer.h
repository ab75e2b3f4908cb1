#pragma once
// BeamScorer over the real engine: every beam is a sequence in a paged KvBlockPool, so fork()
// shares the parent's K/V blocks (the prompt's, and every common prefix) instead of copying or
// recomputing them; the first write into a shared block copies that block (copy-on-write).
//
// Work is lazy: append() only queues the token, and the queued tokens (the whole prompt for a new
// sequence, one token per step afterwards) run through the backend when their logits are needed.
// A fork copies the parent's last logits and queued tokens. beamSearch announces each step's beams
// with prefetch(), which evaluates every one of them that has queued tokens in ONE
// Backend::forwardBatch (the weights are read once for the k beams, not k times); logits() then
// returns the prefetched row. A caller that does not prefetch (or setBatched(false)) gets the
// one-at-a-time path: logits() runs that sequence alone through Backend::forward. With exact matmul
// both paths give the same logits bit for bit; on the fast path they differ within the engine's
// noise floor (see Backend::forwardBatch), so a near tie between beams may go the other way.
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "generate/beam_search.h"
#include "model/backend.h"

namespace dlab {

class ModelBeamScorer : public BeamScorer {
public:
    // `backend` and `pool` must outlive the scorer; sequences it made are freed by release() or
    // by its destructor.
    ModelBeamScorer(Backend& backend, KvBlockPool& pool);
    // A search that starts from a prompt already evaluated in the pool: `root` holds the prompt and
    // rootLogits (nVocab) follow its last token; newSequence() then returns it without recomputing
    // anything (and checks it was given the same tokens), so every beam forks from the shared
    // prefill. The scorer takes the root over. afterForward runs after every forward pass (for a
    // caller that tracks the pool's high-water mark). compareRuns() uses this.
    ModelBeamScorer(Backend& backend, KvBlockPool& pool, SeqId root, std::vector<float> rootLogits,
                    std::function<void()> afterForward = {});
    ~ModelBeamScorer() override;
    ModelBeamScorer(const ModelBeamScorer&) = delete;
    ModelBeamScorer& operator=(const ModelBeamScorer&) = delete;

    int newSequence(const std::vector<TokenId>& prompt) override;
    int fork(int seq) override;
    void append(int seq, TokenId token) override;
    void release(int seq) override;
    // Throws dlab::Error past the context limit or when the pool runs out of blocks (size it with
    // beamPoolBlocks), dlab::Cancelled if the backend's cancel flag was raised.
    std::span<const float> logits(int seq) override;
    // One Backend::forwardBatch over those of `seqs` with queued tokens (none queued: no pass; a
    // handle given twice counts once); errors as logits(), and then no sequence has changed.
    void prefetch(std::span<const int> seqs) override;
    // false: prefetch() does nothing, so every beam is its own forward pass (the reference path the
    // tests and `bench --beam` compare the batch with). On by default.
    void setBatched(bool on) { batched_ = on; }
    bool batched() const { return batched_; }
    // The pool's block table of the beam (pool block ids, logical order). Blocks of tokens still
    // queued by append() are not there yet: beamSearch asks after logits(), when there are none.
    std::vector<int32_t> kvBlocks(int seq) const override;

    SeqId kvSequence(int seq) const;        // the pool's id of a beam (for KV statistics)
    std::vector<SeqId> kvSequences() const;  // the pool ids of the live beams
    // The cost so far: forward passes run (a batched step is one pass, whatever its beams) and the
    // tokens they evaluated (a step evaluates one per running beam; a new sequence its prompt).
    int forwardCalls() const { return forwardCalls_; }
    int64_t tokensEvaluated() const { return tokensEvaluated_; }

private:
    struct Seq {
        SeqId kv = -1;
        std::vector<TokenId> pending;  // appended, not yet evaluated
        std::vector<float> logits;     // (nVocab) after the last evaluated token; empty before
    };
    Seq& at(int seq);
    const Seq& at(int seq) const;

    Backend& backend_;
    KvBlockPool& pool_;
    std::function<void()> afterForward_;
    std::map<int, Seq> seqs_;
    bool hasRoot_ = false;   // constructed over a prefilled root (id 0)
    bool rootTaken_ = false;
    int next_ = 0;
    bool batched_ = true;
    int forwardCalls_ = 0;
    int64_t tokensEvaluated_ = 0;
};

// Blocks a pool needs for beamSearch(width, maxNewTokens) after promptTokens: the shared prompt
// once, and per beam its own generated blocks plus a copy of the prompt's partial last block.
int64_t beamPoolBlocks(int64_t promptTokens, int maxNewTokens, int width, int64_t blockSize);

// The usual set-up in one call: a pool sized by beamPoolBlocks and limited to `contextLimit`
// positions, a ModelBeamScorer over it, and the search. Throws dlab::Error when the prompt plus
// maxNewTokens do not fit the context, and whatever beamSearch throws.
BeamResult beamSearchModel(const Model& model, Backend& backend, const std::vector<TokenId>& prompt,
                           const BeamOptions& options, KvType kvType, int64_t contextLimit,
                           const BeamStepCallback& onStep = {}, const std::atomic<bool>* cancel = nullptr);

// Every id the tokenizer treats as end of generation (eos, eot, <|im_end|>, ...), ascending.
std::vector<TokenId> endOfGenerationTokens(const Tokenizer& tokenizer);

}  // namespace dlab
