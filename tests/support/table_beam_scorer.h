#pragma once
// A fake language model for the beam-search tests and the beam-tree benchmark: a BeamScorer
// whose sequences are plain token lists and whose next-token logits are a fixed function of the
// whole sequence (a table), most often hashedLogits() below, a pseudo-random but reproducible one.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "generate/beam_scorer.h"

namespace dlab::test {

// SplitMix64's finaliser: the hash behind hashedLogits().
uint64_t splitmix(uint64_t x);

// Logits (vocab) in [-4, 4) that depend on every token of `tokens` and on `seed`, with `endBias`
// then added to token 0's (the end token of the searches that use it: > 0 makes hypotheses
// finish sooner, < 0 later). The same tokens, vocab, seed and bias give the same floats, bit for bit.
std::vector<float> hashedLogits(const std::vector<TokenId>& tokens, int vocab, uint64_t seed, float endBias = 0.0f);

class TableBeamScorer : public BeamScorer {
public:
    using Table = std::function<std::vector<float>(const std::vector<TokenId>&)>;
    // With reportKvBlocks, kvBlocks(seq) is {the sequence's length} (one made-up block id that
    // tells where it was asked); without, it is none, like a scorer without a paged cache.
    explicit TableBeamScorer(Table table, bool reportKvBlocks = false);

    int newSequence(const std::vector<TokenId>& prompt) override;
    int fork(int seq) override;
    void append(int seq, TokenId token) override;
    // Throws dlab::Error on a handle that is not live (released twice, or never created).
    void release(int seq) override;
    std::span<const float> logits(int seq) override;
    // Only records what it was told (a table needs no batch): logits() of a sequence appended to
    // since it was last announced (a fork inherits its parent's state) counts as unannounced.
    void prefetch(std::span<const int> seqs) override;
    std::vector<int32_t> kvBlocks(int seq) const override;

    size_t live() const { return seqs_.size(); }  // sequences created and not yet released
    size_t maxLive = 0;                           // the most that were live at once
    int logitCalls = 0;                           // calls of logits()
    std::vector<size_t> prefetchSizes;            // the size of every prefetch() call, in order
    int unannounced = 0;                          // logits() calls not covered by a prefetch()

private:
    int add(std::vector<TokenId> tokens, bool announced = false);
    std::vector<TokenId>& at(int seq);

    Table table_;
    bool reportKvBlocks_;
    std::map<int, std::vector<TokenId>> seqs_;
    std::map<int, bool> announced_;   // announced by prefetch() and not appended to since
    std::vector<float> buf_;
    int next_ = 0;
};

// A table of hashedLogits(tokens, vocab, seed, endBias).
TableBeamScorer::Table hashedTable(int vocab, uint64_t seed, float endBias = 0.0f);

}  // namespace dlab::test
