#include "openai_request.h"

#include "core/error.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace dlab::server {

namespace {

using json = nlohmann::json;

ApiError bad(const std::string& param, const std::string& message) { return ApiError(400, message, param); }

std::string typeName(const json& v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return "a boolean";
    if (v.is_number()) return "a number";
    if (v.is_string()) return "a string";
    if (v.is_array()) return "an array";
    return "an object";
}

double number(const json& body, const std::string& key, double lo, double hi, double fallback) {
    const auto it = body.find(key);
    if (it == body.end() || it->is_null()) return fallback;
    if (!it->is_number()) throw bad(key, "'" + key + "' must be a number, not " + typeName(*it));
    const double v = it->get<double>();
    if (!std::isfinite(v) || v < lo || v > hi) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "'%s' must be between %g and %g (got %g)", key.c_str(), lo, hi, v);
        throw bad(key, buf);
    }
    return v;
}

std::optional<int64_t> integer(const json& body, const std::string& key, int64_t lo, int64_t hi) {
    const auto it = body.find(key);
    if (it == body.end() || it->is_null()) return std::nullopt;
    if (!it->is_number_integer() && !(it->is_number_float() && std::floor(it->get<double>()) == it->get<double>()))
        throw bad(key, "'" + key + "' must be a whole number, not " + typeName(*it));
    const double d = it->get<double>();
    if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
        throw bad(key, "'" + key + "' must be between " + std::to_string(lo) + " and " + std::to_string(hi) + " (got " + it->dump() + ")");
    return it->is_number_unsigned() ? static_cast<int64_t>(it->get<uint64_t>()) : it->get<int64_t>();
}

bool boolean(const json& body, const std::string& key, bool fallback) {
    const auto it = body.find(key);
    if (it == body.end() || it->is_null()) return fallback;
    if (!it->is_boolean()) throw bad(key, "'" + key + "' must be true or false, not " + typeName(*it));
    return it->get<bool>();
}

void unsupported(const json& body, const std::string& key, const std::string& why) {
    if (body.contains(key) && !body[key].is_null()) throw bad(key, "'" + key + "' is not supported by this server: " + why);
}

std::string contentText(const json& content, size_t index) {
    const std::string param = "messages[" + std::to_string(index) + "].content";
    if (content.is_string()) return content.get<std::string>();
    if (content.is_null()) return {};
    if (!content.is_array()) throw bad(param, "'" + param + "' must be a string or an array of text parts, not " + typeName(content));
    std::string text;
    for (const json& part : content) {
        if (!part.is_object() || part.value("type", json()) != "text" || !part.contains("text") || !part["text"].is_string())
            throw bad(param, "'" + param + "' may only hold parts of type \"text\" with a string \"text\" (this model reads text only)");
        text += part["text"].get<std::string>();
    }
    return text;
}

}  // namespace

ApiRequest parseApiRequest(Endpoint endpoint, const std::string& body) {
    json j;
    try {
        j = json::parse(body);
    } catch (const json::exception& e) {  // parse_error, or out_of_range for a number like 1e999
        throw ApiError(400, std::string("the request body is not valid JSON: ") + e.what());
    }
    if (!j.is_object()) throw ApiError(400, "the request body must be a JSON object, not " + typeName(j));
    ApiRequest r;
    r.endpoint = endpoint;
    const auto model = j.find("model");
    if (model == j.end() || model->is_null()) throw bad("model", "'model' is required (GET /v1/models lists the one this server runs)");
    if (!model->is_string()) throw bad("model", "'model' must be a string, not " + typeName(*model));
    r.model = model->get<std::string>();

    if (endpoint == Endpoint::Completions) {
        const auto p = j.find("prompt");
        if (p == j.end() || p->is_null()) throw bad("prompt", "'prompt' is required");
        if (p->is_string()) {
            r.promptText = p->get<std::string>();
        } else if (p->is_array() && !p->empty() && (*p)[0].is_number()) {
            for (const json& t : *p) {
                if (!t.is_number_integer() || t.get<int64_t>() < 0 || t.get<int64_t>() > std::numeric_limits<int32_t>::max())
                    throw bad("prompt", "'prompt' as token ids must hold whole numbers from 0 up, not " + t.dump());
                r.promptTokens.push_back(static_cast<TokenId>(t.get<int64_t>()));
            }
        } else if (p->is_array() && p->size() == 1 && (*p)[0].is_string()) {
            r.promptText = (*p)[0].get<std::string>();
        } else if (p->is_array() && p->size() > 1) {
            throw bad("prompt", "'prompt' holds several prompts; this server takes one per request (send them as separate requests)");
        } else {
            throw bad("prompt", "'prompt' must be a string or an array of token ids, not " + (p->is_array() ? std::string("an empty array") : typeName(*p)));
        }
        unsupported(j, "suffix", "it has no fill-in-the-middle mode");
        if (boolean(j, "echo", false)) throw bad("echo", "'echo' is not supported by this server: it returns only the completion");
        if (const auto best = integer(j, "best_of", 0, 1 << 20); best && *best != 1)
            throw bad("best_of", "'best_of' must be 1 on this server (got " + std::to_string(*best) + ")");
        if (const auto lp = integer(j, "logprobs", 0, 20)) {
            r.logprobs = true;
            r.topLogprobs = static_cast<int>(*lp);
        }
    } else {
        const auto m = j.find("messages");
        if (m == j.end() || m->is_null()) throw bad("messages", "'messages' is required");
        if (!m->is_array() || m->empty()) throw bad("messages", "'messages' must be a non-empty array of {role, content}");
        for (size_t i = 0; i < m->size(); ++i) {
            const json& msg = (*m)[i];
            const std::string param = "messages[" + std::to_string(i) + "]";
            if (!msg.is_object()) throw bad(param, "'" + param + "' must be an object with 'role' and 'content'");
            const auto role = msg.find("role");
            if (role == msg.end() || !role->is_string()) throw bad(param + ".role", "'" + param + ".role' must be a string");
            std::string name = role->get<std::string>();
            if (name == "developer") name = "system";
            if (name != "system" && name != "user" && name != "assistant")
                throw bad(param + ".role", "'" + param + ".role' must be system, developer, user or assistant (got '" + name + "')");
            const auto content = msg.find("content");
            if (content == msg.end()) throw bad(param + ".content", "'" + param + ".content' is required");
            r.messages.push_back({name, contentText(*content, i)});
        }
        r.logprobs = boolean(j, "logprobs", false);
        if (const auto top = integer(j, "top_logprobs", 0, 20)) {
            if (!r.logprobs && *top > 0) throw bad("top_logprobs", "'top_logprobs' needs 'logprobs': true");
            r.topLogprobs = static_cast<int>(*top);
        }
        if (j.contains("max_completion_tokens") && !j["max_completion_tokens"].is_null())
            r.maxTokens = static_cast<int>(*integer(j, "max_completion_tokens", 1, 1 << 20));
        unsupported(j, "tools", "this model is served without tool calling");
        unsupported(j, "functions", "this model is served without function calling");
    }
    if (const auto rf = j.find("response_format"); rf != j.end() && !rf->is_null()) {
        if (!rf->is_object() || !rf->contains("type") || !(*rf)["type"].is_string())
            throw bad("response_format", "'response_format' must be an object with a 'type': text, json_object or json_schema");
        const std::string type = (*rf)["type"].get<std::string>();
        if (type == "json_object") {
            r.constraint = ConstraintSpec{ConstraintSpec::Kind::JsonObject, "", "response_format"};
        } else if (type == "json_schema") {
            const auto js = rf->find("json_schema");
            if (js == rf->end() || !js->is_object() || !js->contains("schema"))
                throw bad("response_format", "'response_format' of type json_schema needs 'json_schema': {\"name\": ..., \"schema\": {...}}");
            const json& schema = (*js)["schema"];
            std::string name = "response_format.json_schema";
            if (js->contains("name") && (*js)["name"].is_string()) name += " '" + (*js)["name"].get<std::string>() + "'";
            // Keep the properties in the order the client wrote them (they become the output's order).
            std::string text = schema.dump();
            try {
                text = nlohmann::ordered_json::parse(body)["response_format"]["json_schema"]["schema"].dump();
            } catch (const nlohmann::json::exception&) {
            }
            r.constraint = ConstraintSpec{ConstraintSpec::Kind::JsonSchema, text, name};
        } else if (type != "text") {
            throw bad("response_format", "'response_format' type must be text, json_object or json_schema (got '" + type + "')");
        }
    }
    if (const auto g = j.find("grammar"); g != j.end() && !g->is_null()) {  // llama.cpp's server extension
        if (!g->is_string()) throw bad("grammar", "'grammar' must be a GBNF grammar as a string");
        if (r.constraint) throw bad("grammar", "give either 'grammar' or a JSON 'response_format', not both");
        r.constraint = ConstraintSpec{ConstraintSpec::Kind::Gbnf, g->get<std::string>(), "grammar"};
    }
    if (r.constraint) {
        try {
            checkGrammar(*r.constraint);
        } catch (const Error& e) {
            throw bad(r.constraint->kind == ConstraintSpec::Kind::Gbnf ? "grammar" : "response_format", e.what());
        }
    }

    if (const auto mt = integer(j, "max_tokens", 1, 1 << 20)) r.maxTokens = static_cast<int>(*mt);
    if (const auto n = integer(j, "n", 0, 1 << 20); n && *n != 1)
        throw bad("n", "'n' must be 1 on this server (got " + std::to_string(*n) + "); send several requests for several answers");
    r.temperature = static_cast<float>(number(j, "temperature", 0.0, 2.0, 1.0));
    r.topP = static_cast<float>(number(j, "top_p", 0.0, 1.0, 1.0));
    if (r.topP <= 0.0f) throw bad("top_p", "'top_p' must be above 0 (got 0); use temperature 0 for greedy decoding");
    r.topK = static_cast<int>(integer(j, "top_k", 0, 1000000).value_or(0));
    r.minP = static_cast<float>(number(j, "min_p", 0.0, 1.0, 0.0));
    r.presencePenalty = static_cast<float>(number(j, "presence_penalty", -2.0, 2.0, 0.0));
    r.frequencyPenalty = static_cast<float>(number(j, "frequency_penalty", -2.0, 2.0, 0.0));
    if (const auto seed = j.find("seed"); seed != j.end() && !seed->is_null()) {
        if (!seed->is_number_integer()) throw bad("seed", "'seed' must be a whole number, not " + typeName(*seed));
        r.seed = seed->is_number_unsigned() ? seed->get<uint64_t>() : static_cast<uint64_t>(seed->get<int64_t>());
    }
    if (const auto stop = j.find("stop"); stop != j.end() && !stop->is_null()) {
        if (stop->is_string()) {
            r.stop.push_back(stop->get<std::string>());
        } else if (stop->is_array()) {
            for (const json& s : *stop) {
                if (!s.is_string()) throw bad("stop", "'stop' must be a string or an array of strings, not an array holding " + typeName(s));
                r.stop.push_back(s.get<std::string>());
            }
        } else {
            throw bad("stop", "'stop' must be a string or an array of strings, not " + typeName(*stop));
        }
        if (r.stop.size() > 4) throw bad("stop", "'stop' may hold at most 4 strings (got " + std::to_string(r.stop.size()) + ")");
        for (const std::string& s : r.stop)
            if (s.empty()) throw bad("stop", "'stop' holds an empty string; remove it");
    }
    if (const auto bias = j.find("logit_bias"); bias != j.end() && !bias->is_null()) {
        if (!bias->is_object()) throw bad("logit_bias", "'logit_bias' must be an object from token ids to biases");
        for (const auto& [key, value] : bias->items()) {
            size_t used = 0;
            long long id = -1;
            try {
                id = std::stoll(key, &used);
            } catch (...) {
                used = 0;
            }
            if (used != key.size() || id < 0 || id > std::numeric_limits<int32_t>::max())
                throw bad("logit_bias", "'logit_bias' keys must be token ids, not '" + key + "'");
            if (!value.is_number() || value.get<double>() < -100 || value.get<double>() > 100)
                throw bad("logit_bias", "'logit_bias' values must be numbers between -100 and 100 (token " + key + ")");
            r.logitBias.emplace_back(static_cast<TokenId>(id), value.get<float>());
        }
    }
    r.stream = boolean(j, "stream", false);
    if (const auto so = j.find("stream_options"); so != j.end() && !so->is_null()) {
        if (!so->is_object()) throw bad("stream_options", "'stream_options' must be an object");
        if (!r.stream) throw bad("stream_options", "'stream_options' is only allowed with 'stream': true");
        r.includeUsage = boolean(*so, "include_usage", false);
    }
    return r;
}

}  // namespace dlab::server
