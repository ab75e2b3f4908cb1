#include "grammar/grammar_automaton.h"

#include <algorithm>
#include <cstring>

#include "core/error.h"

namespace dlab {
namespace {

constexpr size_t kDenseStates = 16384;        // states with a 1 KB transition row; later ones use a hash map
constexpr size_t kMaxStates = 4u << 20;
constexpr size_t kMaxNodes = 8u << 20;
constexpr size_t kMaxStacksPerState = 20000;
constexpr size_t kMaskBudgetBytes = 64u << 20;

uint64_t pack(int32_t pos, int32_t parent) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(pos)) << 32) | static_cast<uint32_t>(parent);
}

}  // namespace

size_t GrammarAutomaton::VecHash::operator()(const std::vector<int32_t>& v) const {
    uint64_t h = 1469598103934665603ull ^ v.size();
    for (int32_t x : v) h = (h ^ static_cast<uint32_t>(x)) * 1099511628211ull;
    return static_cast<size_t>(h ^ (h >> 29));
}

GrammarAutomaton::GrammarAutomaton(ByteGrammar grammar, std::shared_ptr<const TokenBytesTable> vocab)
    : grammar_(std::move(grammar)), vocab_(std::move(vocab)), trieRef_(TokenTrie::of(vocab_)), trie_(*trieRef_), words_((static_cast<size_t>(vocab_->size()) + 63) / 64) {
    if (grammar_.root < 0) throw Error("the grammar has no root rule");
    intern({}, false);  // kDead
    std::vector<int32_t> stacks;
    bool acc = false;
    seen_.clear();
    for (int32_t alt : grammar_.alternatives[static_cast<size_t>(grammar_.root)]) closure(alt, -1, stacks, acc);
    initial_ = intern(std::move(stacks), acc);
    finished_ = intern({}, true);
    walk_.resize(static_cast<size_t>(trie_.maxDepth()) + 1);
}

int32_t GrammarAutomaton::node(int32_t pos, int32_t parent) {
    const uint64_t key = pack(pos, parent);
    if (nodes_.size() >= kMaxNodes) {  // checked before inserting, so the table never names a missing node
        const int32_t id = nodeIds_.find(key);
        if (id >= 0) return id;
        throw Error("the grammar needs more than 8 million parse stack frames here: it nests too deep or is too "
                    "ambiguous for the text so far");
    }
    const auto [id, added] = nodeIds_.emplace(key, static_cast<int32_t>(nodes_.size()));
    if (added) nodes_.push_back({pos, parent});
    return id;
}

void GrammarAutomaton::closure(int32_t pos, int32_t parent, std::vector<int32_t>& out, bool& accepting) {
    // Explicit work list: a deep stack of frames that all end here pops without recursion.
    work_.clear();
    work_.push_back({pos, parent});
    const auto& el = grammar_.elements;
    while (!work_.empty()) {
        auto [p, par] = work_.back();
        work_.pop_back();
        if (!seen_.emplace(pack(p, par), 0).second) continue;
        const ByteElement& e = el[static_cast<size_t>(p)];
        switch (e.kind) {
            case ByteElement::Kind::Bytes:
                // The one check of the parses per state, made as they are expanded: checked when
                // the state is interned, a long run of optional parts (root ::= (("ab"?){999}){999})
                // made a million frames first. Every state's stacks come from one pass here, and
                // `out` has no duplicates: each item is expanded once per pass (seen_).
                if (e.lo <= e.hi) out.push_back(node(p, par));
                if (out.size() > kMaxStacksPerState)
                    throw Error("the grammar allows more than 20000 parses of the text so far at once; it is too "
                                "ambiguous (look for alternatives that match the same text)");
                break;
            case ByteElement::Kind::End:
                if (par < 0) accepting = true;
                else work_.push_back({nodes_[static_cast<size_t>(par)].pos, nodes_[static_cast<size_t>(par)].parent});
                break;
            case ByteElement::Kind::Rule: {
                // A reference that ends its alternative returns straight to the frame below (a tail
                // call), so repetition (r ::= x r | ) does not grow the stack.
                const int32_t cont = el[static_cast<size_t>(p) + 1].kind == ByteElement::Kind::End ? par : node(p + 1, par);
                const auto& alts = grammar_.alternatives[static_cast<size_t>(e.rule)];
                for (auto it = alts.rbegin(); it != alts.rend(); ++it) work_.push_back({*it, cont});
                break;
            }
        }
    }
}

GrammarAutomaton::StateId GrammarAutomaton::intern(std::vector<int32_t> stacks, bool accepting) {
    std::sort(stacks.begin(), stacks.end());
    stacks.erase(std::unique(stacks.begin(), stacks.end()), stacks.end());
    auto& bucket = stateIds_[stacks];
    for (StateId id : bucket)
        if (states_[static_cast<size_t>(id)].accepting == accepting) return id;
    if (states_.size() >= kMaxStates)
        throw Error("the grammar reached 4 million distinct parse states; the text nests too deep for this matcher");
    const StateId id = static_cast<StateId>(states_.size());
    stackEntries_ += stacks.size();
    states_.push_back({std::move(stacks), accepting});
    if (states_.size() <= kDenseStates) next_.resize(states_.size() * 256, -1);
    bucket.push_back(id);
    return id;
}

GrammarAutomaton::StateId GrammarAutomaton::computeStep(StateId s, uint8_t byte) {
    std::vector<int32_t> out;
    bool acc = false;
    seen_.clear();
    // Copy: closure may add states' nodes, never states, but keep the loop independent of both.
    const std::vector<int32_t> stacks = states_[static_cast<size_t>(s)].stacks;
    for (int32_t n : stacks) {
        const StackNode sn = nodes_[static_cast<size_t>(n)];
        const ByteElement& e = grammar_.elements[static_cast<size_t>(sn.pos)];
        if (byte >= e.lo && byte <= e.hi) closure(sn.pos + 1, sn.parent, out, acc);
    }
    const StateId t = out.empty() && !acc ? kDead : intern(std::move(out), acc);
    if (static_cast<size_t>(s) < kDenseStates) next_[static_cast<size_t>(s) * 256 + byte] = t;
    else sparseNext_[(static_cast<uint64_t>(s) << 8) | byte] = t;
    return t;
}

inline GrammarAutomaton::StateId GrammarAutomaton::step(StateId s, uint8_t byte) {
    if (static_cast<size_t>(s) < kDenseStates) {
        const int32_t t = next_[static_cast<size_t>(s) * 256 + byte];
        return t >= 0 ? t : computeStep(s, byte);
    }
    const auto it = sparseNext_.find((static_cast<uint64_t>(s) << 8) | byte);
    return it != sparseNext_.end() ? it->second : computeStep(s, byte);
}

GrammarAutomaton::StateId GrammarAutomaton::advanceBytes(StateId s, std::string_view bytes) {
    std::lock_guard lock(mutex_);
    for (char c : bytes) {
        if (s == kDead) return kDead;
        s = step(s, static_cast<uint8_t>(c));
    }
    return s;
}

GrammarAutomaton::StateId GrammarAutomaton::advance(StateId s, TokenId token) {
    if (token < 0 || token >= vocab_->size()) return kDead;
    switch (vocab_->role(token)) {
        case TokenRole::EndOfGeneration: return accepting(s) ? finished_ : kDead;
        case TokenRole::Special: return kDead;
        case TokenRole::Text: break;
    }
    return advanceBytes(s, vocab_->bytes(token));
}

bool GrammarAutomaton::accepting(StateId s) {
    std::lock_guard lock(mutex_);
    return states_[static_cast<size_t>(s)].accepting;
}

bool GrammarAutomaton::canContinue(StateId s) {
    std::lock_guard lock(mutex_);
    return !states_[static_cast<size_t>(s)].stacks.empty();
}

void GrammarAutomaton::computeMask(StateId s, uint64_t* words) {
    std::memset(words, 0, words_ * sizeof(uint64_t));
    const State& st = states_[static_cast<size_t>(s)];
    if (st.accepting)
        for (TokenId id : vocab_->endOfGeneration()) words[id >> 6] |= 1ull << (id & 63);
    if (st.stacks.empty()) return;
    const auto& nodes = trie_.nodes();
    const auto& toks = trie_.tokens();
    StateId* walk = walk_.data();
    walk[0] = s;
    const size_t n = nodes.size();
    for (size_t i = 0; i < n;) {
        const TokenTrie::Node& nd = nodes[i];
        const StateId t = step(walk[nd.depth - 1], nd.byte);
        if (t == kDead) {
            i = static_cast<size_t>(nd.skip);
            continue;
        }
        walk[nd.depth] = t;
        for (int32_t k = nd.tokBegin; k < nd.tokEnd; ++k) {
            const TokenId id = toks[static_cast<size_t>(k)];
            words[id >> 6] |= 1ull << (id & 63);
        }
        ++i;
    }
}

void GrammarAutomaton::mask(StateId s, std::vector<uint64_t>& words) {
    std::lock_guard lock(mutex_);
    words.resize(words_);
    auto it = maskAt_.find(s);
    if (it != maskAt_.end()) {
        ++maskHits_;
        std::memcpy(words.data(), maskStore_.data() + it->second, words_ * sizeof(uint64_t));
        return;
    }
    ++maskMisses_;
    computeMask(s, words.data());
    const size_t capacity = std::max<size_t>(1, kMaskBudgetBytes / (words_ * sizeof(uint64_t)));
    size_t at;
    if (maskOrder_.size() < capacity) {
        at = maskStore_.size();
        maskStore_.resize(at + words_);
    } else {  // evict the oldest (first in, first out: states of a generation recur soon or not at all)
        const StateId old = maskOrder_.front();
        maskOrder_.erase(maskOrder_.begin());
        at = maskAt_.at(old);
        maskAt_.erase(old);
    }
    std::memcpy(maskStore_.data() + at, words.data(), words_ * sizeof(uint64_t));
    maskAt_.emplace(s, at);
    maskOrder_.push_back(s);
}

GrammarAutomaton::Stats GrammarAutomaton::stats() {
    std::lock_guard lock(mutex_);
    return {nodes_.size(), states_.size(), stackEntries_, maskAt_.size(), maskHits_, maskMisses_};
}

}  // namespace dlab
