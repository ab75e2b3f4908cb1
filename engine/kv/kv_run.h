#pragma once
// The KV explorer's run: one prompt prefilled into a fresh paged pool, then `sequences`
// continuations forked from it (sharing the prompt's blocks copy-on-write), each stepped one token
// at a time, with what the pool and the first sequence's forward pass did at every step.
//
// The lesson's numbers come from here: positions and bytes per step, how many K/V rows each step
// computed against how many it read back from the cache (the no-cache mode computes them all
// again), the forward pass's time, and on request the attention weights of sequence 0's newest
// token. The pool stays with the result, so its rows (norms, quantization error) and block tables
// can be read afterwards.
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include "model/attention_weights.h"
#include "model/backend.h"
#include "sampling/sampler_params.h"

namespace dlab {

struct KvRunOptions {
    int steps = 32;                  // tokens per sequence after the prompt, >= 1
    int sequences = 1;               // continuations forked from the prompt, 1..64
    SamplerParams sampler;           // temperature 0 = greedy; sequence i samples with seed + i
    KvType type = KvType::F16;
    int64_t blockSize = 16;
    int64_t contextLength = 0;       // positions per sequence; 0 = prompt + steps
    // Sequence 0's attention weights at every k-th step and the last (0 = none, 1 = every step):
    // nLayer * nHead * positions floats a step (30 * 9 * 1,024 * 4 B = 1.1 MB for SmolLM2 at 1K).
    int attentionEvery = 0;
    bool withoutCache = false;       // recompute every prefix each step (Backend::setRecomputePrefix)
    std::vector<TokenId> forcedTokens;  // when given, sequence 0 takes these instead of sampling (teacher forcing)
    const std::atomic<bool>* cancel = nullptr;
};

struct KvRunStep {
    int step = 0;                    // 0 = the prompt's prefill, then one per token
    TokenId token = -1;              // what sequence 0 evaluated last (the prompt's last token at step 0)
    int64_t positions = 0;           // cached in sequence 0 after the step
    int64_t computed = 0;            // K/V rows sequence 0's forward pass computed
    int64_t reused = 0;              // rows it read from the cache instead
    int64_t bytesInUse = 0, blocksUsed = 0, blocksShared = 0;  // the whole pool after the step
    double forwardMs = 0.0;          // sequence 0's forward pass
    double allSequencesMs = 0.0;     // every sequence's forward pass of this step
    AttentionWeights attention;      // empty unless recorded at this step (attentionEvery)
};

struct KvRunResult {
    std::vector<TokenId> prompt;
    std::vector<SeqId> sequences;                   // in the pool, sequence 0 first
    std::vector<std::vector<TokenId>> generated;    // per sequence (the token sampled last is not cached)
    std::vector<KvRunStep> steps;
    std::vector<std::vector<float>> logProbs;       // sequence 0's log-softmax per step, (steps + 1, nVocab); only with keepLogProbs
    std::shared_ptr<KvBlockPool> pool;
    int64_t contextLength = 0;
    bool cancelled = false;
};

// Throws dlab::Error for bad options or a prompt that does not fit; a raised cancel flag ends the
// run early with what it has (cancelled = true). onStep sees each step as it completes and may
// move its attention weights out (the result then keeps the step without them).
// keepLogProbs keeps sequence 0's distributions (4 * nVocab bytes a step) for the compression lesson.
KvRunResult runKvExplorer(const Model& model, Backend& backend, const std::vector<TokenId>& prompt, const KvRunOptions& options,
                          const std::function<void(KvRunStep&)>& onStep = {}, bool keepLogProbs = false);

// log-softmax of logits into out (same length).
void logSoftmax(std::span<const float> logits, std::vector<float>& out);
// KL(p || q) in nats for two log-distributions over the same vocabulary.
double klDivergence(const std::vector<float>& logP, const std::vector<float>& logQ);

}  // namespace dlab
