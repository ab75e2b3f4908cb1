#pragma once
// What every backend refuses before any work of a forward pass: tokens outside the vocabulary, a
// cache made for another model, a GPT-2 position past its learned ones (the tokens go to slots
// slot0 .. slot0 + n - 1 of seq). Throws dlab::Error with the sentence the CLI and the app show.
#include <span>

#include "model/hparams.h"
#include "model/kv_block_pool.h"

namespace dlab {

void checkForwardInput(const HParams& hp, std::span<const TokenId> tokens, const KvBlockPool& cache, SeqId seq, int64_t slot0);

}  // namespace dlab
