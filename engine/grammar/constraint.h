#pragma once
// What the sampler chain's "grammar" stage enforces: a GBNF grammar, a JSON Schema or "any JSON",
// compiled for one vocabulary. Built once (the schema becomes GBNF, the GBNF a byte grammar, the
// vocabulary a token trie) and shared immutably by every sequence that uses it; the automaton
// inside caches transitions and masks for all of them.
#include <memory>
#include <string>

#include "grammar/char_grammar.h"
#include "grammar/grammar_automaton.h"
#include "tokenizer/token_bytes.h"

namespace dlab {

struct ConstraintSpec {
    enum class Kind { Gbnf, JsonSchema, AnyJson, JsonObject };
    Kind kind = Kind::Gbnf;
    std::string text;    // the GBNF or the schema (empty for AnyJson / JsonObject)
    std::string source;  // a name for messages: the file name, "response_format", ...
    bool operator==(const ConstraintSpec&) const = default;
};

// "gbnf", "json-schema", "json", "json-object"; and back (throws for an unknown name).
std::string constraintKindName(ConstraintSpec::Kind k);
ConstraintSpec::Kind constraintKindFromName(const std::string& name);

class Constraint {
public:
    // Throws dlab::Error with the source, line and column (GBNF) or JSON Pointer (schema).
    static std::shared_ptr<const Constraint> compile(const ConstraintSpec& spec, std::shared_ptr<const TokenBytesTable> vocab);

    const ConstraintSpec& spec() const { return spec_; }
    const std::string& gbnf() const { return gbnf_; }            // the grammar as written or generated
    const CharGrammar& grammar() const { return grammar_; }      // parsed, helper rules included
    GrammarAutomaton& automaton() const { return *automaton_; }  // thread-safe caches
    double compileMs() const { return compileMs_; }              // parse + compile + trie
    std::string describe() const;                                // "JSON Schema person.json", "GBNF json.gbnf"

private:
    ConstraintSpec spec_;
    std::string gbnf_;
    CharGrammar grammar_;
    std::unique_ptr<GrammarAutomaton> automaton_;
    double compileMs_ = 0.0;
};

// Parses and checks a grammar without a vocabulary (`grammar check`): the rules as GBNF text.
CharGrammar checkGrammar(const ConstraintSpec& spec, std::string* gbnfOut = nullptr);

}  // namespace dlab
