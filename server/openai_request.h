#pragma once
// The body of an OpenAI-style request (/v1/completions, /v1/chat/completions) read into a plain
// struct, every field checked. Anything wrong or unsupported throws ApiError with the HTTP status,
// the field (OpenAI's "param") and one sentence naming what is wrong, so the server answers with
// OpenAI's error shape. Pure: no model, no I/O (the fuzzer drives it with arbitrary bytes).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "grammar/constraint.h"
#include "tokenizer/chat_template.h"
#include "tokenizer/tokenizer.h"

namespace dlab::server {

class ApiError : public std::runtime_error {
public:
    ApiError(int status, std::string message, std::string param = {}, std::string type = "invalid_request_error",
             std::string code = {})
        : std::runtime_error(message), status(status), param(std::move(param)), type(std::move(type)), code(std::move(code)) {}
    int status;
    std::string param, type, code;
};

enum class Endpoint { Completions, ChatCompletions };

struct ApiRequest {
    Endpoint endpoint = Endpoint::Completions;
    std::string model;
    // completions: the prompt as text, or as token ids
    std::optional<std::string> promptText;
    std::vector<TokenId> promptTokens;
    // chat
    std::vector<ChatMessage> messages;

    std::optional<int> maxTokens;      // absent: the endpoint's default (completions 16, chat: the rest of the context, at most 512)
    float temperature = 1.0f;          // [0, 2]
    float topP = 1.0f;                 // (0, 1]
    int topK = 0;                      // not OpenAI's; llama.cpp's servers take it (0 = off)
    float minP = 0.0f;                 // likewise
    float presencePenalty = 0.0f;      // [-2, 2]
    float frequencyPenalty = 0.0f;     // [-2, 2]
    std::optional<uint64_t> seed;
    std::vector<std::string> stop;     // up to 4
    std::vector<std::pair<TokenId, float>> logitBias;  // [-100, 100]
    bool stream = false;
    bool includeUsage = false;         // stream_options.include_usage
    bool logprobs = false;             // chat: logprobs; completions: logprobs >= 0 given
    int topLogprobs = 0;               // chat: top_logprobs; completions: the logprobs number; [0, 20]
    // response_format {"type": "json_object"} or {"type": "json_schema", "json_schema": {"schema": ...}},
    // or llama.cpp's "grammar": "GBNF text"; checked here (no vocabulary needed), compiled by the server.
    std::optional<ConstraintSpec> constraint;
};

// Parses and checks `body` for `endpoint`. Throws ApiError (status 400) for malformed JSON, a
// missing or mistyped field, a value out of range, or a feature this server does not offer (n > 1,
// echo, suffix, best_of, tools), or a response_format / grammar that does not compile (naming the
// line and column or the schema's JSON Pointer).
ApiRequest parseApiRequest(Endpoint endpoint, const std::string& body);

}  // namespace dlab::server
