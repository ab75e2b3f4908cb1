#pragma once
// A comparison (compare.h) as JSON, for the CLI (`compare --json`, `compare --trace FILE`) and
// the GUI alike; schema in docs/trace-format.md ("Compare trace").
#include <string>

#include "core/json_writer.h"
#include "generate/compare.h"
#include "generate/step_trace.h"

namespace dlab {

// JSON Lines: a header record ("type": "compare": the prompt, the prefill, the KV peak), then one
// "type": "run" record per run with every step and its alternatives; a beam run embeds its whole
// search as "beam" (beamResultJson's object). Every line ends with '\n'. With tokenText, tokens
// also carry "text".
std::string compareResultJsonl(const CompareResult& result, const TokenText& tokenText = {});

// The summary fields (promptTokens, prefillMs, stopped, runs with their steps' token / logProb /
// p / end and, for beam runs, the hypotheses; kvPeak) into the object `w` has open.
void writeCompareSummary(JsonWriter& w, const CompareResult& result, const TokenText& tokenText = {});

}  // namespace dlab
