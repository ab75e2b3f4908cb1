#include "grammar/constraint.h"

#include "core/error.h"
#include "core/stopwatch.h"
#include "grammar/byte_grammar.h"
#include "grammar/gbnf_parser.h"
#include "grammar/json_schema_grammar.h"

namespace dlab {

std::string constraintKindName(ConstraintSpec::Kind k) {
    switch (k) {
        case ConstraintSpec::Kind::Gbnf: return "gbnf";
        case ConstraintSpec::Kind::JsonSchema: return "json-schema";
        case ConstraintSpec::Kind::AnyJson: return "json";
        case ConstraintSpec::Kind::JsonObject: return "json-object";
    }
    return "gbnf";
}

ConstraintSpec::Kind constraintKindFromName(const std::string& name) {
    if (name == "gbnf" || name == "grammar") return ConstraintSpec::Kind::Gbnf;
    if (name == "json-schema" || name == "schema") return ConstraintSpec::Kind::JsonSchema;
    if (name == "json") return ConstraintSpec::Kind::AnyJson;
    if (name == "json-object") return ConstraintSpec::Kind::JsonObject;
    throw Error("unknown constraint kind '" + name + "' (gbnf, json-schema, json, json-object)");
}

CharGrammar checkGrammar(const ConstraintSpec& spec, std::string* gbnfOut) {
    std::string gbnf;
    switch (spec.kind) {
        case ConstraintSpec::Kind::Gbnf: gbnf = spec.text; break;
        case ConstraintSpec::Kind::JsonSchema: gbnf = jsonSchemaToGbnf(spec.text, spec.source); break;
        case ConstraintSpec::Kind::AnyJson: gbnf = anyJsonGbnf(false); break;
        case ConstraintSpec::Kind::JsonObject: gbnf = anyJsonGbnf(true); break;
    }
    // A schema's grammar is ours: its positions would mean nothing to the user, so name it as such.
    const std::string source = spec.kind == ConstraintSpec::Kind::Gbnf ? spec.source : spec.source + " (as GBNF)";
    CharGrammar g = parseGbnf(gbnf, source.empty() ? "grammar" : source);
    checkNoLeftRecursion(g, source.empty() ? "grammar" : source);
    if (gbnfOut) *gbnfOut = std::move(gbnf);
    return g;
}

std::shared_ptr<const Constraint> Constraint::compile(const ConstraintSpec& spec, std::shared_ptr<const TokenBytesTable> vocab) {
    if (!vocab) throw Error("a constraint needs the model's vocabulary; load a model first");
    const auto t0 = std::chrono::steady_clock::now();
    auto c = std::shared_ptr<Constraint>(new Constraint());
    c->spec_ = spec;
    c->grammar_ = checkGrammar(spec, &c->gbnf_);
    c->automaton_ = std::make_unique<GrammarAutomaton>(compileByteGrammar(c->grammar_, spec.source), std::move(vocab));
    c->compileMs_ = msSince(t0);
    return c;
}

std::string Constraint::describe() const {
    switch (spec_.kind) {
        case ConstraintSpec::Kind::Gbnf: return "GBNF grammar " + spec_.source;
        case ConstraintSpec::Kind::JsonSchema: return "JSON Schema " + spec_.source;
        case ConstraintSpec::Kind::AnyJson: return "any JSON value";
        case ConstraintSpec::Kind::JsonObject: return "any JSON object";
    }
    return spec_.source;
}

}  // namespace dlab
