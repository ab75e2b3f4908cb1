#pragma once
// Saved sessions on disk (".dlab"): one JSON document (nlohmann-json), its schema in
// docs/trace-format.md, "Session file". Each step is a step trace with stepTraceJson's field names
// (so one description serves both), plus the settings it was drawn with and the raw logits its
// views read; token pieces sit once in a table, as hex (a token may end inside a UTF-8 character).
//
//   {"format": "decoding-lab-session", "version": 1, "page": "playground",
//    "model": {"name", "arch", "vocab", "bos"}, "prompt": "…", "promptTokens": [ids],
//    "sampler": {"spec": "sample:t=0.7,…", "logitBias": [{"id", "bias"}], "dryBreakers": [[ids]]},
//    "branches": [{"id", "parent", "forkStep", "steps": [{…trace…, "sampler", "rawLogits", "forced"}]}],
//    "currentBranch": 0, "tokens": [{"id", "bytes", "rendered", "control", "endOfGeneration"}],
//    "pagePayload": {…}}
//
// The sampler settings are stored as their run-spec text (run_spec.h: canonical, and read back by
// the parser the CLI and the Strategies page use, with its range checks) plus the two settings a
// spec cannot hold, the logit bias and the DRY breakers, as explicit fields.
//
// Reading checks everything and never trusts the file: a wrong format tag, a newer version, a
// missing or mistyped field, a count out of range, a token id outside the recorded vocabulary or
// missing from the token table, a non-finite number, a truncated document — each is one
// dlab::Error sentence naming the file and the field's JSON path:
//   "lesson.dlab: branches[0].steps[3].stages[1].top[0].p must be a number between 0 and 1 (got "x")"
#include <cstdint>
#include <string>
#include <string_view>

#include "session/saved_session.h"

namespace dlab {

inline constexpr int64_t kMaxSessionFileBytes = int64_t(512) << 20;
inline constexpr int64_t kMaxSessionSteps = 100000;   // over all branches

// The document, compact, with a trailing newline. Throws dlab::Error if pagePayload is not a JSON
// object. Does not check the rest: writeSessionFile() does.
std::string sessionJson(const SavedSession& session);

// Parses and checks a document; sourceName starts every error message (the file's path).
SavedSession parseSessionJson(std::string_view text, const std::string& sourceName);

// readSessionFile(path) = parseSessionJson(contents, path), for files up to kMaxSessionFileBytes.
SavedSession readSessionFile(const std::string& path);

// Checks the session as reading would (a file this writes always reads back), writes it to a
// temporary file beside `path`, flushes it to disk and renames it over `path`: a failed save
// leaves no half file and the previous file as it was. Throws dlab::Error naming the path.
void writeSessionFile(const std::string& path, const SavedSession& session);

}  // namespace dlab
