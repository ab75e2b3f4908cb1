#include "grammar/json_schema_grammar.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace dlab {
namespace {

using Json = nlohmann::ordered_json;

// The primitives every JSON grammar shares.
const char* kPrimitives =
    "space ::= | \" \" | \"\\n\" [ \\t]{0,20}\n"
    "boolean ::= (\"true\" | \"false\") space\n"
    "null ::= \"null\" space\n"
    "integral-part ::= [0] | [1-9] [0-9]{0,15}\n"
    "integer ::= \"-\"? integral-part space\n"
    "number ::= \"-\"? integral-part (\".\" [0-9]{1,16})? ([eE] [-+]? [0-9]{1,16})? space\n"
    "char ::= [^\"\\\\\\x7F\\x00-\\x1F] | \"\\\\\" ([\"\\\\/bfnrt] | \"u\" [0-9a-fA-F]{4})\n"
    "string ::= \"\\\"\" char* \"\\\"\" space\n"
    "value ::= object | array | string | number | boolean | null\n"
    "object ::= \"{\" space (string \":\" space value (\",\" space string \":\" space value)*)? \"}\" space\n"
    "array ::= \"[\" space (value (\",\" space value)*)? \"]\" space\n";

// A JSON value as a GBNF literal of its compact serialisation.
std::string literal(const Json& v) {
    const std::string text = v.dump(-1, ' ', false, Json::error_handler_t::strict);
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') { out += "\\n"; continue; }
        out += c;
    }
    return out + "\"";
}

class Converter {
public:
    Converter(const Json& root, const std::string& source) : root_(root), source_(source) {}

    std::string run() {
        const std::string top = rule("root-value", root_, "");
        std::string out = "root ::= " + top + "\n";
        for (const auto& [name, body] : rules_) out += name + " ::= " + body + "\n";
        return out + kPrimitives;
    }

private:
    const Json& root_;
    const std::string& source_;
    std::map<std::string, std::string> rules_;        // name -> body
    std::map<std::string, std::string> refRules_;     // "#/$defs/x" -> rule name
    std::set<std::string> used_;

    [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
        throw Error(source_ + ": at " + (pointer.empty() ? std::string("the top") : pointer) + ": " + what);
    }

    std::string fresh(const std::string& hint) {
        std::string base;
        for (char c : hint) base += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '-';
        if (base.empty()) base = "r";
        std::string name = base;
        for (int i = 2; used_.count(name) || name == "root" || rules_.count(name); ++i) name = base + "-" + std::to_string(i);
        used_.insert(name);
        return name;
    }

    // A rule for `s`; returns the name to reference.
    std::string rule(const std::string& hint, const Json& s, const std::string& ptr) {
        const std::string body = expr(hint, s, ptr);
        // Plain references need no rule of their own.
        if (body.find_first_of(" |()\"[") == std::string::npos) return body;
        const std::string name = fresh(hint);
        rules_[name] = body;
        return name;
    }

    const Json& resolve(const std::string& ref, const std::string& ptr) const {
        if (ref.rfind("#/", 0) != 0) fail(ptr, "$ref '" + ref + "' is not supported; only references into this document (#/$defs/...) are");
        const Json* at = &root_;
        size_t i = 2;
        while (i <= ref.size()) {
            size_t j = ref.find('/', i);
            if (j == std::string::npos) j = ref.size();
            std::string key = ref.substr(i, j - i);
            for (size_t k; (k = key.find("~1")) != std::string::npos;) key.replace(k, 2, "/");
            for (size_t k; (k = key.find("~0")) != std::string::npos;) key.replace(k, 2, "~");
            if (!at->is_object() || !at->contains(key)) fail(ptr, "$ref '" + ref + "' points at nothing in the schema");
            at = &(*at)[key];
            i = j + 1;
        }
        return *at;
    }

    void unsupported(const Json& s, const std::string& ptr, std::initializer_list<const char*> keys) const {
        for (const char* k : keys)
            if (s.contains(k))
                fail(ptr + "/" + k, std::string("'") + k + "' is not supported in JSON Schema constraints; remove it or "
                                    "write a GBNF grammar (--grammar)");
    }

    std::string expr(const std::string& hint, const Json& s, const std::string& ptr) {
        if (s.is_boolean()) {
            if (!s.get<bool>()) fail(ptr, "the schema 'false' allows no value at all");
            return "value";
        }
        if (!s.is_object()) fail(ptr, "a schema must be an object or true/false");
        unsupported(s, ptr, {"pattern", "patternProperties", "multipleOf", "not", "if", "then", "else",
                             "dependentRequired", "dependentSchemas", "propertyNames", "unevaluatedProperties",
                             "unevaluatedItems", "contains", "uniqueItems", "minProperties", "maxProperties"});
        if (s.contains("$ref")) {
            const std::string ref = s["$ref"].is_string() ? s["$ref"].get<std::string>() : "";
            if (ref.empty()) fail(ptr + "/$ref", "$ref must be a string");
            auto it = refRules_.find(ref);
            if (it != refRules_.end()) return it->second;
            const std::string name = fresh("ref-" + ref.substr(ref.rfind('/') + 1));
            refRules_[ref] = name;
            rules_[name] = "";  // reserved while the definition is converted (it may refer to itself)
            rules_[name] = expr(name, resolve(ref, ptr), ref.substr(1));
            return name;
        }
        if (s.contains("const")) return literal(s["const"]) + " space";
        if (s.contains("enum")) {
            const Json& e = s["enum"];
            if (!e.is_array() || e.empty()) fail(ptr + "/enum", "enum must be a non-empty array");
            std::string out = "(";
            for (size_t i = 0; i < e.size(); ++i) out += (i ? " | " : "") + literal(e[i]);
            return out + ") space";
        }
        for (const char* key : {"anyOf", "oneOf"}) {
            if (!s.contains(key)) continue;
            const Json& list = s[key];
            if (!list.is_array() || list.empty()) fail(ptr + "/" + key, std::string(key) + " must be a non-empty array");
            std::string out;
            for (size_t i = 0; i < list.size(); ++i)
                out += (i ? " | " : "") + rule(hint + "-" + std::to_string(i), list[i], ptr + "/" + key + "/" + std::to_string(i));
            return list.size() == 1 ? out : "(" + out + ")";
        }
        if (s.contains("allOf")) {
            const Json& list = s["allOf"];
            if (!list.is_array() || list.size() != 1)
                fail(ptr + "/allOf", "allOf is supported with exactly one schema (merging several is not)");
            return expr(hint, list[0], ptr + "/allOf/0");
        }
        if (!s.contains("type")) {
            if (s.contains("properties")) return objectExpr(hint, s, ptr);
            if (s.contains("items") || s.contains("prefixItems")) return arrayExpr(hint, s, ptr);
            return "value";
        }
        const Json& t = s["type"];
        if (t.is_array()) {
            if (t.empty()) fail(ptr + "/type", "type must not be an empty list");
            std::string out;
            for (size_t i = 0; i < t.size(); ++i) {
                Json one = s;
                one["type"] = t[i];
                out += (i ? " | " : "") + rule(hint + "-" + (t[i].is_string() ? t[i].get<std::string>() : "t"), one, ptr);
            }
            return "(" + out + ")";
        }
        if (!t.is_string()) fail(ptr + "/type", "type must be a string or a list of strings");
        const std::string type = t.get<std::string>();
        if (type == "object") return objectExpr(hint, s, ptr);
        if (type == "array") return arrayExpr(hint, s, ptr);
        if (type == "string") return stringExpr(s, ptr);
        if (type == "integer") return integerExpr(s, ptr);
        if (type == "number") {
            unsupported(s, ptr, {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"});
            return "number";
        }
        if (type == "boolean") return "boolean";
        if (type == "null") return "null";
        fail(ptr + "/type", "unknown type '" + type + "' (object, array, string, integer, number, boolean, null)");
    }

    std::string stringExpr(const Json& s, const std::string& ptr) {
        if (s.contains("format")) {
            const std::string f = s["format"].is_string() ? s["format"].get<std::string>() : "";
            const std::string date = "[0-9]{4} \"-\" ( \"0\" [1-9] | \"1\" [0-2] ) \"-\" ( \"0\" [1-9] | [1-2] [0-9] | \"3\" [0-1] )";
            const std::string time = "([01] [0-9] | \"2\" [0-3]) \":\" [0-5] [0-9] \":\" [0-5] [0-9] (\".\" [0-9]{1,6})? (\"Z\" | [+-] ([01] [0-9] | \"2\" [0-3]) \":\" [0-5] [0-9])";
            const std::string hex = "[0-9a-fA-F]";
            if (f == "date") return "\"\\\"\" " + date + " \"\\\"\" space";
            if (f == "time") return "\"\\\"\" " + time + " \"\\\"\" space";
            if (f == "date-time") return "\"\\\"\" " + date + " \"T\" " + time + " \"\\\"\" space";
            if (f == "uuid")
                return "\"\\\"\" " + hex + "{8} \"-\" " + hex + "{4} \"-\" " + hex + "{4} \"-\" " + hex + "{4} \"-\" " + hex +
                       "{12} \"\\\"\" space";
            fail(ptr + "/format", "format '" + f + "' is not supported (date, time, date-time, uuid)");
        }
        const bool hasMin = s.contains("minLength"), hasMax = s.contains("maxLength");
        if (!hasMin && !hasMax) return "string";
        const long lo = hasMin ? count(s["minLength"], ptr + "/minLength") : 0;
        const long hi = hasMax ? count(s["maxLength"], ptr + "/maxLength") : -1;
        if (hi >= 0 && hi < lo) fail(ptr, "maxLength is below minLength");
        return "\"\\\"\" char{" + std::to_string(lo) + "," + (hi >= 0 ? std::to_string(hi) : "") + "} \"\\\"\" space";
    }

    long count(const Json& v, const std::string& ptr) const {
        if (!v.is_number_integer() || v.get<long>() < 0 || v.get<long>() > 10000)
            fail(ptr, "must be a whole number from 0 to 10000");
        return v.get<long>();
    }

    std::string integerExpr(const Json& s, const std::string& ptr) {
        unsupported(s, ptr, {"exclusiveMinimum", "exclusiveMaximum"});
        const bool hasMin = s.contains("minimum"), hasMax = s.contains("maximum");
        auto bound = [&](const char* k) {
            const Json& v = s[k];
            if (!v.is_number_integer()) fail(ptr + "/" + k, std::string(k) + " of an integer must be a whole number");
            const long long x = v.get<long long>();
            if (x > kMaxInt || x < -kMaxInt) fail(ptr + "/" + k, std::string(k) + " must have at most 16 digits");
            return x;
        };
        if (!hasMin && !hasMax) return "integer";
        const long long lo = hasMin ? bound("minimum") : -kMaxInt, hi = hasMax ? bound("maximum") : kMaxInt;
        if (hi < lo) fail(ptr, "maximum is below minimum");
        std::string out;
        if (lo < 0) out += "\"-\" (" + nonNegative(hi < 0 ? -hi : 1, -lo) + ")";
        if (hi >= 0) out += std::string(out.empty() ? "" : " | ") + nonNegative(lo < 0 ? 0 : lo, hi);
        return "(" + out + ") space";
    }

    static constexpr long long kMaxInt = 9999999999999999LL;  // 16 digits, as integral-part allows

    // Decimal numerals of [lo, hi] without leading zeros (0 <= lo <= hi), as GBNF alternatives.
    static std::string nonNegative(long long lo, long long hi) {
        std::vector<std::string> alts;
        const std::string a = std::to_string(lo), b = std::to_string(hi);
        for (size_t len = a.size(); len <= b.size(); ++len) {
            const long long first = len == 1 ? 0 : pow10(len - 1), last = pow10(len) - 1;
            const long long x = std::max(lo, first), y = std::min(hi, last);
            if (x > y) continue;
            sameLength(std::to_string(x), std::to_string(y), "", alts);
        }
        std::string out;
        for (const auto& alt : alts) out += (out.empty() ? "" : " | ") + alt;
        return out;
    }
    static long long pow10(size_t n) {
        long long p = 1;
        while (n--) p *= 10;
        return p;
    }
    // Numerals from x to y, both of one length, after `prefix`.
    static void sameLength(const std::string& x, const std::string& y, const std::string& prefix, std::vector<std::string>& out) {
        const size_t n = x.size();
        auto digits = [](char lo, char hi) { return lo == hi ? std::string("\"") + lo + "\"" : std::string("[") + lo + "-" + hi + "]"; };
        auto any = [](size_t k) { return k == 0 ? std::string() : k == 1 ? std::string(" [0-9]") : " [0-9]{" + std::to_string(k) + "}"; };
        auto join = [&](const std::string& head) { return prefix.empty() ? head : prefix + " " + head; };
        if (n == 1) {
            out.push_back(join(digits(x[0], y[0])));
            return;
        }
        const std::string xr = x.substr(1), yr = y.substr(1);
        if (x[0] == y[0]) {
            sameLength(xr, yr, join(digits(x[0], x[0])), out);
            return;
        }
        const bool xLow = xr.find_first_not_of('0') == std::string::npos, yHigh = yr.find_first_not_of('9') == std::string::npos;
        if (xLow && yHigh) {
            out.push_back(join(digits(x[0], y[0]) + any(n - 1)));
            return;
        }
        char from = x[0], to = y[0];
        if (!xLow) {
            sameLength(xr, std::string(n - 1, '9'), join(digits(x[0], x[0])), out);
            ++from;
        }
        const bool yFull = yHigh;
        if (!yFull) --to;
        if (from <= to) out.push_back(join(digits(from, to) + any(n - 1)));
        if (!yFull) sameLength(std::string(n - 1, '0'), yr, join(digits(y[0], y[0])), out);
    }

    std::string kv(const std::string& hint, const std::string& key, const Json& schema, const std::string& ptr) {
        return literal(Json(key)) + " space \":\" space " + rule(hint, schema, ptr);
    }

    std::string objectExpr(const std::string& hint, const Json& s, const std::string& ptr) {
        // {"type": "object"} alone allows any object.
        if (!s.contains("properties") && !s.contains("additionalProperties") && !s.contains("required")) return "object";
        const Json props = s.contains("properties") ? s["properties"] : Json::object();
        if (!props.is_object()) fail(ptr + "/properties", "properties must be an object");
        std::set<std::string> required;
        if (s.contains("required")) {
            if (!s["required"].is_array()) fail(ptr + "/required", "required must be a list of property names");
            for (const auto& r : s["required"]) {
                if (!r.is_string()) fail(ptr + "/required", "required must be a list of property names");
                if (!props.contains(r.get<std::string>()))
                    fail(ptr + "/required", "'" + r.get<std::string>() + "' is required but not among the properties");
                required.insert(r.get<std::string>());
            }
        }
        std::vector<std::string> req, opt;
        for (const auto& [key, sub] : props.items()) {
            const std::string item = kv(hint + "-" + key, key, sub, ptr + "/properties/" + key);
            (required.count(key) ? req : opt).push_back(item);
        }
        // Extra properties: any key (a string) with the additionalProperties schema as value.
        std::string extra;
        if (s.contains("additionalProperties") && !(s["additionalProperties"].is_boolean() && !s["additionalProperties"].get<bool>())) {
            const std::string valueRule = rule(hint + "-additional", s["additionalProperties"], ptr + "/additionalProperties");
            extra = fresh(hint + "-additional-kv");
            rules_[extra] = "string \":\" space " + valueRule;
        }
        // Required keys in order, then each optional key in order (comma-separated whatever is present),
        // then any extra keys.
        std::string out = "\"{\" space ";
        if (!req.empty()) {
            for (size_t i = 0; i < req.size(); ++i) out += (i ? " \",\" space " : "") + req[i];
            for (const auto& o : opt) out += " (\",\" space " + o + ")?";
            if (!extra.empty()) out += " (\",\" space " + extra + ")*";
        } else if (!opt.empty() || !extra.empty()) {
            // tail_j: a non-empty comma list of the present keys among opt[j..] (then extras).
            std::vector<std::string> items = opt;
            std::string next;  // tail_{j+1}
            if (!extra.empty()) {
                next = fresh(hint + "-extras");
                rules_[next] = extra + " (\",\" space " + extra + ")*";
            }
            for (size_t j = items.size(); j-- > 0;) {
                const std::string t = fresh(hint + "-rest");
                rules_[t] = next.empty() ? items[j] : items[j] + " (\",\" space " + next + ")? | " + next;
                next = t;
            }
            out += "(" + next + ")?";
        }
        return out + " \"}\" space";
    }

    std::string arrayExpr(const std::string& hint, const Json& s, const std::string& ptr) {
        const long lo = s.contains("minItems") ? count(s["minItems"], ptr + "/minItems") : 0;
        const long hi = s.contains("maxItems") ? count(s["maxItems"], ptr + "/maxItems") : -1;
        if (hi >= 0 && hi < lo) fail(ptr, "maxItems is below minItems");
        if (s.contains("prefixItems")) {
            const Json& list = s["prefixItems"];
            if (!list.is_array()) fail(ptr + "/prefixItems", "prefixItems must be a list of schemas");
            if (s.contains("items") && !(s["items"].is_boolean() && !s["items"].get<bool>()))
                fail(ptr + "/items", "items beside prefixItems is supported only as false");
            if (lo != static_cast<long>(list.size()) || (hi >= 0 && hi != lo))
                fail(ptr, "prefixItems is supported as a fixed tuple (minItems = maxItems = its length, or neither)");
            std::string out = "\"[\" space ";
            for (size_t i = 0; i < list.size(); ++i)
                out += (i ? " \",\" space " : "") + rule(hint + "-" + std::to_string(i), list[i], ptr + "/prefixItems/" + std::to_string(i));
            return out + " \"]\" space";
        }
        const std::string item = s.contains("items") ? rule(hint + "-item", s["items"], ptr + "/items") : "value";
        if (hi == 0) return "\"[\" space \"]\" space";
        std::string more = "(\",\" space " + item + ")";
        const long restLo = lo > 0 ? lo - 1 : 0;
        more += "{" + std::to_string(restLo) + "," + (hi >= 0 ? std::to_string(hi - 1) : "") + "}";
        const std::string list = item + " " + more;
        return "\"[\" space " + (lo > 0 ? list : "(" + list + ")?") + " \"]\" space";
    }
};

}  // namespace

std::string jsonSchemaToGbnf(std::string_view schemaText, const std::string& source) {
    Json schema;
    try {
        schema = Json::parse(schemaText);
    } catch (const nlohmann::json::exception& e) {
        std::string what = e.what();
        const size_t colon = what.find("] ");
        throw Error(source + ": not valid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2)));
    }
    return Converter(schema, source).run();
}

std::string anyJsonGbnf(bool objectOnly) {
    return std::string(objectOnly ? "root ::= object\n" : "root ::= value\n") + kPrimitives;
}

}  // namespace dlab
