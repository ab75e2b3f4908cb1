#pragma once
// What a client asks the serving scheduler for, and what comes back: one event per generated
// token (with the text it adds and, on request, its log-probabilities) and one when it finishes,
// carrying the request's timings. Plain values: the scheduler, the server and the serving lab
// share them.
#include <cstdint>
#include <string>
#include <vector>

#include "sampling/sampler_params.h"
#include "tokenizer/tokenizer.h"

namespace dlab {

using RequestId = int64_t;

struct ServeRequest {
    std::vector<TokenId> prompt;        // at least one token
    int maxTokens = 16;                 // >= 1
    SamplerParams sampler;              // temperature 0 = greedy
    std::vector<std::string> stop;      // stop strings: generation ends before the first one (up to 4)
    int topLogprobs = 0;                // 0..20 alternatives per token (with their log-probabilities)
    bool logprobs = false;              // the chosen token's log-probability under the model
    bool stopAtEndOfGeneration = true;
};

enum class FinishReason { Stop, Length, Cancelled, Error };
// OpenAI's words: "stop", "length"; ours for the other two: "cancelled", "error".
const char* finishReasonName(FinishReason r);

struct TokenLogprob {
    TokenId token = -1;
    float logprob = 0.0f;   // ln p under the model's distribution (the logits before any sampler stage)
};

// Everything measured about one request, on the scheduler's clock (ms since it started).
struct RequestTimings {
    double arrivalMs = 0.0;      // submit()
    double admittedMs = -1.0;    // got a batch slot and its KV blocks (-1: never)
    double firstTokenMs = -1.0;  // first generated token sampled
    double finishedMs = -1.0;
    std::vector<double> tokenMs; // every generated token, in order
    int promptTokens = 0;
    int cachedPromptTokens = 0;  // served from the prefix cache, not computed
    int generatedTokens = 0;
    double ttftMs() const { return firstTokenMs < 0 ? -1.0 : firstTokenMs - arrivalMs; }
    double e2eMs() const { return finishedMs < 0 ? -1.0 : finishedMs - arrivalMs; }
};

struct ServeEvent {
    enum class Kind { Token, Finished } kind = Kind::Token;
    RequestId request = 0;
    // Token:
    TokenId token = -1;
    std::string text;                 // text this token makes visible (may be empty: a split UTF-8
                                      // character, or text held back while it might start a stop string)
    TokenLogprob chosen;              // with logprobs or topLogprobs
    std::vector<TokenLogprob> top;    // topLogprobs alternatives, most probable first
    // Finished:
    FinishReason reason = FinishReason::Stop;
    std::string error;                // for FinishReason::Error: one sentence saying what was wrong
    std::string tail;                 // text released at the end (held back while a stop string could start)
    RequestTimings timings;
};

}  // namespace dlab
