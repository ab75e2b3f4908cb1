#include "logits_file.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace dlab::cli {

namespace {

using json = nlohmann::json;

const char* const kShape = "(expected {\"logits\": [numbers], \"tokens\": [strings], \"history\": [ids], \"prompt_length\": N})";

// Python's json.dump writes NaN, Infinity and -Infinity as bare words, which JSON does not have.
// Outside strings they become the strings "NaN", "Infinity", "-Infinity" here, which number()
// takes back; everything else is parsed by nlohmann-json as it stands.
std::string quoteNonFinite(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < text.size()) out += text[++i];
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            out += c;
            continue;
        }
        bool replaced = false;
        for (const char* word : {"-Infinity", "Infinity", "NaN"}) {
            const size_t n = std::char_traits<char>::length(word);
            if (text.compare(i, n, word) == 0) {
                out += '"';
                out += word;
                out += '"';
                i += n - 1;
                replaced = true;
                break;
            }
        }
        if (!replaced) out += c;
    }
    return out;
}

double number(const json& v, const std::string& file, const std::string& where) {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (s == "NaN") return std::nan("");
        if (s == "Infinity") return std::numeric_limits<double>::infinity();
        if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
    }
    throw Error(file + ": " + where + " must be a number, not " + v.dump() + " " + kShape);
}

const json& arrayAt(const json& obj, const char* key, const std::string& file) {
    const json& v = obj.at(key);
    if (!v.is_array()) throw Error(file + ": \"" + key + "\" must be an array " + kShape);
    return v;
}

}  // namespace

LogitsFile parseLogitsJson(const std::string& text, const std::string& fileName) {
    json doc;
    try {
        doc = json::parse(quoteNonFinite(text));
    } catch (const json::parse_error& e) {
        // nlohmann's byte is in the rewritten text; it still points at the same place to a reader.
        throw Error(fileName + ": not valid JSON, expected a number or a value at byte " + std::to_string(e.byte) + " " + kShape);
    } catch (const json::exception& e) {  // out_of_range: a number beyond a double (1e999)
        throw Error(fileName + ": " + e.what() + " " + kShape);
    }
    LogitsFile f;
    const json* logits = nullptr;
    if (doc.is_array()) {
        logits = &doc;
    } else if (doc.is_object()) {
        if (doc.contains("logits")) logits = &arrayAt(doc, "logits", fileName);
        if (doc.contains("tokens"))
            for (const json& t : arrayAt(doc, "tokens", fileName)) {
                if (!t.is_string()) throw Error(fileName + ": \"tokens\" holds token texts (strings), not " + t.dump());
                f.tokens.push_back(t.get<std::string>());
            }
        if (doc.contains("history"))
            for (const json& t : arrayAt(doc, "history", fileName)) {
                const double v = number(t, fileName, "\"history\"");
                if (!(v >= 0 && v == std::floor(v) && v < 2147483647.0))
                    throw Error(fileName + ": \"history\" holds token ids (whole numbers, 0 or more), not " + t.dump());
                f.history.push_back(static_cast<TokenId>(v));
            }
        if (doc.contains("prompt_length")) {
            const double v = number(doc["prompt_length"], fileName, "\"prompt_length\"");
            if (!(v >= 0 && v == std::floor(v))) throw Error(fileName + ": \"prompt_length\" must be a whole number, 0 or more");
            f.promptLength = static_cast<size_t>(v);
        }
    } else {
        throw Error(fileName + ": the file must hold an array of logits or an object " + kShape);
    }
    if (logits)
        for (size_t i = 0; i < logits->size(); ++i)
            f.logits.push_back(static_cast<float>(number((*logits)[i], fileName, "logit " + std::to_string(i))));
    if (f.logits.empty()) throw Error(fileName + ": no logits found; give {\"logits\": [numbers...]} with at least one number");
    if (!f.tokens.empty() && f.tokens.size() != f.logits.size())
        throw Error(fileName + ": \"tokens\" has " + std::to_string(f.tokens.size()) + " entries but \"logits\" has " +
                    std::to_string(f.logits.size()) + "; give one token text per logit");
    for (TokenId id : f.history)
        if (static_cast<size_t>(id) >= f.logits.size())
            throw Error(fileName + ": \"history\" has the token id " + std::to_string(id) + ", outside the vocabulary (0.." +
                        std::to_string(f.logits.size() - 1) + ")");
    if (f.promptLength > f.history.size())
        throw Error(fileName + ": \"prompt_length\" is " + std::to_string(f.promptLength) + " but \"history\" has only " +
                    std::to_string(f.history.size()) + " tokens");
    return f;
}

}  // namespace dlab::cli
