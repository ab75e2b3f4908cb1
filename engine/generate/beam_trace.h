#pragma once
// A finished beam search as one JSON object (the tree for the GUI's beam view or a --trace file;
// schema in docs/trace-format.md).
#include <string>

#include "core/json_writer.h"
#include "generate/beam_search.h"
#include "generate/step_trace.h"

namespace dlab {

// One line, no trailing newline. With tokenText, every node, recorded next token and hypothesis
// also carries "text". Non-finite numbers (a -inf log-probability) are written as null.
std::string beamResultJson(const BeamResult& result, const BeamOptions& options, const TokenText& tokenText = {});

// The same object written into `w` as one value (inside an array, or after w.key(...)), for
// records that embed a beam result (compare_trace.h).
void writeBeamResult(JsonWriter& w, const BeamResult& result, const BeamOptions& options, const TokenText& tokenText = {});

}  // namespace dlab
