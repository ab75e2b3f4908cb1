#include "tokenizer/special_split.h"

namespace dlab {
namespace {

bool isCSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

}  // namespace

std::vector<Fragment> splitSpecialTokens(const Vocab& vocab, std::string_view text, bool parseSpecial) {
    std::vector<Fragment> fragments;
    if (text.empty()) return fragments;
    fragments.push_back({-1, text});

    std::vector<Fragment> next;
    for (const TokenId id : vocab.specialTokens) {
        const uint32_t attr = vocab.attr(id);
        if (!parseSpecial && (attr & (kAttrControl | kAttrUnknown))) continue;
        const std::string& special = vocab.text(id);

        next.clear();
        bool changed = false;
        for (const Fragment& f : fragments) {
            if (f.token >= 0) {
                next.push_back(f);
                continue;
            }
            std::string_view rest = f.text;
            while (!rest.empty()) {
                const size_t at = rest.find(special);
                if (at == std::string_view::npos) {
                    next.push_back({-1, rest});
                    break;
                }
                changed = true;
                std::string_view left = rest.substr(0, at);
                if (attr & kAttrLStrip)
                    while (!left.empty() && isCSpace(left.back())) left.remove_suffix(1);
                if (!left.empty()) next.push_back({-1, left});
                next.push_back({id, {}});
                rest = rest.substr(at + special.size());
                if (attr & kAttrRStrip)
                    while (!rest.empty() && isCSpace(rest.front())) rest.remove_prefix(1);
            }
        }
        if (changed) fragments.swap(next);
    }
    return fragments;
}

}  // namespace dlab
