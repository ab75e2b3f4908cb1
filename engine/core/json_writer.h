#pragma once
// A streaming-style front on nlohmann-json for CLI output and trace files: callers write
// beginObject().field("k", v)...endObject() in order, nlohmann-json keeps the document (keys in
// the order written) and writes the text: escaping, numbers (the shortest text that reads back as
// the same double; NaN and infinities as null) and invalid UTF-8 (as U+FFFD).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace dlab {

class JsonWriter {
public:
    JsonWriter& beginObject() { open(nlohmann::ordered_json::object()); return *this; }
    JsonWriter& endObject() { stack_.pop_back(); return *this; }
    JsonWriter& beginArray() { open(nlohmann::ordered_json::array()); return *this; }
    JsonWriter& endArray() { stack_.pop_back(); return *this; }
    JsonWriter& key(std::string_view k) { key_.assign(k); return *this; }

    JsonWriter& value(std::string_view s) { add(std::string(s)); return *this; }
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(bool b) { add(b); return *this; }
    JsonWriter& value(int v) { add(static_cast<int64_t>(v)); return *this; }
    JsonWriter& value(int64_t v) { add(v); return *this; }
    JsonWriter& value(uint64_t v) { add(v); return *this; }
    JsonWriter& value(double v) { add(v); return *this; }
    JsonWriter& value(float v) { return value(static_cast<double>(v)); }
    template <typename T>
    JsonWriter& field(std::string_view k, const T& v) { key(k); return value(v); }

    const std::string& str() const {
        text_ = root_.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
        return text_;
    }

private:
    // Where the next value goes: the root, the open array, or the open object under key_.
    nlohmann::ordered_json* add(nlohmann::ordered_json v) {
        if (stack_.empty()) {
            root_ = std::move(v);
            return &root_;
        }
        nlohmann::ordered_json& top = *stack_.back();
        if (top.is_array()) {
            top.push_back(std::move(v));
            return &top.back();
        }
        nlohmann::ordered_json& slot = top[key_];
        slot = std::move(v);
        return &slot;
    }
    // Children are only added to the innermost open container, so the pointers to the open ones
    // stay valid.
    void open(nlohmann::ordered_json empty) { stack_.push_back(add(std::move(empty))); }

    nlohmann::ordered_json root_;
    std::vector<nlohmann::ordered_json*> stack_;
    std::string key_;
    mutable std::string text_;
};

}  // namespace dlab
