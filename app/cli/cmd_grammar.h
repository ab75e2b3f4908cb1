#pragma once
// Constrained decoding on the command line: the --grammar / --json-schema / --json options that
// generate and compare share, and the `grammar` command (check a grammar, bench its masks).
#include <memory>
#include <optional>

#include "args.h"
#include "grammar/constraint.h"

namespace dlab {
class Tokenizer;
}

namespace dlab::cli {

// Reads --grammar FILE.gbnf, --json-schema FILE.json and --json-mode (at most one; also --json
// where `plainJsonFlag`, for commands whose --json does not already mean JSON output); nullopt for none.
std::optional<ConstraintSpec> readConstraintOption(Args& args, const std::string& command, bool plainJsonFlag = true);
// Compiles it for the tokenizer's vocabulary; errors name the command.
std::shared_ptr<const Constraint> compileConstraint(const ConstraintSpec& spec, const Tokenizer& tok, const std::string& command);

// decoding-lab-cli grammar check FILE [--text T] | grammar bench FILE --text T [--vocab GGUF] ...
int runGrammarCheck(Args& args);
int runGrammarBench(Args& args);

extern const char* const kGrammarOptionsHelp;

}  // namespace dlab::cli
