#include "sampling/dry_breakers.h"

#include <algorithm>

namespace dlab {

std::vector<std::string> defaultDryBreakers() { return {"\n", ":", "\"", "*"}; }

std::vector<std::vector<TokenId>> dryBreakersFromStrings(const std::vector<std::string>& breakers, int vocabSize,
                                                         const std::function<std::string(TokenId)>& piece,
                                                         const std::function<std::vector<TokenId>(const std::string&)>& encode) {
    std::vector<std::vector<TokenId>> out;
    auto add = [&](std::vector<TokenId> seq) {
        if (std::find(out.begin(), out.end(), seq) == out.end()) out.push_back(std::move(seq));
    };
    for (std::string str : breakers) {
        if (str.empty()) continue;
        if (str.size() > 40) str.resize(40);
        for (TokenId id = 0; id < vocabSize; ++id) {
            const std::string word = piece(id);
            if (word.find(str) != std::string::npos) {
                add({id});
                continue;
            }
            if (!encode) continue;
            // The word ends with str[0..i): the rest of the string must follow as further tokens.
            for (size_t pos = word.find(str[0]); pos != std::string::npos; pos = word.find(str[0], pos + 1)) {
                const size_t i = word.size() - pos;
                if (i >= str.size() || word.compare(pos, i, str, 0, i) != 0) continue;
                std::vector<TokenId> seq{id};
                auto tail = encode(str.substr(i));
                if (tail.size() > 20) tail.resize(20);
                seq.insert(seq.end(), tail.begin(), tail.end());
                add(std::move(seq));
            }
        }
    }
    return out;
}

std::vector<std::vector<TokenId>> dryBreakersFromStrings(const std::vector<std::string>& breakers, const Tokenizer& tokenizer) {
    return dryBreakersFromStrings(
        breakers, tokenizer.vocabSize(), [&](TokenId id) { return tokenizer.tokenToPiece(id, true); },
        [&](const std::string& s) { return tokenizer.encode(s, false, false); });
}

}  // namespace dlab
