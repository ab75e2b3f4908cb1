#pragma once
// OpenAI's response shapes, built from what the scheduler produced: the whole answer (text,
// per-token log-probabilities, finish reason, usage) or one streamed chunk, for the legacy
// completions and the chat completions endpoints, and the error object.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "openai_request.h"
#include "serve/serve_request.h"

namespace dlab::server {

struct TokenOut {
    std::string piece;                                  // the token's own text (may be part of a UTF-8 character)
    float logprob = 0.0f;
    std::vector<std::pair<std::string, float>> top;     // alternatives, most probable first
};

struct ResponseHead {
    std::string id;        // "cmpl-..." / "chatcmpl-..."
    int64_t created = 0;   // Unix seconds
    std::string model;
};

struct Usage {
    int promptTokens = 0, completionTokens = 0;
};

// Whole answers.
nlohmann::json completionBody(const ResponseHead& head, const std::string& text, const std::vector<TokenOut>& tokens,
                              bool logprobs, const char* finishReason, const Usage& usage);
nlohmann::json chatBody(const ResponseHead& head, const std::string& text, const std::vector<TokenOut>& tokens, bool logprobs,
                        const char* finishReason, const Usage& usage);

// Streamed chunks. finishReason nullptr while streaming; `first` (chat) adds the role to the delta.
nlohmann::json completionChunk(const ResponseHead& head, const std::string& text, const std::vector<TokenOut>& tokens,
                               bool logprobs, const char* finishReason);
nlohmann::json chatChunk(const ResponseHead& head, const std::string& text, const std::vector<TokenOut>& tokens, bool logprobs,
                         const char* finishReason, bool first);
// The last chunk with stream_options.include_usage: no choices, the usage.
nlohmann::json usageChunk(const ResponseHead& head, Endpoint endpoint, const Usage& usage);

nlohmann::json errorBody(const std::string& message, const std::string& type, const std::string& param, const std::string& code);
inline nlohmann::json errorBody(const ApiError& e) { return errorBody(e.what(), e.type, e.param, e.code); }

// JSON text for the wire: invalid UTF-8 (a token holding half a character) becomes U+FFFD.
std::string wire(const nlohmann::json& j);

}  // namespace dlab::server
