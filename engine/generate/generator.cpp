#include "generate/generator.h"

#include <chrono>

#include "core/error.h"
#include "core/stopwatch.h"

namespace dlab {

const char* stopReasonName(StopReason r) {
    switch (r) {
        case StopReason::MaxTokens: return "max-tokens";
        case StopReason::EndOfGeneration: return "end-of-generation";
        case StopReason::ContextFull: return "context-full";
        case StopReason::Cancelled: return "cancelled";
        case StopReason::Callback: return "stopped";
    }
    return "?";
}

GenerateResult generate(const Model& model, Backend& backend, KvCache& cache, const std::vector<TokenId>& prompt,
                        const GenerateOptions& options, const TokenCallback& onToken, const std::atomic<bool>* cancel) {
    if (options.maxTokens < 1)
        throw Error("--max-tokens must be at least 1 (got " + std::to_string(options.maxTokens) + ")");
    if (prompt.empty()) throw Error("the prompt is empty; give at least one token of text");
    if (cache.size() + static_cast<int64_t>(prompt.size()) >= cache.capacity())
        throw Error("the prompt has " + std::to_string(prompt.size()) + " tokens and the context has " +
                    std::to_string(cache.capacity() - cache.size()) + " free positions; it needs at least " +
                    std::to_string(prompt.size() + 1) + " (the prompt and one new token): raise the context length or shorten the prompt");
    options.sampler.validate();

    const bool tracing = static_cast<bool>(options.onTrace);
    SamplerChain sampler(options.sampler, tracing ? options.traceTopN : 0);
    SamplerState samplerState(options.sampler.seed);
    std::vector<TokenId> history(prompt);  // prompt + generated, for the penalties
    StreamingDetokenizer detok(model.tokenizer());
    GenerateResult r;
    r.promptTokens = static_cast<int>(prompt.size());
    const ScopedCancelFlag flag(backend, cancel);   // the caller's flag comes back when this returns

    const bool withAttention = tracing && options.traceAttention;
    AttentionWeights attention;  // of the token whose logits are sampled next
    auto t0 = std::chrono::steady_clock::now();
    std::span<const float> logits;
    try {
        if (withAttention) backend.requestAttention(&attention);
        logits = backend.forward(prompt, cache, false);
    } catch (const Cancelled&) {
        r.stop = StopReason::Cancelled;
        return r;
    }
    r.prefillMs = msSince(t0);
    double forwardMs = r.prefillMs;  // of the forward pass that produced `logits`

    t0 = std::chrono::steady_clock::now();
    for (int step = 0;; ++step) {
        if (cancel && cancel->load()) { r.stop = StopReason::Cancelled; break; }
        const auto s0 = std::chrono::steady_clock::now();
        SampleResult sampled = sampler.sample(logits, History{history, prompt.size()}, samplerState, tracing);
        const TokenId next = sampled.token;
        if (tracing) {
            StepTrace t;
            t.step = step;
            t.pos = cache.size();
            t.phase = step == 0 ? Phase::Prefill : Phase::Decode;
            t.evaluated = step == 0 ? static_cast<int>(prompt.size()) : 1;
            t.chosen = next;
            t.text = model.tokenizer().tokenToPiece(next, true);
            t.chosenProbability = sampled.probability;
            t.raw = sampled.raw;
            t.stages = std::move(sampled.stages);
            const KvStats kv = cache.pool().stats();
            t.kv = kvTraceStats(kv, cache.size());
            if (withAttention) t.attention = stepAttention(attention, kv);
            t.forwardMs = forwardMs;
            t.sampleMs = msSince(s0);
            options.onTrace(t);
        }
        history.push_back(next);
        if (options.stopAtEndOfGeneration && model.tokenizer().isEndOfGeneration(next)) {
            r.stop = StopReason::EndOfGeneration;
            break;
        }
        r.tokens.push_back(next);
        const std::string piece = detok.push(next);
        r.text += piece;
        if (onToken && !onToken(next, piece)) { r.stop = StopReason::Callback; break; }
        if (static_cast<int>(r.tokens.size()) >= options.maxTokens) { r.stop = StopReason::MaxTokens; break; }
        if (cache.size() >= cache.capacity()) { r.stop = StopReason::ContextFull; break; }
        try {
            const TokenId one[1] = {next};
            const auto f0 = std::chrono::steady_clock::now();
            if (withAttention) backend.requestAttention(&attention);
            logits = backend.forward(one, cache, false);
            forwardMs = msSince(f0);
        } catch (const Cancelled&) {
            r.stop = StopReason::Cancelled;
            break;
        }
    }
    const std::string tail = detok.flush();
    r.text += tail;
    if (onToken && !tail.empty() && !r.tokens.empty()) onToken(r.tokens.back(), tail);
    r.decodeMs = msSince(t0);
    return r;
}

}  // namespace dlab
