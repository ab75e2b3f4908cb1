// libFuzzer target: GBNF grammars and JSON Schemas (engine/grammar/). The first byte chooses
// GBNF or JSON Schema, the rest is the text. For every input:
//   - checking and compiling may only fail with a dlab::Error carrying a sentence, never crash,
//     hang or overflow the stack;
//   - a grammar that compiles runs on a small vocabulary of byte strings (whole and partial UTF-8
//     characters, JSON punctuation): at each of up to 48 steps (fewer for very ambiguous grammars),
//     every token the mask allows advances to a live state and every token it forbids advances to
//     the dead state, and end of generation is allowed exactly where the state accepts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "grammar/constraint.h"
#include "tokenizer/tokenizer.h"

using namespace dlab;

namespace {

[[noreturn]] void failure(const std::string& what) {
    std::fprintf(stderr, "fuzz_grammar: %s\n", what.c_str());
    std::abort();
}

class PieceTokenizer : public Tokenizer {
public:
    PieceTokenizer() {
        for (int b = 0x20; b < 0x7F; ++b) pieces_.push_back(std::string(1, static_cast<char>(b)));
        for (const char* p : {"\n", "\t", "{\"", "\":", "\",", "\"}", " [", "],", "true", "null", "-1", "0.5", "e+",
                              "\xC3", "\xA9", "\xC3\xA9", "\xE6\x97\xA5", "\xE6\x97", "\x97\xA5", "\xF0\x9F\x98\x80",
                              "\xFF", "\xC0\x80", "\xED\xA0\x80", "ab", "abc", "root", "::=", "\\u00", "\\n"})
            pieces_.push_back(p);
        pieces_.push_back("<eos>");
    }
    std::vector<TokenId> encode(std::string_view, bool, bool) const override { return {}; }
    std::string tokenToPiece(TokenId id, bool) const override { return id == eos() ? "" : pieces_[static_cast<size_t>(id)]; }
    int vocabSize() const override { return static_cast<int>(pieces_.size()); }
    const std::string& tokenString(TokenId id) const override { return pieces_[static_cast<size_t>(id)]; }
    TokenId bos() const override { return -1; }
    TokenId eos() const override { return static_cast<TokenId>(pieces_.size()) - 1; }
    bool isEndOfGeneration(TokenId id) const override { return id == eos(); }
    bool addsBosByDefault() const override { return false; }
    std::string modelName() const override { return "fuzz"; }
    std::string preName() const override { return "default"; }
    TokenType tokenType(TokenId id) const override { return id == eos() ? TokenType::Control : TokenType::Normal; }

private:
    std::vector<std::string> pieces_;
};

const std::shared_ptr<const TokenBytesTable>& table() {
    static PieceTokenizer tok;
    static auto t = std::make_shared<const TokenBytesTable>(tok);
    return t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const bool schema = data[0] & 1;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::shared_ptr<const Constraint> c;
    try {
        c = Constraint::compile({schema ? ConstraintSpec::Kind::JsonSchema : ConstraintSpec::Kind::Gbnf, text, "fuzz"}, table());
    } catch (const Error& e) {
        if (std::string(e.what()).empty()) failure("an error without a message");
        return 0;
    }
    GrammarAutomaton& a = c->automaton();
    const int n = a.vocabSize();
    const TokenId eos = n - 1;
    std::vector<uint64_t> mask;
    uint32_t pick = static_cast<uint32_t>(size) * 2654435761u;
    try {
        auto s = a.initial();
        for (int step = 0; step < 48; ++step) {
            a.mask(s, mask);
            std::vector<TokenId> allowed;
            for (TokenId id = 0; id < n; ++id) {
                const bool ok = maskAllows(mask, id);
                const auto t = a.advance(s, id);
                if (ok != (t != GrammarAutomaton::kDead)) failure("the mask and advance() disagree on token " + std::to_string(id));
                if (ok && id != eos) allowed.push_back(id);
            }
            if (maskAllows(mask, eos) != a.accepting(s))
                failure("end of generation allowed where the grammar does not accept (or the reverse)");
            if (allowed.empty()) break;
            // The walk also stops where the states hold 30k parse stacks in all (grammars that are
            // not pathological hold a few hundred): a very ambiguous grammar such as
            // root ::= [a-z] root* ("a"?){663} grows each state by hundreds of parses per step,
            // test_grammar checks that the matcher refuses it with a sentence at 20000, and walking
            // there under the sanitizers takes longer than the fuzzer's 10 s per input.
            if (a.stats().stackEntries > 30000) break;
            pick = pick * 1103515245u + 12345u;
            s = a.advance(s, allowed[(pick >> 8) % allowed.size()]);
        }
    } catch (const Error& e) {  // the matcher's limits (too ambiguous, too deep) are sentences too
        if (std::string(e.what()).empty()) failure("an error without a message");
    }
    return 0;
}
