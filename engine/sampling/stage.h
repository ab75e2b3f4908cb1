#pragma once
// One step of the sampler chain (llama.cpp's llama_sampler): a tiny class that edits the shared
// candidate array. Stages never draw; the chain draws once after the last stage.
#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sampling/candidates.h"
#include "sampling/sampler_params.h"
#include "sampling/snapshot.h"

namespace dlab {

// What a stage's apply() may do to the candidates; lets a snapshot tell the share of its input the
// stage kept without copying that input (StageSnapshot::inputMassKept).
enum class StageEffect {
    Removes,    // drops candidates or sets them to -inf, and leaves every survivor's logit as it was
    Reshapes,   // edits logits, never turning a finite one into -inf
    Any,        // either, or both: measured from a copy of the input
};

class SamplerStage {
public:
    virtual ~SamplerStage() = default;
    virtual std::string_view name() const = 0;
    // False when the settings make the stage a no-op (the chain skips it; its snapshot is the previous one).
    virtual bool enabled() const { return true; }
    // With these settings (test_sampler_chain holds every stage to what it claims).
    virtual StageEffect effect() const { return StageEffect::Any; }
    // Edits the candidates. Must report what it did through CandidateArray's mutators
    // (logitsChanged / truncate / filter / keepTop / dropFront), which keep the flags honest.
    virtual void apply(CandidateArray& cands, const History& history) = 0;
    // The token the chain drew and its probability in the final distribution (Mirostat learns from it).
    virtual void accept(TokenId /*token*/, float /*p*/, SamplerState& /*state*/) {}
    // Adds what only this stage knows to its snapshot of the step just applied (the grammar and
    // banned-phrases stages list the best tokens they forbade). Called only when snapshots are on.
    virtual void annotate(StageSnapshot& /*snapshot*/) const {}
};

// The stage called `name` (a canonical name from resolveStageOrder) with its settings from `params`.
std::unique_ptr<SamplerStage> makeStage(const std::string& name, const SamplerParams& params);

// The last `lastN` entries of `tokens` (-1 = all, 0 = none).
std::span<const TokenId> lastTokens(std::span<const TokenId> tokens, int lastN);

// Distinct tokens with how often they occur, sorted by id.
struct TokenCount {
    TokenId id;
    int count;
};
std::vector<TokenCount> countTokens(std::span<const TokenId> tokens);

// Calls f(candidate, count) for every candidate whose id is in `counts` (sorted by id). Direct
// indexing while the array is still the whole vocabulary in id order, a binary search otherwise.
template <typename F>
void forEachCounted(CandidateArray& cands, const std::vector<TokenCount>& counts, F f) {
    if (counts.empty()) return;
    if (cands.identity()) {
        for (const auto& tc : counts)
            if (tc.id >= 0 && static_cast<size_t>(tc.id) < cands.size()) f(cands[static_cast<size_t>(tc.id)], tc.count);
        return;
    }
    for (auto& c : cands) {
        auto it = std::lower_bound(counts.begin(), counts.end(), c.id, [](const TokenCount& a, TokenId id) { return a.id < id; });
        if (it != counts.end() && it->id == c.id) f(c, it->count);
    }
}

}  // namespace dlab
