#pragma once
// The autoregressive loop: prefill the prompt, then sample one token at a time until the budget,
// an end-of-generation token, the end of the context, or a cancel request.
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "generate/step_trace.h"
#include "model/backend.h"
#include "sampling/sampler.h"

namespace dlab {

struct GenerateOptions {
    int maxTokens = 128;          // >= 1
    SamplerParams sampler;
    bool stopAtEndOfGeneration = true;
    // Called once per generated token with the step's full trace (per-stage snapshots of
    // traceTopN candidates each); leave empty to skip the snapshot work.
    std::function<void(const StepTrace&)> onTrace;
    int traceTopN = 64;
    // With onTrace: every step's trace also carries the attention weights of the token that
    // produced its logits and the pool's blocks (StepTrace::attention). Off by default: it costs a
    // copy of nLayer * nHead * positions floats per step and makes each trace line large.
    bool traceAttention = false;
};

enum class StopReason { MaxTokens, EndOfGeneration, ContextFull, Cancelled, Callback };
const char* stopReasonName(StopReason r);

struct GenerateResult {
    std::vector<TokenId> tokens;  // generated tokens (the end-of-generation token excluded)
    std::string text;             // their text
    StopReason stop = StopReason::MaxTokens;
    int promptTokens = 0;
    double prefillMs = 0.0;       // prompt evaluation
    double decodeMs = 0.0;        // all later forward passes and sampling
};

// Receives each new token with the complete UTF-8 text it adds (possibly empty while a character
// is split across tokens). Return false to stop.
using TokenCallback = std::function<bool(TokenId, const std::string&)>;

// Generates after `prompt` (already tokenized) into an empty or partly filled cache.
// Throws dlab::Error for an empty prompt, one that does not fit the context, or bad options.
GenerateResult generate(const Model& model, Backend& backend, KvCache& cache, const std::vector<TokenId>& prompt,
                        const GenerateOptions& options, const TokenCallback& onToken = {},
                        const std::atomic<bool>* cancel = nullptr);

}  // namespace dlab
