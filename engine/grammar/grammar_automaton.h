#pragma once
// The grammar's matcher, built for one vocabulary. A parse state is the set of parse stacks the
// text so far allows (llama.cpp's "stacks"); stacks are persistent linked lists whose nodes are
// shared and interned, so equal stacks are one node and a whole state is one small integer.
// Transitions over bytes are computed on first use and kept (a lazily built DFA over parse
// states), and each state's token mask is computed once by one pass over the token trie and kept.
// So a sequence's grammar state is one StateId, forking it (beams, re-sampling) is free, and a
// mask for a state seen before costs a copy.
//
// Thread-safe: one automaton may be shared by every sequence, thread and request using the grammar.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "grammar/byte_grammar.h"
#include "grammar/token_trie.h"
#include "grammar/u64_table.h"
#include "tokenizer/token_bytes.h"

namespace dlab {

// Whether a mask from GrammarAutomaton::mask allows `id` (ids past its end are not allowed).
inline bool maskAllows(const std::vector<uint64_t>& words, TokenId id) {
    return id >= 0 && static_cast<size_t>(id >> 6) < words.size() && ((words[static_cast<size_t>(id) >> 6] >> (id & 63)) & 1u);
}

class GrammarAutomaton {
public:
    using StateId = int32_t;
    static constexpr StateId kDead = 0;  // no continuation is valid

    GrammarAutomaton(ByteGrammar grammar, std::shared_ptr<const TokenBytesTable> vocab);

    StateId initial() const { return initial_; }
    // The state after the token's bytes; kDead if the token is not allowed. An end-of-generation
    // token is allowed only where the grammar accepts and leads to the finished state.
    StateId advance(StateId s, TokenId token);
    StateId advanceBytes(StateId s, std::string_view bytes);
    // Whether the text so far is a complete sentence of the grammar (end-of-generation allowed).
    bool accepting(StateId s);
    // Whether any byte may still follow.
    bool canContinue(StateId s);

    // One bit per vocabulary id (bit i of word i/64): the tokens allowed in state s.
    void mask(StateId s, std::vector<uint64_t>& words);
    int vocabSize() const { return vocab_->size(); }
    const TokenBytesTable& vocab() const { return *vocab_; }

    struct Stats {
        // stackEntries: the stacks of all states together (what the states hold).
        size_t stackNodes = 0, states = 0, stackEntries = 0, masksCached = 0, maskHits = 0, maskMisses = 0;
    };
    Stats stats();

private:
    struct StackNode {
        int32_t pos;     // index into grammar_.elements: what this frame reads next
        int32_t parent;  // the frame to return to, -1 at the bottom
    };
    struct State {
        std::vector<int32_t> stacks;  // sorted node ids whose top element is a byte range
        bool accepting = false;
    };
    struct VecHash {
        size_t operator()(const std::vector<int32_t>& v) const;
    };

    int32_t node(int32_t pos, int32_t parent);
    // Adds the stacks reachable from (pos, parent) without reading a byte.
    void closure(int32_t pos, int32_t parent, std::vector<int32_t>& out, bool& accepting);
    StateId intern(std::vector<int32_t> stacks, bool accepting);
    StateId step(StateId s, uint8_t byte);  // cached transition
    StateId computeStep(StateId s, uint8_t byte);
    void computeMask(StateId s, uint64_t* words);

    ByteGrammar grammar_;
    std::shared_ptr<const TokenBytesTable> vocab_;
    std::shared_ptr<const TokenTrie> trieRef_;  // shared by every grammar of this vocabulary
    const TokenTrie& trie_;
    std::mutex mutex_;

    std::vector<StackNode> nodes_;
    U64Table nodeIds_;  // pack(pos, parent) -> node id
    std::vector<State> states_;
    std::unordered_map<std::vector<int32_t>, std::vector<StateId>, VecHash> stateIds_;
    std::vector<int32_t> next_;  // (min(n_states, 16384), 256) transition, -1 = not computed yet
    std::unordered_map<uint64_t, int32_t> sparseNext_;  // (state << 8 | byte) -> state, for the states after those
    StateId initial_ = kDead;
    StateId finished_ = kDead;  // accepting, nothing more to read (after end-of-generation)

    // Closure scratch.
    std::vector<std::pair<int32_t, int32_t>> work_;
    U64Table seen_;  // pack(pos, parent) of the items already expanded

    // Mask cache: state -> offset into maskStore_ ((n_masks, words_per_mask)).
    size_t words_;
    std::unordered_map<StateId, size_t> maskAt_;
    std::vector<uint64_t> maskStore_;
    std::vector<StateId> maskOrder_;  // insertion order, for eviction
    size_t maskHits_ = 0, maskMisses_ = 0;
    size_t stackEntries_ = 0;  // sum of states_[i].stacks.size()
    std::vector<StateId> walk_;       // (trie depth + 1) state per depth during a mask pass
};

}  // namespace dlab
