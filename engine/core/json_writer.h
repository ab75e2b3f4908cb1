#pragma once
// A minimal streaming JSON writer for CLI output and trace files (no DOM, no dependencies).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace dlab {

class JsonWriter {
public:
    JsonWriter& beginObject() { sep(); out_ += '{'; first_.push_back(true); return *this; }
    JsonWriter& endObject() { out_ += '}'; first_.pop_back(); return *this; }
    JsonWriter& beginArray() { sep(); out_ += '['; first_.push_back(true); return *this; }
    JsonWriter& endArray() { out_ += ']'; first_.pop_back(); return *this; }
    JsonWriter& key(std::string_view k) { sep(); quote(k); out_ += ':'; pendingValue_ = true; return *this; }

    JsonWriter& value(std::string_view s) { sep(); quote(s); return *this; }
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(bool b) { sep(); out_ += b ? "true" : "false"; return *this; }
    JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
    JsonWriter& value(int64_t v) { sep(); out_ += std::to_string(v); return *this; }
    JsonWriter& value(uint64_t v) { sep(); out_ += std::to_string(v); return *this; }
    JsonWriter& value(double v) {
        sep();
        if (!std::isfinite(v)) { out_ += "null"; return *this; }
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.9g", v);
        out_ += buf;
        return *this;
    }
    JsonWriter& value(float v) { return value(static_cast<double>(v)); }
    template <typename T>
    JsonWriter& field(std::string_view k, const T& v) { key(k); return value(v); }

    const std::string& str() const { return out_; }

private:
    void sep() {
        if (pendingValue_) { pendingValue_ = false; return; }
        if (!first_.empty()) {
            if (!first_.back()) out_ += ',';
            first_.back() = false;
        }
    }
    void quote(std::string_view s) {
        out_ += '"';
        for (unsigned char c : s) {
            switch (c) {
                case '"': out_ += "\\\""; break;
                case '\\': out_ += "\\\\"; break;
                case '\n': out_ += "\\n"; break;
                case '\r': out_ += "\\r"; break;
                case '\t': out_ += "\\t"; break;
                default:
                    if (c < 0x20) {
                        char buf[8];
                        std::snprintf(buf, sizeof buf, "\\u%04x", c);
                        out_ += buf;
                    } else {
                        out_ += static_cast<char>(c);
                    }
            }
        }
        out_ += '"';
    }
    std::string out_;
    std::vector<bool> first_;
    bool pendingValue_ = false;
};

}  // namespace dlab
