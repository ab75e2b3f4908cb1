#include "model/forward_input.h"

#include <string>

#include "core/error.h"

namespace dlab {

void checkForwardInput(const HParams& hp, std::span<const TokenId> tokens, const KvBlockPool& cache, SeqId seq, int64_t slot0) {
    const int64_t last = cache.positionOf(seq, slot0 + static_cast<int64_t>(tokens.size()) - 1);
    if (hp.arch == Arch::Gpt2 && last >= hp.nCtxTrain)
        throw Error("GPT-2 models have learned positions for " + std::to_string(hp.nCtxTrain) +
                    " tokens only; the batch would reach position " + std::to_string(last + 1));
    for (TokenId t : tokens)
        if (t < 0 || t >= hp.nVocab)
            throw Error("token id " + std::to_string(t) + " is outside the vocabulary of " + std::to_string(hp.nVocab) + " tokens");
    if (cache.kvDim() != hp.kvDim() || cache.nLayer() != hp.nLayer) throw Error("the KV cache was made for a different model");
}

}  // namespace dlab
