#include "openai_response.h"

namespace dlab::server {

namespace {

using json = nlohmann::json;

json usageJson(const Usage& u) {
    return {{"prompt_tokens", u.promptTokens}, {"completion_tokens", u.completionTokens}, {"total_tokens", u.promptTokens + u.completionTokens}};
}

json bytesOf(const std::string& s) {
    json b = json::array();
    for (unsigned char c : s) b.push_back(static_cast<int>(c));
    return b;
}

// Legacy completions: parallel arrays.
json completionLogprobs(const std::vector<TokenOut>& tokens, size_t textOffset0) {
    json toks = json::array(), lps = json::array(), tops = json::array(), offsets = json::array();
    size_t offset = textOffset0;
    for (const TokenOut& t : tokens) {
        toks.push_back(t.piece);
        lps.push_back(t.logprob);
        json top = json::object();
        for (const auto& [piece, lp] : t.top)
            if (!top.contains(piece)) top[piece] = lp;  // pieces of different tokens can coincide; keep the most probable
        tops.push_back(top);
        offsets.push_back(offset);
        offset += t.piece.size();
    }
    return {{"tokens", toks}, {"token_logprobs", lps}, {"top_logprobs", tops}, {"text_offset", offsets}};
}

json chatLogprobs(const std::vector<TokenOut>& tokens) {
    json content = json::array();
    for (const TokenOut& t : tokens) {
        json top = json::array();
        for (const auto& [piece, lp] : t.top) top.push_back({{"token", piece}, {"logprob", lp}, {"bytes", bytesOf(piece)}});
        content.push_back({{"token", t.piece}, {"logprob", t.logprob}, {"bytes", bytesOf(t.piece)}, {"top_logprobs", top}});
    }
    return {{"content", content}, {"refusal", nullptr}};
}

json reason(const char* r) { return r ? json(r) : json(nullptr); }

}  // namespace

json completionBody(const ResponseHead& head, const std::string& text, const std::vector<TokenOut>& tokens, bool logprobs,
                    const char* finishReason, const Usage& usage) {
    json choice = {{"index", 0}, {"text", text}, {"logprobs", logprobs ? completionLogprobs(tokens, 0) : json(nullptr)},
                   {"finish_reason", reason(finishReason)}};
    return {{"id", head.id}, {"object", "text_completion"}, {"created", head.created}, {"model", head.model},
            {"choices", json::array({choice})}, {"usage", usageJson(usage)}};
}

json chatBody(const ResponseHead& head, const std::string& text, const std::vector<TokenOut>& tokens, bool logprobs,
              const char* finishReason, const Usage& usage) {
    json choice = {{"index", 0}, {"message", {{"role", "assistant"}, {"content", text}, {"refusal", nullptr}}},
                   {"logprobs", logprobs ? chatLogprobs(tokens) : json(nullptr)}, {"finish_reason", reason(finishReason)}};
    return {{"id", head.id}, {"object", "chat.completion"}, {"created", head.created}, {"model", head.model},
            {"choices", json::array({choice})}, {"usage", usageJson(usage)}};
}

json completionChunk(const ResponseHead& head, const std::string& text, const std::vector<TokenOut>& tokens, bool logprobs,
                     const char* finishReason) {
    json choice = {{"index", 0}, {"text", text}, {"logprobs", logprobs && !tokens.empty() ? completionLogprobs(tokens, 0) : json(nullptr)},
                   {"finish_reason", reason(finishReason)}};
    return {{"id", head.id}, {"object", "text_completion"}, {"created", head.created}, {"model", head.model},
            {"choices", json::array({choice})}};
}

json chatChunk(const ResponseHead& head, const std::string& text, const std::vector<TokenOut>& tokens, bool logprobs,
               const char* finishReason, bool first) {
    json delta = json::object();
    if (first) delta["role"] = "assistant";
    if (!finishReason || !text.empty()) delta["content"] = text;
    json choice = {{"index", 0}, {"delta", delta}, {"logprobs", logprobs && !tokens.empty() ? chatLogprobs(tokens) : json(nullptr)},
                   {"finish_reason", reason(finishReason)}};
    return {{"id", head.id}, {"object", "chat.completion.chunk"}, {"created", head.created}, {"model", head.model},
            {"choices", json::array({choice})}};
}

json usageChunk(const ResponseHead& head, Endpoint endpoint, const Usage& usage) {
    return {{"id", head.id}, {"object", endpoint == Endpoint::ChatCompletions ? "chat.completion.chunk" : "text_completion"},
            {"created", head.created}, {"model", head.model}, {"choices", json::array()}, {"usage", usageJson(usage)}};
}

json errorBody(const std::string& message, const std::string& type, const std::string& param, const std::string& code) {
    return {{"error", {{"message", message}, {"type", type}, {"param", param.empty() ? json(nullptr) : json(param)},
                       {"code", code.empty() ? json(nullptr) : json(code)}}}};
}

std::string wire(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace dlab::server
