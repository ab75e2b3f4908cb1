#include "generate/generator.h"

#include <chrono>

#include "core/error.h"

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

namespace {
double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

GenerateResult generate(const Model& model, Backend& backend, KvCache& cache, const std::vector<TokenId>& prompt,
                        const GenerateOptions& options, const TokenCallback& onToken, const std::atomic<bool>* cancel) {
    if (options.maxTokens < 1)
        throw Error("--max-tokens must be at least 1 (got " + std::to_string(options.maxTokens) + ")");
    if (prompt.empty()) throw Error("the prompt is empty; give at least one token of text");
    if (cache.size() + static_cast<int64_t>(prompt.size()) >= cache.capacity())
        throw Error("the prompt has " + std::to_string(prompt.size()) + " tokens but the context holds only " +
                    std::to_string(cache.capacity() - cache.size()) + " more positions (raise --ctx or shorten the prompt)");
    options.sampler.validate();

    Sampler sampler(options.sampler);
    StreamingDetokenizer detok(model.tokenizer());
    GenerateResult r;
    r.promptTokens = static_cast<int>(prompt.size());
    backend.setCancelFlag(cancel);

    auto t0 = std::chrono::steady_clock::now();
    std::span<const float> logits;
    try {
        logits = backend.forward(prompt, cache, false);
    } catch (const Cancelled&) {
        r.stop = StopReason::Cancelled;
        return r;
    }
    r.prefillMs = msSince(t0);

    t0 = std::chrono::steady_clock::now();
    for (;;) {
        if (cancel && cancel->load()) { r.stop = StopReason::Cancelled; break; }
        const TokenId next = sampler.sample(logits);
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
            logits = backend.forward(one, cache, false);
        } catch (const Cancelled&) {
            r.stop = StopReason::Cancelled;
            break;
        }
    }
    const std::string tail = detok.flush();
    r.text += tail;
    if (onToken && !tail.empty() && !r.tokens.empty()) onToken(r.tokens.back(), tail);
    r.decodeMs = msSince(t0);
    backend.setCancelFlag(nullptr);
    return r;
}

}  // namespace dlab
