#pragma once
// A finished beam search as one JSON object (the tree for the GUI's beam view or a --trace file;
// schema in docs/trace-format.md).
#include <string>

#include "generate/beam_search.h"
#include "generate/step_trace.h"

namespace dlab {

// One line, no trailing newline. With tokenText, every node and hypothesis also carries "text".
// Non-finite numbers (a -inf log-probability) are written as null.
std::string beamResultJson(const BeamResult& result, const BeamOptions& options, const TokenText& tokenText = {});

}  // namespace dlab
