#include "session/json_node.h"

#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.h"

namespace dlab::json_check {

namespace {
std::string numberText(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

std::string range(int64_t lo, int64_t hi) {
    if (hi == std::numeric_limits<int64_t>::max()) return "a whole number of at least " + std::to_string(lo);
    return "a whole number between " + std::to_string(lo) + " and " + std::to_string(hi);
}
}  // namespace

std::string shortValue(const Json& v) {
    if (v.is_array()) return "an array of " + std::to_string(v.size()) + (v.size() == 1 ? " entry" : " entries");
    if (v.is_object()) return "an object";
    // Parsed text is valid UTF-8, so dump() cannot throw; replace guards a value built in code.
    std::string s = v.dump(-1, ' ', false, Json::error_handler_t::replace);
    if (s.size() > 40) s = s.substr(0, 37) + "...";
    return s;
}

std::string Node::path() const {
    std::vector<const Node*> chain;
    for (const Node* n = this; n && n->parent_; n = n->parent_) chain.push_back(n);
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const Node* n = *it;
        if (n->key_) out += (out.empty() ? "" : ".") + std::string(n->key_);
        else out += "[" + std::to_string(n->index_) + "]";
    }
    return out.empty() ? "the document" : out;
}

void Node::fail(const std::string& what) const {
    throw Error(source_ + ": " + path() + " must be " + what + " (got " + shortValue(v_) + ")");
}

void Node::failSentence(const std::string& rest) const { throw Error(source_ + ": " + path() + " " + rest); }

Node Node::field(const char* key, const char* what) const {
    object();
    const auto it = v_.find(key);
    if (it == v_.end()) {
        const Node missing(v_, this, key, 0);
        throw Error(source_ + ": " + missing.path() + " is missing (it must be " + what + ")");
    }
    return Node(*it, this, key, 0);
}

Node Node::item(size_t index) const { return Node(v_.at(index), this, nullptr, index); }

const Node& Node::object() const {
    if (!v_.is_object()) fail("an object");
    return *this;
}

size_t Node::array(size_t maxSize) const {
    if (!v_.is_array() || v_.size() > maxSize) fail("an array of at most " + std::to_string(maxSize) + " entries");
    return v_.size();
}

int64_t Node::integer(int64_t lo, int64_t hi) const {
    if (v_.is_number_unsigned()) {
        const uint64_t u = v_.get<uint64_t>();
        if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
            const auto i = static_cast<int64_t>(u);
            if (i >= lo && i <= hi) return i;
        }
    } else if (v_.is_number_integer()) {
        const auto i = v_.get<int64_t>();
        if (i >= lo && i <= hi) return i;
    }
    fail(range(lo, hi));
}

double Node::number() const {
    if (!v_.is_number()) fail("a number");
    const double d = v_.get<double>();
    if (!std::isfinite(d)) fail("a finite number");
    return d;
}

double Node::numberAtLeast(double lo) const {
    if (!v_.is_number() || !(v_.get<double>() >= lo) || !std::isfinite(v_.get<double>())) fail("a number of at least " + numberText(lo));
    return v_.get<double>();
}

float Node::floatNumber() const {
    // Outside a float's range the conversion is undefined: refuse it here.
    if (!v_.is_number() || !(std::fabs(v_.get<double>()) <= FLT_MAX)) fail("a number (a float: at most 3.4e38 in size)");
    return static_cast<float>(v_.get<double>());
}

float Node::floatIn(float lo, float hi) const {
    if (!v_.is_number() || !(v_.get<double>() >= lo && v_.get<double>() <= hi))
        fail("a number between " + numberText(lo) + " and " + numberText(hi));
    return static_cast<float>(v_.get<double>());
}

float Node::floatOrNegInf() const {
    if (v_.is_null()) return -std::numeric_limits<float>::infinity();
    if (!v_.is_number() || !(std::fabs(v_.get<double>()) <= FLT_MAX)) fail("a number (a float) or null for -infinity");
    return static_cast<float>(v_.get<double>());
}

bool Node::boolean() const {
    if (!v_.is_boolean()) fail("true or false");
    return v_.get<bool>();
}

std::string Node::string(size_t maxSize) const {
    if (!v_.is_string() || v_.get_ref<const std::string&>().size() > maxSize)
        fail("a string of at most " + std::to_string(maxSize) + " bytes");
    return v_.get<std::string>();
}

std::string Node::hexBytes(size_t maxBytes) const {
    const auto digit = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    const std::string what = "a string of hex digit pairs (the token's bytes, at most " + std::to_string(maxBytes) + ")";
    if (!v_.is_string()) fail(what);
    const std::string& s = v_.get_ref<const std::string&>();
    if (s.size() % 2 != 0 || s.size() / 2 > maxBytes) fail(what);
    std::string out;
    out.reserve(s.size() / 2);
    for (size_t i = 0; i < s.size(); i += 2) {
        const int hi = digit(s[i]), lo = digit(s[i + 1]);
        if (hi < 0 || lo < 0) fail(what);
        out += static_cast<char>(hi * 16 + lo);
    }
    return out;
}

}  // namespace dlab::json_check
