#pragma once
// The vocabulary's text tokens as a byte trie laid out in depth-first (preorder) order, so one
// forward scan visits every token and a dead prefix skips its whole subtree in one jump: the
// grammar's mask is one pass over this array (the trie of llama.cpp's successors and XGrammar).
#include <cstdint>
#include <memory>
#include <vector>

#include "tokenizer/token_bytes.h"

namespace dlab {

class TokenTrie {
public:
    struct Node {
        uint8_t byte;      // the byte on the edge into this node
        uint16_t depth;    // 1 for the first byte of a token
        int32_t skip;      // index of the first node after this subtree
        int32_t tokBegin;  // tokens_[tokBegin, tokEnd) end exactly here (several ids may share bytes)
        int32_t tokEnd;
    };

    explicit TokenTrie(const TokenBytesTable& vocab);
    // The trie of a vocabulary, built once and shared by every grammar compiled for it (building
    // sorts every token: ~10 ms for 49k tokens, ~40 ms for 128k).
    static std::shared_ptr<const TokenTrie> of(const std::shared_ptr<const TokenBytesTable>& vocab);

    const std::vector<Node>& nodes() const { return nodes_; }
    const std::vector<TokenId>& tokens() const { return tokens_; }
    int maxDepth() const { return maxDepth_; }

private:
    std::vector<Node> nodes_;     // (n_nodes) preorder
    std::vector<TokenId> tokens_; // (n_text_tokens) grouped by node
    int maxDepth_ = 0;
};

}  // namespace dlab
