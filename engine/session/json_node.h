#pragma once
// A checked view of one value inside a parsed JSON document (nlohmann::json) that knows its JSON
// path ("branches[0].steps[3].p") and reads itself as the type a field must have, or throws one
// dlab::Error sentence: "<source>: <path> must be <what> (got <value>)". The path is built only
// when a check fails: a node is a reference, its parent and its key, so reading costs no strings.
// Internal to the session reader.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace dlab::json_check {

using Json = nlohmann::json;

class Node {
public:
    Node(const Json& value, const std::string& source) : v_(value), source_(source) {}

    const Json& value() const { return v_; }
    std::string path() const;
    [[noreturn]] void fail(const std::string& what) const;        // "<path> must be <what> (got …)"
    [[noreturn]] void failSentence(const std::string& rest) const;  // "<path> <rest>"

    // A member of this object; missing: "<path.key> is missing (it must be <what>)".
    Node field(const char* key, const char* what) const;
    bool has(const char* key) const { return v_.is_object() && v_.contains(key); }
    Node item(size_t index) const;

    // This value as…
    const Node& object() const;                        // an object
    size_t array(size_t maxSize) const;                // an array of at most maxSize entries: its size
    int64_t integer(int64_t lo, int64_t hi) const;     // a whole number in [lo, hi]
    double number() const;                             // a finite number
    double numberAtLeast(double lo) const;             // a finite number >= lo
    float floatNumber() const;                         // a number a float holds
    float floatIn(float lo, float hi) const;           // a number in [lo, hi]
    float floatOrNegInf() const;                       // a number a float holds, or null for -inf
    bool boolean() const;
    std::string string(size_t maxSize) const;          // a string of at most maxSize bytes
    std::string hexBytes(size_t maxBytes) const;       // a string of hex digit pairs

private:
    Node(const Json& value, const Node* parent, const char* key, size_t index)
        : v_(value), source_(parent->source_), parent_(parent), key_(key), index_(index) {}

    const Json& v_;
    const std::string& source_;
    const Node* parent_ = nullptr;   // nullptr: the document
    const char* key_ = nullptr;      // set: a member; else an array item at index_
    size_t index_ = 0;
};

// A short rendering of a value for "(got …)": scalars as JSON, containers by their size.
std::string shortValue(const Json& v);

}  // namespace dlab::json_check
