#include "serve/load_trace.h"

#include <random>
#include <string>

#include "core/error.h"
#include "serve/sample_text.h"

namespace dlab {

void LoadSpec::validate() const {
    auto range = [](const char* what, int v, int lo, int hi) {
        if (v < lo || v > hi)
            throw Error(std::string(what) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) + " (got " +
                        std::to_string(v) + ")");
    };
    range("the number of requests", requests, 1, 10000);
    if (!(ratePerSecond > 0.0) || ratePerSecond > 1e6)
        throw Error("the arrival rate must be above 0 and at most 1e6 requests per second (got " + std::to_string(ratePerSecond) + ")");
    range("the shortest prompt", promptMin, 1, 8192);
    range("the longest prompt", promptMax, promptMin, 8192);
    range("the shortest output", outputMin, 1, 8192);
    range("the longest output", outputMax, outputMin, 8192);
    range("the shared system prompt", systemPromptTokens, 0, 8192);
}

namespace {

std::vector<TokenId> sampleText(const Model& model) {
    std::vector<TokenId> text = model.tokenizer().encode(std::string(servingSampleText()), false, false);
    if (text.empty()) throw Error("the model's tokenizer turned the sample text into no tokens");
    return text;
}

// n tokens of the text from `offset` on, the text repeating as needed.
std::vector<TokenId> cut(const std::vector<TokenId>& text, int64_t offset, int64_t n) {
    std::vector<TokenId> out;
    out.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) out.push_back(text[static_cast<size_t>((offset + i) % static_cast<int64_t>(text.size()))]);
    return out;
}

}  // namespace

std::vector<TokenId> sampleTextTokens(const Model& model, int64_t offset, int64_t n) { return cut(sampleText(model), offset, n); }

std::vector<TracedRequest> makeLoadTrace(const Model& model, const LoadSpec& spec) {
    spec.validate();
    std::mt19937_64 rng(spec.seed);
    std::exponential_distribution<double> gap(spec.ratePerSecond / 1000.0);  // per ms
    std::uniform_int_distribution<int> promptLen(spec.promptMin, spec.promptMax), outputLen(spec.outputMin, spec.outputMax);
    std::uniform_int_distribution<int64_t> offset(0, 1 << 20);
    const std::vector<TokenId> text = sampleText(model);  // tokenized once per trace
    const std::vector<TokenId> system = cut(text, 0, spec.systemPromptTokens);
    std::vector<TracedRequest> trace;
    double t = 0.0;
    for (int i = 0; i < spec.requests; ++i) {
        TracedRequest r;
        if (i > 0) t += gap(rng);
        r.arrivalMs = t;
        r.prompt = system;
        const std::vector<TokenId> user = cut(text, offset(rng), promptLen(rng));
        r.prompt.insert(r.prompt.end(), user.begin(), user.end());
        r.outputTokens = outputLen(rng);
        trace.push_back(std::move(r));
    }
    return trace;
}

}  // namespace dlab
