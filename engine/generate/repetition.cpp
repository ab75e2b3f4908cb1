#include "generate/repetition.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace dlab {

RepetitionSpan findRepetition(std::span<const TokenId> tokens, const RepetitionOptions& options) {
    if (options.minRepeats < 2)
        throw Error("the repetition detector needs minRepeats >= 2 (got " + std::to_string(options.minRepeats) + ")");
    if (options.maxPeriod < 1)
        throw Error("the repetition detector needs maxPeriod >= 1 (got " + std::to_string(options.maxPeriod) + ")");
    if (options.minSpanTokens < 0)
        throw Error("the repetition detector needs minSpanTokens >= 0 (got " + std::to_string(options.minSpanTokens) + ")");

    const int64_t n = static_cast<int64_t>(tokens.size());
    const int64_t maxPeriod = std::min<int64_t>(options.maxPeriod, n / 2);  // two whole blocks at least
    for (int64_t p = 1; p <= maxPeriod; ++p) {
        // Walk back while each token equals the one p earlier: `matched` such tokens follow the
        // first block, so the periodic suffix is p + matched long.
        int64_t matched = 0;
        for (int64_t i = n - 1; i - p >= 0 && tokens[i] == tokens[i - p]; --i) ++matched;
        const int64_t length = p + matched;
        const int64_t repeats = length / p;
        const bool loop = repeats >= options.minRepeats ||
                          (repeats >= 2 && options.minSpanTokens > 0 && length >= options.minSpanTokens);
        if (!loop) continue;
        RepetitionSpan s;
        s.found = true;
        s.start = n - length;
        s.length = length;
        s.period = static_cast<int>(p);
        s.repeats = static_cast<int>(repeats);
        s.partial = static_cast<int>(length % p);
        return s;
    }
    return {};
}

}  // namespace dlab
