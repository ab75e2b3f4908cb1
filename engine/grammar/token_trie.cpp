#include "grammar/token_trie.h"

#include <algorithm>
#include <mutex>
#include <numeric>
#include <string_view>

#include "core/error.h"

namespace dlab {

TokenTrie::TokenTrie(const TokenBytesTable& vocab) {
    std::vector<TokenId> ids;
    for (TokenId id = 0; id < vocab.size(); ++id)
        if (vocab.role(id) == TokenRole::Text && !vocab.bytes(id).empty()) ids.push_back(id);
    std::stable_sort(ids.begin(), ids.end(), [&](TokenId a, TokenId b) { return vocab.bytes(a) < vocab.bytes(b); });

    std::vector<int32_t> path;  // node index per depth of the current prefix
    std::string_view prev;
    auto close = [&](size_t keep) {
        while (path.size() > keep) {
            nodes_[static_cast<size_t>(path.back())].skip = static_cast<int32_t>(nodes_.size());
            path.pop_back();
        }
    };
    for (TokenId id : ids) {
        const std::string& s = vocab.bytes(id);
        if (s.size() > 65535) throw Error("token " + std::to_string(id) + " is longer than 65535 bytes");
        size_t common = 0;
        while (common < prev.size() && common < s.size() && prev[common] == s[common] && common < path.size()) ++common;
        close(common);
        for (size_t d = common; d < s.size(); ++d) {
            path.push_back(static_cast<int32_t>(nodes_.size()));
            const int32_t at = static_cast<int32_t>(tokens_.size());
            nodes_.push_back({static_cast<uint8_t>(s[d]), static_cast<uint16_t>(d + 1), 0, at, at});
        }
        Node& end = nodes_[static_cast<size_t>(path.back())];
        if (end.tokEnd != static_cast<int32_t>(tokens_.size())) {
            // A later node was made after this one's tokens: only possible for equal strings, which sort together.
            throw Error("internal: token trie out of order");
        }
        tokens_.push_back(id);
        ++end.tokEnd;
        maxDepth_ = std::max(maxDepth_, static_cast<int>(s.size()));
        prev = s;
    }
    close(0);
}

std::shared_ptr<const TokenTrie> TokenTrie::of(const std::shared_ptr<const TokenBytesTable>& vocab) {
    static std::mutex mutex;
    static std::vector<std::pair<std::weak_ptr<const TokenBytesTable>, std::shared_ptr<const TokenTrie>>> built;
    std::lock_guard lock(mutex);
    std::erase_if(built, [](const auto& e) { return e.first.expired(); });
    for (const auto& [table, trie] : built)
        if (table.lock() == vocab) return trie;
    auto trie = std::make_shared<const TokenTrie>(*vocab);
    built.emplace_back(vocab, trie);
    return trie;
}

}  // namespace dlab
