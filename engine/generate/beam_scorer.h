#pragma once
// What beam search needs from a language model, and nothing more: sequences that can be created,
// forked, extended by one token and released, and the next-token logits of each. Tests implement
// it with a fixed table; ModelBeamScorer (model_beam_scorer.h) implements it over the paged KV
// cache, where fork() shares the parent's blocks, and evaluates a step's beams in one batched
// forward pass when beamSearch announces them with prefetch().
#include <cstdint>
#include <span>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace dlab {

class BeamScorer {
public:
    virtual ~BeamScorer() = default;
    // A sequence holding `prompt`; returns its handle.
    virtual int newSequence(const std::vector<TokenId>& prompt) = 0;
    // A new sequence with the same tokens as `seq` (which stays valid).
    virtual int fork(int seq) = 0;
    // Extends `seq` by one token.
    virtual void append(int seq, TokenId token) = 0;
    // Frees `seq`; its handle is not used again.
    virtual void release(int seq) = 0;
    // The next-token logits of `seq`: (nVocab). Valid until the next call on this scorer.
    virtual std::span<const float> logits(int seq) = 0;
    // A hint, never required: beamSearch calls it once per step with every sequence whose
    // logits() it is about to ask for (every running beam of every group), before any of those
    // calls, so a scorer over a model can evaluate them all in one batched pass; logits() then only
    // hands out what was computed. The default does nothing (logits() computes on demand).
    virtual void prefetch(std::span<const int> /*seqs*/) {}
    // The KV-cache blocks `seq` holds now, in logical order (optional: a scorer without a paged
    // cache returns none). beamSearch asks right after logits(seq), so the blocks include the one
    // its last token was written to; equal ids in two sequences are one shared block.
    virtual std::vector<int32_t> kvBlocks(int /*seq*/) const { return {}; }
};

}  // namespace dlab
